import Testing

@testable import ObserverHarness

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parseValue(Array(text.utf8))
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(
            #"{"n": null, "t": true, "f": false, "i": -12, "d": 2.5, "s": "x", "a": [1, [2]], "o": {"k": {}}}"#)
        let expected: JSONValue = [
            "n": nil, "t": true, "f": false, "i": -12, "d": 2.5, "s": "x", "a": [1, [2]], "o": ["k": [:]],
        ]
        #expect(value == expected)
    }

    @Test func acceptsScalarsAtTopLevel() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse(" 42 ") == .int(42))
        #expect(try parse(#""hi""#) == .string("hi"))
    }

    @Test func acceptsAllFourWhitespaceCharacters() throws {
        #expect(try parse(" \t\r\n[ \t\r\n1 \t\r\n, 2\n]\r\n") == [1, 2])
    }

    @Test func keepsObjectMembersInDocumentOrder() throws {
        let value = try parse(#"{"zebra": 1, "apple": 2, "mango": 3}"#)
        #expect(value.objectValue?.keys == ["zebra", "apple", "mango"])
    }

    @Test func skipsLeadingByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)
        #expect(try JSONParser.parseValue(bytes) == ["a": 1])
        let node = try JSONParser.parse(bytes)
        #expect(node.offset == 3)
    }

    @Test func decodesSimpleEscapes() throws {
        #expect(try parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{8} \u{C} \n \r \t"))
    }

    @Test func decodesUnicodeEscapesIncludingSurrogatePairs() throws {
        #expect(try parse(#""\u0041\u00e9\u20AC\uD83D\uDE00\u0000""#) == .string("Aé€😀\u{0}"))
    }

    @Test func keepsRawNonASCIIText() throws {
        #expect(try parse(#""héllo wörld – 日本 😀""#) == .string("héllo wörld – 日本 😀"))
    }

    @Test func keepsStringsExactlyWithoutUnicodeNormalization() throws {
        // Canonically equivalent spellings are different JSON strings.
        let decomposed = try parse(#""e\u0301""#)
        #expect(decomposed != .string("\u{E9}"))
        #expect(decomposed.stringValue?.unicodeScalars.count == 2)
        // ...and therefore different keys.
        let object = try parse(#"{"\u00e9": 1, "e\u0301": 2}"#)
        #expect(object.objectValue?.count == 2)
        #expect(object["\u{E9}"] == 1)
        #expect(object["e\u{301}"] == 2)
    }

    @Test func parsesIntegersThatFitIntAsInt() throws {
        #expect(try parse("0") == .int(0))
        #expect(try parse("-7") == .int(-7))
        #expect(try parse("9223372036854775807") == .int(Int.max))
        #expect(try parse("-9223372036854775808") == .int(Int.min))
    }

    @Test func parsesIntegersTooLargeForIntAsDouble() throws {
        #expect(try parse("9223372036854775808") == .double(9223372036854775808.0))
        #expect(try parse("-9223372036854775809") == .double(-9223372036854775808.0))
        #expect(try parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func parsesNegativeZeroAsDoubleToKeepItsSign() throws {
        let value = try parse("-0")
        #expect(value == .double(0))
        #expect(value.doubleValue?.sign == .minus)
        #expect(try parse("-0.0").doubleValue?.sign == .minus)
    }

    @Test func parsesFractionsAndExponentsAsDouble() throws {
        #expect(try parse("1.0") == .double(1))
        #expect(try parse("1e2") == .double(100))
        #expect(try parse("1E+2") == .double(100))
        #expect(try parse("-2.5e-3") == .double(-0.0025))
        #expect(try parse("0.1") == .double(0.1))
        #expect(try parse("1e308") == .double(1e308))
        #expect(try parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        #expect(try parse("5e-324") == .double(.leastNonzeroMagnitude))
        #expect(try parse("1e-400") == .double(0))
    }

    @Test func recordsOffsetsOfValuesAndKeys() throws {
        let node = try JSONParser.parse(Array(#"{"a": [10, "x"], "b": null}"#.utf8))
        #expect(node.offset == 0)
        guard case .object(let members) = node.kind else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members.map(\.keyOffset) == [1, 17])
        #expect(members[0].value.offset == 6)
        #expect(members[1].value.offset == 22)
        guard case .array(let elements) = members[0].value.kind else {
            Issue.record("expected an array")
            return
        }
        #expect(elements.map(\.offset) == [7, 11])
        #expect(node["b"]?.offset == 22)
        #expect(node.member("a")?.keyOffset == 1)
        #expect(node["missing"] == nil)
    }

    @Test func nodeValueMatchesParseValue() throws {
        let text = #"{"seq": 1, "list": [true, {"x": -0.5}], "s": "a\nb", "big": 1e300}"#
        let node = try JSONParser.parse(Array(text.utf8))
        #expect(node.value == (try parse(text)))
    }

    @Test func acceptsNestingUpToMaxDepth() throws {
        let text = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        var value = try parse(text)
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            value = elements.first ?? .null
        }
        #expect(depth == 256)
    }

    @Test func honorsCustomLimits() throws {
        let limits = JSONParser.Limits(maxDepth: 2, maxBytes: 10)
        #expect(try JSONParser.parseValue(Array("[[1]]".utf8), limits: limits) == [[1]])
        #expect(throws: JSONParseError.self) {
            try JSONParser.parseValue(Array("[[[1]]]".utf8), limits: limits)
        }
        #expect(throws: JSONParseError.self) {
            try JSONParser.parseValue(Array("[1, 2, 3, 4]".utf8), limits: limits)
        }
    }

    @Test func parsesLargeObjectsAndFindsTheirMembers() throws {
        let text = "{" + (0..<1000).map { #""k\#($0)": \#($0)"# }.joined(separator: ",") + "}"
        let value = try parse(text)
        #expect(value.objectValue?.count == 1000)
        #expect(value["k0"] == 0)
        #expect(value["k999"] == 999)
        #expect(value["k1000"] == nil)
    }
}
