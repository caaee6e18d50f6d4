/// The members of a JSON object: unique keys with values, in order.
///
/// Members keep the order in which they were parsed or inserted, which is the
/// order they serialize in unless sorted keys are requested. Keys are compared
/// by Unicode scalars, so `"é"` (U+00E9) and `"e\u{301}"` are different keys,
/// just as they are different bytes in a JSON file.
///
/// Two objects are equal when they hold equal members in the same order; use
/// ``JSONValue/semanticallyEquals(_:)`` to ignore order.
package struct JSONObject: Sendable {
    /// A key and its value.
    package typealias Member = (key: String, value: JSONValue)

    private var members: [Member]

    /// Positions by key, kept only for objects too large for a linear search.
    private var positions: [JSONKey: Int]?

    private static let indexThreshold = 16

    /// Creates an empty object.
    package init() {
        members = []
        positions = nil
    }

    /// Creates an object from members in the given order.
    ///
    /// - Precondition: The keys are unique.
    package init<S: Sequence>(uniqueKeysWithValues members: S) where S.Element == Member {
        self.init()
        for member in members {
            precondition(self.index(forKey: member.key) == nil, "duplicate JSON object key \"\(member.key)\"")
            append(member)
        }
    }

    /// Creates an object from members whose keys are already known to be unique.
    init(uncheckedUniqueMembers members: [Member]) {
        self.members = members
        positions = nil
        rebuildPositions()
    }

    /// The keys, in order.
    package var keys: [String] { members.map(\.key) }

    /// The values, in key order.
    package var values: [JSONValue] { members.map(\.value) }

    /// The position of the member named `key`, if any.
    package func index(forKey key: String) -> Int? {
        if let positions { return positions[JSONKey(key)] }
        return members.firstIndex { $0.key.hasSameUnicodeScalars(as: key) }
    }

    /// The value for `key`.
    ///
    /// Setting a value for an existing key replaces it in place; setting one for
    /// a new key appends a member; setting `nil` removes the member.
    package subscript(key: String) -> JSONValue? {
        get {
            index(forKey: key).map { members[$0].value }
        }
        set {
            if let position = index(forKey: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    rebuildPositions()
                }
            } else if let newValue {
                append((key, newValue))
            }
        }
    }

    /// Removes the member named `key` and returns its value, if there was one.
    @discardableResult
    package mutating func removeValue(forKey key: String) -> JSONValue? {
        let old = self[key]
        self[key] = nil
        return old
    }

    private mutating func append(_ member: Member) {
        members.append(member)
        if positions != nil {
            positions![JSONKey(member.key)] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildPositions()
        }
    }

    private mutating func rebuildPositions() {
        guard members.count > Self.indexThreshold else {
            positions = nil
            return
        }
        var positions = [JSONKey: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() {
            positions[JSONKey(member.key)] = position
        }
        self.positions = positions
    }
}

extension JSONObject: RandomAccessCollection {
    package var startIndex: Int { members.startIndex }
    package var endIndex: Int { members.endIndex }

    package subscript(position: Int) -> Member {
        members[position]
    }
}

extension JSONObject: Hashable {
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { a, b in
                a.key.hasSameUnicodeScalars(as: b.key) && a.value == b.value
            }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object whose members keep the literal's order.
    ///
    /// - Precondition: The keys are unique.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(uniqueKeysWithValues: elements.lazy.map { (key: $0.0, value: $0.1) })
    }
}

/// A string that compares by Unicode scalars, for use as a dictionary key.
struct JSONKey: Hashable, Sendable {
    var string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (lhs: JSONKey, rhs: JSONKey) -> Bool {
        lhs.string.hasSameUnicodeScalars(as: rhs.string)
    }

    func hash(into hasher: inout Hasher) {
        // Canonically equivalent strings hash alike, so scalar-equal ones do too.
        hasher.combine(string)
    }
}

extension String {
    /// Whether both strings have the same Unicode scalars, unlike `==`, which
    /// also matches canonically equivalent strings.
    func hasSameUnicodeScalars(as other: String) -> Bool {
        // `==` is fast and never false for scalar-equal strings.
        self == other && utf8.elementsEqual(other.utf8)
    }

    /// Whether this string orders before `other` by Unicode scalar values.
    ///
    /// UTF-8 byte order is scalar order, and unlike `<` it does not depend on
    /// the platform's string comparison.
    func unicodeScalarsPrecede(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}
