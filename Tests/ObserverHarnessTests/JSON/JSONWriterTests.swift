import Testing

@testable import ObserverHarness

@Suite struct JSONWriterTests {
    private let sample: JSONValue = [
        "steps": [1, 2.5, true, nil],
        "name": "checkout",
        "nested": ["b": 1, "a": [["x": "y"]]],
        "empty": [],
        "obj": [:],
    ]

    @Test func canonicalOutputIsPrettyWithSortedKeysAndNoTrailingNewline() {
        let expected = """
            {
              "empty": [],
              "name": "checkout",
              "nested": {
                "a": [
                  {
                    "x": "y"
                  }
                ],
                "b": 1
              },
              "obj": {},
              "steps": [
                1,
                2.5,
                true,
                null
              ]
            }
            """
        #expect(Array(sample.serialized().utf8) == Array(expected.utf8))
        #expect(sample.serialized(.canonical) == sample.serialized())
    }

    @Test func compactOutputHasNoWhitespace() {
        #expect(
            sample.serialized(.compact)
                == #"{"empty":[],"name":"checkout","nested":{"a":[{"x":"y"}],"b":1},"obj":{},"steps":[1,2.5,true,null]}"#
        )
    }

    @Test func preservingOrderWritesMembersAsStored() {
        #expect(
            sample.serialized(.compactPreservingOrder)
                == #"{"steps":[1,2.5,true,null],"name":"checkout","nested":{"b":1,"a":[{"x":"y"}]},"empty":[],"obj":{}}"#
        )
        let pretty: JSONValue = ["b": 1, "a": [2]]
        #expect(pretty.serialized(.prettyPreservingOrder) == "{\n  \"b\": 1,\n  \"a\": [\n    2\n  ]\n}")
        #expect(sample.description == sample.serialized(.compactPreservingOrder))
    }

    @Test func scalarsAtTopLevelSerializeAlone() {
        #expect(JSONValue.null.serialized() == "null")
        #expect(JSONValue.bool(false).serialized() == "false")
        #expect(JSONValue.array([]).serialized() == "[]")
        #expect(JSONValue.object([:]).serialized() == "{}")
        #expect(JSONValue.string("").serialized() == #""""#)
    }

    @Test func escapesOnlyQuoteBackslashAndControlCharacters() {
        let value = JSONValue.string("\"\\/\n\r\t\u{8}\u{C}\u{0}\u{1}\u{1F}\u{7F} é😀\u{2028}")
        #expect(value.serialized() == "\"\\\"\\\\/\\n\\r\\t\\b\\f\\u0000\\u0001\\u001f\u{7F} é😀\u{2028}\"")
    }

    @Test func escapesKeysToo() {
        let value: JSONValue = ["a\"b\n": 1]
        #expect(value.serialized(.compact) == #"{"a\"b\n":1}"#)
    }

    @Test func integersPrintAsIntegers() {
        let value: JSONValue = [0, 7, -7, .int(Int.max), .int(Int.min)]
        #expect(value.serialized(.compact) == "[0,7,-7,9223372036854775807,-9223372036854775808]")
    }

    @Test func doublesPrintShortestRoundTripDescription() {
        let doubles: [Double] = [
            1, 0.1, -2.5, 1e16, 1e-5, -0.0, .leastNonzeroMagnitude, 1e308, 123456.789, 9_007_199_254_740_992,
        ]
        let text = JSONValue.array(doubles.map(JSONValue.double)).serialized(.compact)
        #expect(text == "[1.0,0.1,-2.5,1e+16,1e-05,-0.0,5e-324,1e+308,123456.789,9007199254740992.0]")
    }

    @Test func nonFiniteDoublesPrintAsNull() {
        let value: JSONValue = [.double(.infinity), .double(-.infinity), .double(.nan)]
        #expect(value.serialized(.compact) == "[null,null,null]")
    }

    @Test func sortedKeysFollowUnicodeScalarOrder() {
        // By UTF-16 code units "😀" (D83D DE00) would sort before "ｚ" (FF5A);
        // by scalars it sorts after. "e\u{301}" and "é" are distinct keys.
        let value: JSONValue = [
            "😀": 1, "ｚ": 2, "é": 3, "z": 4, "e\u{301}": 5, "b": 6, "Z": 7, "a": 8, "": 9, "aa": 10,
        ]
        let keys = ["", "Z", "a", "aa", "b", "e\u{301}", "z", "é", "ｚ", "😀"]
        let expected = "{" + keys.map { "\"\($0)\":\(value[$0]!)" }.joined(separator: ",") + "}"
        #expect(Array(value.serialized(.compact).utf8) == Array(expected.utf8))
    }

    @Test func writeAppendsTheSameBytesAsSerialized() {
        var buffer = Array("prefix ".utf8)
        sample.write(into: &buffer, options: .compact)
        #expect(buffer == Array(("prefix " + sample.serialized(.compact)).utf8))
        var pretty: [UInt8] = []
        sample.write(into: &pretty, options: .canonical)
        #expect(pretty == Array(sample.serialized().utf8))
    }

    @Test func parsedDocumentsRoundTrip() throws {
        let text =
            #"{"seq":1,"kind":"deliver","list":[true,false,null,-1.5e-7,"a\"\\\u0001é😀"],"nested":{"z":{},"a":[[]]},"big":1e+300,"neg":-0.0,"huge":9223372036854775808}"#
        let value = try JSONParser.parseValue(Array(text.utf8))
        let compact = value.serialized(.compactPreservingOrder)
        #expect(try JSONParser.parseValue(Array(compact.utf8)) == value)
        let canonical = value.serialized()
        let reparsed = try JSONParser.parseValue(Array(canonical.utf8))
        #expect(reparsed.semanticallyEquals(value))
        #expect(reparsed.serialized() == canonical)
    }

    @Test func compactOutputOfADocumentInCompactOrderIsTheSameBytes() throws {
        let text = #"{"b":[1,2.5,"x\n"],"a":{"c":null,"d":true},"e":"日本"}"#
        let value = try JSONParser.parseValue(Array(text.utf8))
        #expect(value.serialized(.compactPreservingOrder) == text)
    }

    @Test func doublesRoundTripBitForBit() throws {
        let doubles: [Double] = [
            0.1, 1.0 / 3.0, -2.2250738585072014e-308, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e16, 123.456,
            -0.0, 100,
        ]
        for double in doubles {
            let text = JSONValue.double(double).serialized()
            let parsed = try JSONParser.parseValue(Array(text.utf8))
            #expect(parsed.doubleValue?.bitPattern == double.bitPattern, "\(text)")
            #expect(parsed == .double(double), "doubles must parse back as doubles: \(text)")
        }
    }
}
