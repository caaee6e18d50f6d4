import Testing

@testable import ObserverHarness

@Suite struct JSONParseErrorTests {
    /// The error from parsing `bytes` with both entry points, which must agree.
    private func error(parsing bytes: [UInt8], limits: JSONParser.Limits = .init()) -> JSONParseError? {
        var nodeError: JSONParseError?
        var valueError: JSONParseError?
        do { _ = try JSONParser.parse(bytes, limits: limits) } catch { nodeError = error }
        do { _ = try JSONParser.parseValue(bytes, limits: limits) } catch { valueError = error }
        #expect(nodeError == valueError, "parse and parseValue disagree on \(bytes.prefix(40))")
        return nodeError
    }

    private func error(parsing text: String) -> JSONParseError? {
        error(parsing: Array(text.utf8))
    }

    /// Shorthand for the expected error; the offset is given explicitly so
    /// tests also pin down line/column conversion.
    private func expected(_ message: String, _ offset: Int, _ line: Int, _ column: Int) -> JSONParseError {
        JSONParseError(message: message, offset: offset, line: line, column: column)
    }

    // MARK: Positions

    @Test func reportsLineAndColumnInMultiLineDocument() {
        let text = """
            {
              "name": "checkout",
              "a": [1 2]
            }
            """
        #expect(error(parsing: text) == expected("expected ',' or ']' after array element", 34, 3, 11))
    }

    @Test func reportsErrorsOnLaterLines() {
        let text = "{\n  \"a\": 1\n  \"bc\": 2\n}"
        #expect(error(parsing: text)?.description == "3:3: expected ',' or '}' after object member")
        let other = "{\"a\": 1,\n\"b\": 2,\n\"c\": 3 \"d\": 4}"
        #expect(error(parsing: other) == expected("expected ',' or '}' after object member", 24, 3, 8))
        let tabbed = "[\n1,\n\t\"é\", x]"
        #expect(error(parsing: tabbed) == expected("expected value", 12, 3, 7))
    }

    @Test func countsColumnsInScalarsNotBytes() {
        // "é" is two bytes and "😀" four; each is one column.
        #expect(error(parsing: "[\"é😀\" x]") == expected("expected ',' or ']' after array element", 10, 1, 7))
    }

    @Test func descriptionIsLineColonColumnColonMessage() {
        #expect(error(parsing: "[1,\n]")?.description == "1:3: trailing comma in array")
    }

    // MARK: Truncation and extra text

    @Test func emptyInputIsUnexpectedEndAtLine1Column1() {
        #expect(error(parsing: "") == expected("unexpected end of input", 0, 1, 1))
        #expect(error(parsing: "  \n ") == expected("unexpected end of input", 4, 2, 2))
        #expect(error(parsing: [0xEF, 0xBB, 0xBF]) == expected("unexpected end of input", 3, 1, 1))
    }

