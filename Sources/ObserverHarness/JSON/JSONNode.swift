/// A parsed JSON value together with where it appeared in the source.
///
/// ``JSONParser/parse(_:limits:)`` produces nodes so that code validating a
/// document can report problems at a line and column; convert offsets with
/// ``JSONSourceText``.
package struct JSONNode: Sendable {
    /// The value of a node, with nested values as nodes.
    package enum Kind: Sendable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)
        case array([JSONNode])
        /// Members in document order; keys are unique.
        case object([JSONMember])
    }

    /// The value, with positions for nested values.
    package var kind: Kind

    /// The byte offset of the value's first byte in the source.
    package var offset: Int

    /// Creates a node.
    package init(kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The value without source positions.
    package var value: JSONValue {
        switch kind {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array(let elements): return .array(elements.map(\.value))
        case .object(let members):
            return .object(JSONObject(uncheckedUniqueMembers: members.map { ($0.key, $0.value.value) }))
        }
    }

    /// The member named `key` if this node is an object that has one.
    package func member(_ key: String) -> JSONMember? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key.hasSameUnicodeScalars(as: key) }
    }

    /// The value of the member named `key` if this node is an object that has one.
    package subscript(key: String) -> JSONNode? {
        member(key)?.value
    }
}

/// A member of a parsed JSON object.
package struct JSONMember: Sendable {
    /// The member's key.
    package var key: String

    /// The byte offset of the key's opening quote in the source.
    package var keyOffset: Int

    /// The member's value.
    package var value: JSONNode

    /// Creates a member.
    package init(key: String, keyOffset: Int, value: JSONNode) {
        self.key = key
        self.keyOffset = keyOffset
        self.value = value
    }
}
