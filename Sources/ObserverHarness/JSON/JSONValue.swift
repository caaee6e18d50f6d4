/// A JSON value.
///
/// Objects keep their members in document (or insertion) order; see ``JSONObject``.
///
/// Equality is exact and structural: `.int(1)` and `.double(1)` are different
/// values, object members must appear in the same order, and strings compare by
/// Unicode scalars rather than by Swift's canonical equivalence, so two strings
/// that serialize to different bytes never compare equal. Use
/// ``semanticallyEquals(_:)`` to compare values by meaning instead.
package enum JSONValue: Sendable {
    /// The literal `null`.
    case null
    /// The literal `true` or `false`.
    case bool(Bool)
    /// An integer literal that fits in `Int`.
    ///
    /// `-0` parses as `.double(-0.0)` because `Int` has no negative zero.
    case int(Int)
    /// Any other number: fractions, exponents, and integers too large for `Int`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with members in document order.
    case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
    /// The member named `key` if this is an object that has one; otherwise `nil`.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// Whether this is `null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The payload of a `.bool`; otherwise `nil`.
    package var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The payload of an `.int`, or of a `.double` that holds an integer exactly
    /// representable as `Int`; otherwise `nil`.
    package var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The payload of a `.double`, or an `.int` converted to `Double`
    /// (rounded to the nearest representable value); otherwise `nil`.
    package var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        default: return nil
        }
    }

    /// The payload of a `.string`; otherwise `nil`.
    package var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The elements of an `.array`; otherwise `nil`.
    package var arrayValue: [JSONValue]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The members of an `.object`; otherwise `nil`.
    package var objectValue: JSONObject? {
        guard case .object(let value) = self else { return nil }
        return value
    }
}

// MARK: - Equality

extension JSONValue: Hashable {
    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a.hasSameUnicodeScalars(as: b)
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        // String hashing follows canonical equivalence, which is coarser than
        // scalar equality, so equal values still hash equally.
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .int(let value): hasher.combine(2); hasher.combine(value)
        case .double(let value): hasher.combine(3); hasher.combine(value)
        case .string(let value): hasher.combine(4); hasher.combine(value)
        case .array(let value): hasher.combine(5); hasher.combine(value)
        case .object(let value): hasher.combine(6); hasher.combine(value)
        }
    }

    /// Whether two values mean the same thing.
    ///
    /// Unlike `==`, numbers compare by value (`.int(1)` matches `.double(1.0)`)
    /// and objects compare by their members regardless of order.
    package func semanticallyEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case let (.int(a), .double(b)), let (.double(b), .int(a)):
            // Compare exactly; converting `a` to Double could round.
            return Int(exactly: b) == a
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.semanticallyEquals($1) }
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in
                b[member.key].map { member.value.semanticallyEquals($0) } ?? false
            }
        default:
            return self == other
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON, with object members in their stored order.
    package var description: String {
        serialized(.compactPreservingOrder)
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    package init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    package init(integerLiteral value: Int) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    package init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    package init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object whose members keep the literal's order.
    ///
    /// - Precondition: The keys are unique.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(uniqueKeysWithValues: elements.lazy.map { (key: $0.0, value: $0.1) }))
    }
}
