/// Scalars, bytes, and error messages.
extension JSONScanner {
    // MARK: Scalars

    /// Parses the string whose opening quote is at `position`.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position + 1
        var cursor = start
        // Fast path: no escapes, so the string is a slice of the input.
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                position = cursor + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start, firstEscape: cursor)
            } else if byte < 0x20 {
                throw controlCharacter(at: cursor)
            } else if byte < 0x80 {
                cursor += 1
            } else {
                cursor += try utf8SequenceLength(at: cursor)
            }
        }
        throw endOfInput()
    }

    private mutating func parseEscapedString(from start: Int, firstEscape: Int) throws(JSONSyntaxError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[start..<firstEscape])
        var cursor = firstEscape
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                position = cursor + 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                cursor = try parseEscape(at: cursor)
            } else if byte < 0x20 {
                throw controlCharacter(at: cursor)
            } else if byte < 0x80 {
                scratch.append(byte)
                cursor += 1
            } else {
                let length = try utf8SequenceLength(at: cursor)
                scratch.append(contentsOf: bytes[cursor..<cursor + length])
                cursor += length
            }
        }
        throw endOfInput()
    }

    /// Appends the escape starting with the backslash at `escape` to `scratch`
    /// and returns the offset after it.
    private mutating func parseEscape(at escape: Int) throws(JSONSyntaxError) -> Int {
        guard escape + 1 < bytes.count else { throw endOfInput() }
        let byte = bytes[escape + 1]
        let decoded: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = byte
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            return try parseUnicodeEscape(at: escape)
        case 0x21...0x7E:
            throw JSONSyntaxError(message: "invalid escape '\\\(Character(Unicode.Scalar(byte)))'", offset: escape)
        default:
            throw JSONSyntaxError(message: "invalid escape sequence", offset: escape)
        }
        scratch.append(decoded)
        return escape + 2
    }

    /// Handles `\uXXXX`, pairing surrogates, at the backslash at `escape`.
    private mutating func parseUnicodeEscape(at escape: Int) throws(JSONSyntaxError) -> Int {
        let unit = try hexQuad(escape: escape)
        var end = escape + 6
        let scalar: UInt32
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate must be followed by an escaped low surrogate.
            guard end < bytes.count else { throw endOfInput() }
            guard bytes[end] == UInt8(ascii: "\\") else { throw unpairedSurrogate(unit, at: escape) }
            guard end + 1 < bytes.count else { throw endOfInput() }
            guard bytes[end + 1] == UInt8(ascii: "u") else { throw unpairedSurrogate(unit, at: escape) }
            let low = try hexQuad(escape: end)
            guard (0xDC00...0xDFFF).contains(low) else { throw unpairedSurrogate(unit, at: escape) }
            scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            end += 6
        case 0xDC00...0xDFFF:
            throw unpairedSurrogate(unit, at: escape)
        default:
            scalar = unit
        }
        // Every value here is a valid scalar: surrogates were excluded above.
        scratch.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
        return end
    }

    /// The four hex digits after the `\u` at `escape`.
    private func hexQuad(escape: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for offset in escape + 2..<escape + 6 {
            guard offset < bytes.count else { throw endOfInput() }
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONSyntaxError(message: "expected 4 hex digits after '\\u'", offset: escape)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Parses the number at `position`.
    mutating func parseNumber() throws(JSONSyntaxError) -> Builder.Value {
        let start = position
        var cursor = position
        let isNegative = bytes[cursor] == UInt8(ascii: "-")
        if isNegative { cursor += 1 }

        // Integer part, accumulated while it fits.
        var magnitude: UInt = 0
        var overflowed = false
        guard cursor < bytes.count else { throw endOfInput() }
        if bytes[cursor] == UInt8(ascii: "0") {
            cursor += 1
            if cursor < bytes.count && isDigit(bytes[cursor]) {
                throw JSONSyntaxError(message: "leading zeros are not allowed", offset: start)
            }
        } else if isDigit(bytes[cursor]) {
            while cursor < bytes.count && isDigit(bytes[cursor]) {
                let (product, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = product.addingReportingOverflow(UInt(bytes[cursor] &- UInt8(ascii: "0")))
                overflowed = overflowed || overflow1 || overflow2
                magnitude = sum
                cursor += 1
            }
        } else {
            position = cursor
            throw unexpected("expected digit after '-'")
        }

        var isInteger = true
        if cursor < bytes.count && bytes[cursor] == UInt8(ascii: ".") {
            isInteger = false
            cursor = try skipDigits(from: cursor + 1, message: "expected digit after '.'")
        }
        if cursor < bytes.count && (bytes[cursor] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            cursor += 1
            if cursor < bytes.count && (bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-")) {
                cursor += 1
            }
            cursor = try skipDigits(from: cursor, message: "expected digit in exponent")
        }
        position = cursor

        if isInteger && !overflowed {
            if !isNegative, magnitude <= UInt(Int.max) {
                return builder.makeInt(Int(magnitude), at: start)
            }
            if isNegative, magnitude != 0, magnitude <= UInt(Int.max) + 1 {
                return builder.makeInt(Int(truncatingIfNeeded: 0 &- magnitude), at: start)
            }
        }
        // Everything else, including -0, goes through the correctly rounded
        // standard library conversion.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError(message: "number out of range", offset: start)
        }
        return builder.makeDouble(value, at: start)
    }

    /// Skips one or more digits starting at `offset`; returns the offset after them.
    private mutating func skipDigits(from offset: Int, message: String) throws(JSONSyntaxError) -> Int {
        var cursor = offset
        guard cursor < bytes.count, isDigit(bytes[cursor]) else {
            position = cursor
            throw unexpected(message)
        }
        while cursor < bytes.count && isDigit(bytes[cursor]) {
            cursor += 1
        }
        return cursor
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Matches `literal` at `position`; a truncated literal is an end-of-input error.
    mutating func parseLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = position
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for (index, byte) in expected.enumerated() {
            guard start + index < bytes.count else { throw endOfInput() }
            guard bytes[start + index] == byte else {
                throw JSONSyntaxError(message: "expected '\(literal)'", offset: start)
            }
        }
        position = start + expected.count
    }

    // MARK: Bytes

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                position += 1
            default:
                return
            }
        }
    }

    func peek(_ byte: UInt8) -> Bool {
        position < bytes.count && bytes[position] == byte
    }

    /// The length of the well-formed UTF-8 sequence starting with the
    /// non-ASCII byte at `offset`, or `nil` if it is ill-formed.
    private func validUTF8Length(at offset: Int) -> Int? {
        // Ranges from the Unicode Standard, table 3-7 (well-formed UTF-8).
        func continuation(_ index: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index < bytes.count && range.contains(bytes[index])
        }
        let lead = bytes[offset]
        switch lead {
        case 0xC2...0xDF:
            return continuation(offset + 1) ? 2 : nil
        case 0xE0...0xEF:
            let second: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
            return continuation(offset + 1, second) && continuation(offset + 2) ? 3 : nil
        case 0xF0...0xF4:
            let second: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
            return continuation(offset + 1, second) && continuation(offset + 2) && continuation(offset + 3) ? 4 : nil
        default:
            return nil
        }
    }

    private func utf8SequenceLength(at offset: Int) throws(JSONSyntaxError) -> Int {
        guard let length = validUTF8Length(at: offset) else { throw invalidUTF8(at: offset) }
        return length
    }

    // MARK: Errors

    func endOfInput() -> JSONSyntaxError {
        JSONSyntaxError(message: "unexpected end of input", offset: bytes.count)
    }

    /// An error at `position`, unless the real problem there is the end of
    /// input or invalid UTF-8.
    func unexpected(_ message: String) -> JSONSyntaxError {
        guard position < bytes.count else { return endOfInput() }
        if bytes[position] >= 0x80 && validUTF8Length(at: position) == nil {
            return invalidUTF8(at: position)
        }
        return JSONSyntaxError(message: message, offset: position)
    }

    /// Reported at the first byte of an ill-formed sequence.
    private func invalidUTF8(at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: "invalid UTF-8 byte 0x\(hex(bytes[offset], digits: 2))", offset: offset)
    }

    private func controlCharacter(at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(
            message: "unescaped control character U+\(hex(bytes[offset], digits: 4)) in string", offset: offset)
    }

    private func unpairedSurrogate(_ unit: UInt32, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: "unpaired surrogate '\\u\(hex(unit, digits: 4))'", offset: offset)
    }

    private func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
