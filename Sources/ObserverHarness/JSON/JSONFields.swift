/// A parsed input document (a scenario, a report, a baseline, one line of a
/// trace) and the file it came from: turns byte offsets into
/// `PATH:LINE:COLUMN` errors.
struct JSONInput {
    let path: String
    let root: JSONNode
    private let bytes: [UInt8]
    private let positions: Positions

    /// How offsets become positions: through the whole document's lines, or
    /// within one JSON Lines line whose number is known (a lone `\r` inside
    /// it is whitespace, not a line break).
    private enum Positions {
        case document(JSONSourceText)
        case line(Int)
    }

    /// Parses `bytes`; a syntax error is an ``InputError`` at its position.
    init(_ bytes: [UInt8], path: String, limits: JSONParser.Limits) throws(InputError) {
        self.path = path
        self.bytes = bytes
        positions = .document(JSONSourceText(bytes: bytes))
        do {
            root = try JSONParser.parse(bytes, limits: limits)
        } catch {
            throw InputError(path: path, line: error.line, column: error.column, message: error.message)
        }
    }

    /// One line of a JSON Lines file, already parsed: offsets are within
    /// `bytes`, and every position is on line `number`.
    init(line bytes: [UInt8], number: Int, root: JSONNode, path: String) {
        self.path = path
        self.bytes = bytes
        self.root = root
        positions = .line(number)
    }

    /// The 1-based line and column of a byte offset.
    func position(ofOffset offset: Int) -> (line: Int, column: Int) {
        switch positions {
        case .document(let text): text.position(ofOffset: offset)
        case .line(let number): (number, Self.column(in: bytes, offset: offset))
        }
    }

    /// The 1-based column of a byte offset within one line, in Unicode
    /// scalars, not counting a leading byte order mark.
    static func column(in bytes: [UInt8], offset: Int) -> Int {
        let end = min(max(offset, 0), bytes.count)
        let start = min(InputBytes.byteOrderMarkLength(bytes), end)
        var column = 1
        for index in start..<end where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    func error(_ message: String, at offset: Int) -> InputError {
        let position = position(ofOffset: offset)
        return InputError(path: path, line: position.line, column: position.column, message: message)
    }

    /// The members of an object node, read with ``JSONFields``.
    func fields(_ node: JSONNode, _ what: String) throws(InputError) -> JSONFields {
        guard case .object(let members) = node.kind else { throw error("\(what) must be an object", at: node.offset) }
        return JSONFields(members: members, offset: node.offset, what: what, input: self)
    }

    func array(_ node: JSONNode, _ what: String) throws(InputError) -> [JSONNode] {
        guard case .array(let elements) = node.kind else { throw error("\(what) must be a list", at: node.offset) }
        return elements
    }

    func string(_ node: JSONNode, _ what: String) throws(InputError) -> String {
        guard case .string(let value) = node.kind else { throw error("\(what) must be a string", at: node.offset) }
        return value
    }

    /// A whole number, 0 or more.
    func count(_ node: JSONNode, _ what: String) throws(InputError) -> Int {
        guard case .int(let value) = node.kind, value >= 0 else {
            // The parser keeps integers past `Int.max` as doubles: too large, not fractional.
            if case .double(let value) = node.kind, value >= 0, value.rounded() == value {
                throw error("\(what) must be a whole number from 0 to \(Int.max)", at: node.offset)
            }
            throw error("\(what) must be a whole number, 0 or more", at: node.offset)
        }
        return value
    }

    /// A whole number from 0 to 2^64 - 1 (a recorded time). The parser keeps
    /// integers past `Int.max` as doubles, which round, so those are read
    /// again, exactly, from their digits.
    /// `range`: the largest value the field takes, for the message (the
    /// caller checks it; a time takes any).
    func unsigned(_ node: JSONNode, _ what: String, upTo range: UInt64 = .max) throws(InputError) -> UInt64 {
        let invalid = error("\(what) must be a whole number from 0 to \(range)", at: node.offset)
        switch node.kind {
        case .int(let value):
            guard value >= 0 else { throw invalid }
            return UInt64(value)
        case .double:
            var value: UInt64 = 0
            var cursor = node.offset
            while cursor < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]) {
                let (product, overflowA) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = product.addingReportingOverflow(UInt64(bytes[cursor] - UInt8(ascii: "0")))
                guard !overflowA && !overflowB else { throw invalid }
                value = sum
                cursor += 1
            }
            // Digits only: a fraction, an exponent or a sign is not a whole number here.
            let isDigitsOnly =
                cursor > node.offset
                && (cursor == bytes.count
                    || ![UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[cursor]))
            guard isDigitsOnly else { throw invalid }
            return value
        default:
            throw invalid
        }
    }
}