    @Test func truncatedInputIsAnErrorAtTheEnd() {
        for text in [
            "[", "[1", "[1,", "{", #"{"a""#, #"{"a":"#, #"{"a":1"#, #""abc"#, #""a\"#, #""\u12"#,
            "tru", "-", "1.", "1e", "1e+", #""\uD83D"#, #""\uD83D\"#,
        ] {
            let error = error(parsing: text)
            #expect(
                error == expected("unexpected end of input", text.utf8.count, 1, text.unicodeScalars.count + 1),
                "\(text)")
        }
    }

    @Test func textAfterTheValueIsAnError() {
        #expect(error(parsing: "{} {}") == expected("unexpected text after JSON value", 3, 1, 4))
        #expect(error(parsing: "1 2") == expected("unexpected text after JSON value", 2, 1, 3))
        #expect(error(parsing: "truex") == expected("unexpected text after JSON value", 4, 1, 5))
        #expect(error(parsing: "[1]\n,") == expected("unexpected text after JSON value", 4, 2, 1))
    }

    // MARK: Structure

    @Test func trailingCommasAreErrorsAtTheComma() {
        #expect(error(parsing: "[1, 2, ]") == expected("trailing comma in array", 5, 1, 6))
        #expect(error(parsing: #"{"a": 1,}"#) == expected("trailing comma in object", 7, 1, 8))
    }

    @Test func malformedContainersNameWhatWasExpected() {
        #expect(error(parsing: "[1;2]") == expected("expected ',' or ']' after array element", 2, 1, 3))
        #expect(error(parsing: #"{"a" 1}"#) == expected("expected ':' after object key", 5, 1, 6))
        #expect(error(parsing: "{a: 1}") == expected("expected string for object key", 1, 1, 2))
        #expect(error(parsing: "{'a': 1}") == expected("expected string for object key", 1, 1, 2))
        #expect(error(parsing: "[,1]") == expected("expected value", 1, 1, 2))
        #expect(error(parsing: #"{"a": }"#) == expected("expected value", 6, 1, 7))
        #expect(error(parsing: "]") == expected("expected value", 0, 1, 1))
        #expect(error(parsing: "[1}") == expected("expected ',' or ']' after array element", 2, 1, 3))
    }

    @Test func rejectsCommentsAndNonJSONLiterals() {
        #expect(error(parsing: "// hi\n1") == expected("expected value", 0, 1, 1))
        #expect(error(parsing: "[True]") == expected("expected value", 1, 1, 2))
        #expect(error(parsing: "[nul]") == expected("expected 'null'", 1, 1, 2))
        #expect(error(parsing: "[fals3]") == expected("expected 'false'", 1, 1, 2))
        #expect(error(parsing: "NaN") == expected("expected value", 0, 1, 1))
        #expect(error(parsing: "Infinity") == expected("expected value", 0, 1, 1))
        #expect(error(parsing: "-Infinity") == expected("expected digit after '-'", 1, 1, 2))
    }

    @Test func duplicateKeyIsReportedAtTheSecondKey() {
        let text = "{\n  \"name\": 1,\n  \"other\": 2,\n  \"name\": 3\n}"
        #expect(error(parsing: text) == expected(#"duplicate key "name""#, 31, 4, 3))
    }

    @Test func duplicateKeysAreFoundInLargeObjects() {
        let members = (0..<100).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let text = "{" + members + #", "k57": 0}"#
        let offset = text.utf8.count - 9
        #expect(error(parsing: text) == expected(#"duplicate key "k57""#, offset, 1, offset + 1))
    }

    @Test func duplicateKeysCountOnlyWithinOneObject() throws {
        let value = try JSONParser.parseValue(Array(#"{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}"#.utf8))
        #expect(value["b"]?.arrayValue?.count == 2)
    }

    @Test func duplicateKeysAreComparedAfterUnescaping() {
        #expect(error(parsing: #"{"ab": 1, "a\u0062": 2}"#) == expected(#"duplicate key "ab""#, 10, 1, 11))
    }

    @Test func duplicateKeyMessageEscapesTheKey() {
        #expect(error(parsing: #"{"a\n\"": 1, "a\n\"": 2}"#)?.message == #"duplicate key "a\n\"""#)
    }

    // MARK: Depth and size

    @Test func deepNestingIsAnErrorNotACrash() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(error(parsing: bytes) == expected("nesting deeper than 256 levels", 256, 1, 257))
        let objects = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
        #expect(error(parsing: objects) == expected("nesting deeper than 256 levels", 5 * 256, 1, 5 * 256 + 1))
    }

    @Test func deepNestingErrorUsesTheConfiguredLimit() {
        let limits = JSONParser.Limits(maxDepth: 3)
        #expect(
            error(parsing: Array("[[{\"a\":[]}]]".utf8), limits: limits)
                == expected("nesting deeper than 3 levels", 7, 1, 8))
        #expect(
            error(parsing: Array("[]".utf8), limits: JSONParser.Limits(maxDepth: 0))
                == expected("nesting deeper than 0 levels", 0, 1, 1))
    }

    @Test(.tags(.stress)) func inputLargerThanMaxBytesIsAnErrorAtMaxBytes() {
        let limit = 16 << 20
        var bytes = [UInt8](repeating: UInt8(ascii: " "), count: limit + 1)
        bytes[0] = UInt8(ascii: "1")
        #expect(error(parsing: bytes) == expected("file larger than 16 MiB", limit, 1, limit + 1))
        // Exactly the limit is fine.
        bytes.removeLast()
        #expect(error(parsing: bytes) == nil)
        #expect(
            error(parsing: Array("[1, 2]".utf8), limits: JSONParser.Limits(maxBytes: 5))?.message
                == "file larger than 5 bytes")
        #expect(
            error(parsing: [UInt8](repeating: 32, count: 2049), limits: JSONParser.Limits(maxBytes: 2048))?.message
                == "file larger than 2 KiB")
    }

    // MARK: Strings

    @Test func rawControlCharactersInStringsAreErrors() {
        #expect(error(parsing: "[\"a\nb\"]") == expected("unescaped control character U+000A in string", 3, 1, 4))
        #expect(error(parsing: "\"\t\"") == expected("unescaped control character U+0009 in string", 1, 1, 2))
        #expect(error(parsing: "\"\\n\u{1F}\"") == expected("unescaped control character U+001F in string", 3, 1, 4))
        #expect(
            error(parsing: [0x22, 0x00, 0x22]) == expected("unescaped control character U+0000 in string", 1, 1, 2))
        // DEL is not a control character in JSON.
        #expect(error(parsing: "\"\u{7F}\"") == nil)
    }

    @Test func invalidEscapesAreErrorsAtTheBackslash() {
        #expect(error(parsing: #"["ab\x"]"#) == expected(#"invalid escape '\x'"#, 4, 1, 5))
        #expect(error(parsing: #""\'""#) == expected(#"invalid escape '\''"#, 1, 1, 2))
        #expect(error(parsing: "\"\\\u{1}\"") == expected("invalid escape sequence", 1, 1, 2))
        #expect(error(parsing: #""\u12G4""#) == expected(#"expected 4 hex digits after '\u'"#, 1, 1, 2))
        #expect(error(parsing: #""\U0041""#) == expected(#"invalid escape '\U'"#, 1, 1, 2))
    }

    @Test func loneSurrogateEscapesAreErrors() {
        #expect(error(parsing: #""\uD800""#) == expected(#"unpaired surrogate '\uD800'"#, 1, 1, 2))
        #expect(error(parsing: #""x\udc00""#) == expected(#"unpaired surrogate '\uDC00'"#, 2, 1, 3))
        #expect(error(parsing: #""\uD83Dx""#) == expected(#"unpaired surrogate '\uD83D'"#, 1, 1, 2))
        #expect(error(parsing: #""\uD83D\n""#) == expected(#"unpaired surrogate '\uD83D'"#, 1, 1, 2))
        #expect(error(parsing: #""\uD83D\uD83D""#) == expected(#"unpaired surrogate '\uD83D'"#, 1, 1, 2))
        #expect(error(parsing: #""\uDE00\uD83D""#) == expected(#"unpaired surrogate '\uDE00'"#, 1, 1, 2))
    }

    // MARK: UTF-8

    @Test func invalidUTF8IsReportedAtTheFirstByteOfTheBadSequence() {
        let cases: [(bytes: [UInt8], offset: Int, byte: String)] = [
            ([0x22, 0xFF, 0x22], 1, "FF"),  // never valid
            ([0x22, 0x80, 0x22], 1, "80"),  // stray continuation byte
            ([0x22, 0xC0, 0xAF, 0x22], 1, "C0"),  // overlong '/'
            ([0x22, 0xC1, 0xBF, 0x22], 1, "C1"),  // overlong
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1, "E0"),  // overlong three-byte
            ([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 1, "F0"),  // overlong four-byte
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1, "ED"),  // UTF-8 encoded surrogate U+D800
            ([0x22, 0xED, 0xBF, 0xBF, 0x22], 1, "ED"),  // UTF-8 encoded surrogate U+DFFF
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, "F4"),  // above U+10FFFF
            ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1, "F5"),  // never valid lead
            ([0x22, 0x61, 0xC3, 0x22], 2, "C3"),  // truncated two-byte
            ([0x22, 0xE2, 0x82, 0x22], 1, "E2"),  // truncated three-byte
            ([0x22, 0xE2, 0x82], 1, "E2"),  // truncated by end of input
            ([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22], 3, "C3"),  // after an escape
        ]
        for (bytes, offset, byte) in cases {
            #expect(
                error(parsing: bytes) == expected("invalid UTF-8 byte 0x\(byte)", offset, 1, offset + 1),
                "\(bytes)")
        }
    }

    @Test func invalidUTF8OutsideStringsIsReportedAsSuch() {
        #expect(error(parsing: [0xFF]) == expected("invalid UTF-8 byte 0xFF", 0, 1, 1))
        #expect(error(parsing: [0x5B, 0x31, 0x2C, 0x20, 0xC3]) == expected("invalid UTF-8 byte 0xC3", 4, 1, 5))
        #expect(error(parsing: [0x31, 0x20, 0xFE]) == expected("invalid UTF-8 byte 0xFE", 2, 1, 3))
        #expect(error(parsing: [0x7B, 0x80, 0x7D]) == expected("invalid UTF-8 byte 0x80", 1, 1, 2))
        // Valid but misplaced non-ASCII text is a syntax error.
        #expect(error(parsing: "[“a”]") == expected("expected value", 1, 1, 2))
    }

    @Test func validMultiByteSequencesAtTheLimitsAreAccepted() throws {
        // U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF
        let text = "\"\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}\""
        #expect(error(parsing: text) == nil)
        #expect(try JSONParser.parseValue(Array(text.utf8)).stringValue?.unicodeScalars.count == 8)
    }

    // MARK: Numbers

    @Test func numbersFollowTheJSONGrammarExactly() {
        #expect(error(parsing: "01") == expected("leading zeros are not allowed", 0, 1, 1))
        #expect(error(parsing: "[-012]") == expected("leading zeros are not allowed", 1, 1, 2))
        #expect(error(parsing: "+1") == expected("expected value", 0, 1, 1))
        #expect(error(parsing: "[1.]") == expected("expected digit after '.'", 3, 1, 4))
        #expect(error(parsing: ".5") == expected("expected value", 0, 1, 1))
        #expect(error(parsing: "[1e]") == expected("expected digit in exponent", 3, 1, 4))
        #expect(error(parsing: "1e+x") == expected("expected digit in exponent", 3, 1, 4))
        #expect(error(parsing: "[- 1]") == expected("expected digit after '-'", 2, 1, 3))
        #expect(error(parsing: "0x10") == expected("unexpected text after JSON value", 1, 1, 2))
        #expect(error(parsing: "1.5.2") == expected("unexpected text after JSON value", 3, 1, 4))
    }

    @Test func numbersOverflowingDoubleAreOutOfRange() {
        #expect(error(parsing: "1e400") == expected("number out of range", 0, 1, 1))
        #expect(error(parsing: "[0, -1e400]") == expected("number out of range", 4, 1, 5))
        #expect(error(parsing: "1" + String(repeating: "0", count: 400)) == expected("number out of range", 0, 1, 1))
        #expect(error(parsing: "1e308") == nil)
    }
}
