/// A strict RFC 8259 JSON parser that works on UTF-8 bytes.
///
/// The parser rejects anything the grammar does not allow — trailing commas,
/// comments, leading zeros, `NaN`, unescaped control characters — as well as
/// invalid UTF-8, unpaired surrogate escapes, and duplicate object keys. A
/// leading UTF-8 byte order mark is skipped. Errors carry a line and column.
///
/// Nesting is handled without recursion, so deep input fails with an error at
/// the container that exceeds ``Limits/maxDepth`` rather than overflowing the
/// stack. (Values are still destroyed, compared, and serialized recursively, so
/// keep `maxDepth` in the hundreds or low thousands.)
package enum JSONParser {
    /// Bounds on the input the parser accepts.
    package struct Limits: Sendable, Hashable {
        /// The maximum number of nested arrays and objects.
        package var maxDepth: Int

        /// The maximum input size in bytes.
        package var maxBytes: Int

        /// Creates limits; the defaults suit hand-written scenario files.
        package init(maxDepth: Int = 256, maxBytes: Int = 16 << 20) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
        }
    }

    /// Parses a whole document, keeping the source offset of every value.
    package static func parse(_ bytes: [UInt8], limits: Limits = .init()) throws(JSONParseError) -> JSONNode {
        try parse(bytes, limits: limits, builder: JSONNodeBuilder())
    }

    /// Parses a whole document into a value, without source offsets.
    ///
    /// This is the fast path for JSON Lines: call it once per line.
    package static func parseValue(_ bytes: [UInt8], limits: Limits = .init()) throws(JSONParseError) -> JSONValue {
        try parse(bytes, limits: limits, builder: JSONValueBuilder())
    }

    private static func parse<Builder: JSONTreeBuilder>(
        _ bytes: [UInt8], limits: Limits, builder: Builder
    ) throws(JSONParseError) -> Builder.Value {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> Builder.Value in
            guard buffer.count <= limits.maxBytes else {
                let error = JSONSyntaxError(
                    message: "file larger than \(InputBytes.describeSize(limits.maxBytes))",
                    offset: max(limits.maxBytes, 0))
                throw JSONParseError(error, in: buffer)
            }
            var scanner = JSONScanner(bytes: buffer, builder: builder, maxDepth: limits.maxDepth)
            do throws(JSONSyntaxError) {
                return try scanner.parseDocument()
            } catch {
                throw JSONParseError(error, in: buffer)
            }
        }
    }
}

/// Builds plain values, dropping positions.
struct JSONValueBuilder: JSONTreeBuilder {
    func makeNull(at offset: Int) -> JSONValue { .null }
    func makeBool(_ value: Bool, at offset: Int) -> JSONValue { .bool(value) }
    func makeInt(_ value: Int, at offset: Int) -> JSONValue { .int(value) }
    func makeDouble(_ value: Double, at offset: Int) -> JSONValue { .double(value) }
    func makeString(_ value: String, at offset: Int) -> JSONValue { .string(value) }

    func makeArray(_ elements: ArraySlice<JSONValue>, at offset: Int) -> JSONValue {
        .array(Array(elements))
    }

    func makeObject(_ keysAndValues: ArraySlice<JSONValue>, at offset: Int) -> JSONValue {
        var members: [JSONObject.Member] = []
        members.reserveCapacity(keysAndValues.count / 2)
        for index in stride(from: keysAndValues.startIndex, to: keysAndValues.endIndex, by: 2) {
            members.append((keyString(keysAndValues[index]), keysAndValues[index + 1]))
        }
        return .object(JSONObject(uncheckedUniqueMembers: members))
    }

    func keyString(_ key: JSONValue) -> String {
        guard case .string(let string) = key else { preconditionFailure("object key is not a string") }
        return string
    }
}

/// Builds nodes that remember their offsets.
struct JSONNodeBuilder: JSONTreeBuilder {
    func makeNull(at offset: Int) -> JSONNode { JSONNode(kind: .null, offset: offset) }
    func makeBool(_ value: Bool, at offset: Int) -> JSONNode { JSONNode(kind: .bool(value), offset: offset) }
    func makeInt(_ value: Int, at offset: Int) -> JSONNode { JSONNode(kind: .int(value), offset: offset) }
    func makeDouble(_ value: Double, at offset: Int) -> JSONNode { JSONNode(kind: .double(value), offset: offset) }
    func makeString(_ value: String, at offset: Int) -> JSONNode { JSONNode(kind: .string(value), offset: offset) }

    func makeArray(_ elements: ArraySlice<JSONNode>, at offset: Int) -> JSONNode {
        JSONNode(kind: .array(Array(elements)), offset: offset)
    }

    func makeObject(_ keysAndValues: ArraySlice<JSONNode>, at offset: Int) -> JSONNode {
        var members: [JSONMember] = []
        members.reserveCapacity(keysAndValues.count / 2)
        for index in stride(from: keysAndValues.startIndex, to: keysAndValues.endIndex, by: 2) {
            let key = keysAndValues[index]
            members.append(JSONMember(key: keyString(key), keyOffset: key.offset, value: keysAndValues[index + 1]))
        }
        return JSONNode(kind: .object(members), offset: offset)
    }

    func keyString(_ key: JSONNode) -> String {
        guard case .string(let string) = key.kind else { preconditionFailure("object key is not a string") }
        return string
    }
}
