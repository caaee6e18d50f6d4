extension JSONValue {
    /// How ``JSONValue`` serializes.
    package struct WriteOptions: Sendable, Hashable {
        /// Whether to break lines and indent nested values by two spaces.
        ///
        /// Empty arrays and objects stay on one line (`[]`, `{}`), and no
        /// newline follows the last line.
        package var pretty: Bool

        /// Whether to write object members in Unicode scalar order of their
        /// keys instead of their stored order.
        package var sortedKeys: Bool

        /// Creates options.
        package init(pretty: Bool, sortedKeys: Bool) {
            self.pretty = pretty
            self.sortedKeys = sortedKeys
        }

        /// Pretty-printed with sorted keys: stable output for golden files.
        package static let canonical = WriteOptions(pretty: true, sortedKeys: true)

        /// One line with sorted keys.
        package static let compact = WriteOptions(pretty: false, sortedKeys: true)

        /// One line in stored member order: the fastest, for JSON Lines.
        package static let compactPreservingOrder = WriteOptions(pretty: false, sortedKeys: false)

        /// Pretty-printed in stored member order.
        package static let prettyPreservingOrder = WriteOptions(pretty: true, sortedKeys: false)
    }

    /// The value as JSON text.
    ///
    /// Output is deterministic: strings escape only `"`, `\`, and control
    /// characters (never `/` or non-ASCII); integers print as integers;
    /// doubles print as Swift's shortest round-tripping `description`, with
    /// infinities and NaN, which parsing never produces, written as `null`.
    package func serialized(_ options: WriteOptions = .canonical) -> String {
        var bytes: [UInt8] = []
        write(into: &bytes, options: options)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value as UTF-8 JSON text to `buffer`.
    ///
    /// The output is the same as ``serialized(_:)``; appending to a reused
    /// buffer avoids building a `String` per value.
    package func write(into buffer: inout [UInt8], options: WriteOptions) {
        JSONWriter(options: options).write(self, depth: 0, to: &buffer)
    }
}

/// Serializes values; recursion depth equals the value's nesting depth.
struct JSONWriter {
    let options: JSONValue.WriteOptions

    func write(_ value: JSONValue, depth: Int, to out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let value):
            out.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .int(let value):
            Self.appendInt(value, to: &out)
        case .double(let value):
            if value.isFinite {
                out.append(contentsOf: value.description.utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let value):
            Self.appendString(value, to: &out)
        case .array(let elements):
            guard !elements.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(depth: depth + 1, to: &out)
                write(element, depth: depth + 1, to: &out)
            }
            newline(depth: depth, to: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            if options.sortedKeys && object.count > 1 {
                let order = object.indices.sorted { object[$0].key.unicodeScalarsPrecede(object[$1].key) }
                for (index, position) in order.enumerated() {
                    writeMember(object[position], first: index == 0, depth: depth, to: &out)
                }
            } else {
                for (index, member) in object.enumerated() {
                    writeMember(member, first: index == 0, depth: depth, to: &out)
                }
            }
            newline(depth: depth, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private func writeMember(_ member: JSONObject.Member, first: Bool, depth: Int, to out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        newline(depth: depth + 1, to: &out)
        Self.appendString(member.key, to: &out)
        out.append(UInt8(ascii: ":"))
        if options.pretty { out.append(UInt8(ascii: " ")) }
        write(member.value, depth: depth + 1, to: &out)
    }

    private func newline(depth: Int, to out: inout [UInt8]) {
        guard options.pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    static func appendInt(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // Digits come out least significant first; write them, then reverse.
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude != 0
        out[start...].reverse()
    }

    /// Appends `string` as a quoted JSON string.
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            // Copy runs of bytes that need no escaping in one go.
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: "u00".utf8)
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0xF))
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