/// A string read from a document and where it was written, for errors that
/// point at the value.
struct Positioned<Value> {
    let value: Value
    let offset: Int
}

/// One JSON object's fields, read by type with errors at the offending key or
/// value. Every input reader (scenario, report, baseline) reads through it, so
/// a wrong type reads the same everywhere.
///
/// A `null` optional field counts as absent.
struct JSONFields {
    let members: [JSONMember]
    /// The object's own offset: where a missing field is reported.
    let offset: Int
    /// How errors name the object: `"a step"`, `"registry \"center\""`.
    let what: String
    let input: JSONInput

    func node(_ key: String) -> JSONNode? { members.first { $0.key == key }?.value }
    func has(_ key: String) -> Bool { node(key) != nil }
    func keyOffset(_ key: String) -> Int { members.first { $0.key == key }?.keyOffset ?? offset }

    func allowOnly(_ keys: Set<String>) throws(InputError) {
        for member in members where !keys.contains(member.key) {
            throw input.error("unknown field \"\(member.key)\" in \(what)", at: member.keyOffset)
        }
    }

    func required(_ key: String) throws(InputError) -> JSONNode {
        guard let node = node(key) else { throw input.error("\(what) needs \"\(key)\"", at: offset) }
        return node
    }

    func requiredString(_ key: String) throws(InputError) -> Positioned<String> {
        let node = try required(key)
        return Positioned(value: try input.string(node, "\"\(key)\""), offset: node.offset)
    }

    func optionalString(_ key: String) throws(InputError) -> Positioned<String>? {
        guard let node = node(key) else { return nil }
        if case .null = node.kind { return nil }
        return Positioned(value: try input.string(node, "\"\(key)\""), offset: node.offset)
    }

    func optionalBool(_ key: String) throws(InputError) -> Bool? {
        guard let node = node(key) else { return nil }
        guard case .bool(let value) = node.kind else {
            throw input.error("\"\(key)\" must be true or false", at: node.offset)
        }
        return value
    }

    /// A whole number, 0 or more.
    func optionalCount(_ key: String) throws(InputError) -> Int? {
        guard let node = node(key) else { return nil }
        return try input.count(node, "\"\(key)\"")
    }

    /// A string naming one case of `Choice`; `expected` lists the choices for
    /// the error.
    func optionalChoice<Choice: RawRepresentable<String>>(_ key: String, _ expected: String)
        throws(InputError) -> Choice?
    {
        guard let text = try optionalString(key) else { return nil }
        guard let choice = Choice(rawValue: text.value) else {
            throw input.error("\"\(key)\" must be \(expected)", at: text.offset)
        }
        return choice
    }

    /// A required string naming one case of `Choice`.
    func requiredChoice<Choice: RawRepresentable<String>>(_ key: String, _ expected: String)
        throws(InputError) -> Choice
    {
        let text = try requiredString(key)
        guard let choice = Choice(rawValue: text.value) else {
            throw input.error("\"\(key)\" must be \(expected), not \"\(text.value)\"", at: text.offset)
        }
        return choice
    }

    /// `"format": FORMAT` exactly.
    func checkFormat(_ format: String) throws(InputError) {
        let given = try requiredString("format")
        guard given.value == format else {
            throw input.error("\"format\" must be \"\(format)\", not \"\(given.value)\"", at: given.offset)
        }
    }

    /// `"version": N` where N is `supported`; `1.0` is the number 1, so it
    /// reads as version 1 (`1.5`, `-0` or `"1"` are not versions).
    func checkVersion(_ supported: Int, of document: String) throws(InputError) {
        let node = try required("version")
        let version: Int
        switch node.kind {
        case .int(let value):
            version = value
        case .double(let value)
        where value.rounded() == value && value.sign == .plus
            && value < 0x1p63:
            version = Int(value)
        default:
            throw input.error("\"version\" must be an integer", at: node.offset)
        }
        guard version == supported else {
            throw input.error(
                "unsupported \(document) version \(version) (this tool reads version \(supported))",
                at: node.offset)
        }
    }
}
