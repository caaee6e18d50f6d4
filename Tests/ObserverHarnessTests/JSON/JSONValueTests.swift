import Testing

@testable import ObserverHarness

@Suite struct JSONValueTests {
    @Test func literalsBuildTheMatchingCases() {
        let null: JSONValue = nil
        let bool: JSONValue = true
        let int: JSONValue = 3
        let double: JSONValue = 2.5
        let string: JSONValue = "s"
        let array: JSONValue = [1, "a"]
        let object: JSONValue = ["k": 1]
        #expect(null == .null)
        #expect(bool == .bool(true))
        #expect(int == .int(3))
        #expect(double == .double(2.5))
        #expect(string == .string("s"))
        #expect(array == .array([.int(1), .string("a")]))
        #expect(object == .object(JSONObject(uniqueKeysWithValues: [(key: "k", value: .int(1))])))
    }

    @Test func dictionaryLiteralKeepsLiteralOrder() {
        let value: JSONValue = ["z": 1, "a": 2, "m": 3]
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(value.objectValue?.values == [1, 2, 3])
    }

    @Test func accessorsReturnPayloadsOnlyForMatchingCases() {
        let value: JSONValue = ["s": "x", "i": 4, "d": 4.5, "b": false, "a": [1], "o": ["k": nil], "n": nil]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["i"]?.intValue == 4)
        #expect(value["d"]?.doubleValue == 4.5)
        #expect(value["b"]?.boolValue == false)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue?["k"] == .null)
        #expect(value["n"]?.isNull == true)
        #expect(value["s"]?.intValue == nil)
        #expect(value["i"]?.stringValue == nil)
        #expect(value["missing"] == nil)
        #expect(JSONValue.array([1])["s"] == nil)
    }

    @Test func numericAccessorsConvertBetweenIntAndDoubleWhenExact() {
        #expect(JSONValue.int(3).doubleValue == 3)
        #expect(JSONValue.double(3).intValue == 3)
        #expect(JSONValue.double(3.5).intValue == nil)
        #expect(JSONValue.double(1e300).intValue == nil)
    }

    @Test func intAndDoubleAreDistinctButSemanticallyEqual() {
        #expect(JSONValue.int(1) != .double(1))
        #expect(JSONValue.int(1).semanticallyEquals(.double(1)))
        #expect(JSONValue.double(1).semanticallyEquals(.int(1)))
        #expect(!JSONValue.int(1).semanticallyEquals(.double(1.5)))
        // 2^53 + 1 is not a Double, so it must not match its rounded neighbour.
        #expect(!JSONValue.int(9_007_199_254_740_993).semanticallyEquals(.double(9_007_199_254_740_992)))
        #expect(JSONValue.int(0).semanticallyEquals(.double(-0.0)))
        #expect(!JSONValue.int(1).semanticallyEquals(.string("1")))
    }

    @Test func semanticEqualityIgnoresMemberOrderButNotArrayOrder() {
        let a: JSONValue = ["x": 1, "y": [1, 2.0]]
        let b: JSONValue = ["y": [1.0, 2], "x": 1.0]
        #expect(a != b)
        #expect(a.semanticallyEquals(b))
        #expect(!JSONValue.array([1, 2]).semanticallyEquals([2, 1]))
        #expect(!a.semanticallyEquals(["x": 1]))
        #expect(!a.semanticallyEquals(["x": 1, "z": [1, 2]]))
    }

    @Test func equalityRequiresTheSameMemberOrder() {
        let a: JSONValue = ["x": 1, "y": 2]
        let b: JSONValue = ["y": 2, "x": 1]
        #expect(a != b)
        #expect(a == ["x": 1, "y": 2])
    }

    @Test func stringsCompareByUnicodeScalars() {
        #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
        #expect(!JSONValue.string("\u{E9}").semanticallyEquals(.string("e\u{301}")))
        #expect(JSONValue.string("é") == .string("\u{E9}"))
    }

    @Test func equalValuesHashEqually() {
        let values: [JSONValue] = [nil, true, 1, 1.5, "s", [1, 2], ["a": [1], "b": nil]]
        let copies: [JSONValue] = [nil, true, 1, 1.5, "s", [1, 2], ["a": [1], "b": nil]]
        #expect(Set(values) == Set(copies))
        #expect(Set(values + copies).count == values.count)
        #expect(Set([JSONValue.int(1), .double(1)]).count == 2)
    }

    @Test func objectSubscriptReplacesInPlaceAppendsAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = "two"
        object["d"] = 4
        #expect(object.keys == ["a", "b", "c", "d"])
        #expect(object["b"] == "two")
        object["a"] = nil
        #expect(object.keys == ["b", "c", "d"])
        #expect(object.removeValue(forKey: "c") == 3)
        #expect(object.removeValue(forKey: "c") == nil)
        #expect(object.keys == ["b", "d"])
        #expect(object.index(forKey: "d") == 1)
        #expect(object[1].key == "d")
        #expect(object.map(\.key) == ["b", "d"])
    }

    @Test func largeObjectsKeepLookupsCorrectThroughEdits() {
        var object = JSONObject()
        for index in 0..<100 {
            object["k\(index)"] = .int(index)
        }
        #expect(object.count == 100)
        #expect(object["k42"] == 42)
        object["k42"] = nil
        #expect(object["k42"] == nil)
        #expect(object["k43"] == 43)
        #expect(object.index(forKey: "k43") == 42)
        object["k42"] = "back"
        #expect(object.keys.last == "k42")
        #expect(object["k42"] == "back")
        for index in 0..<90 {
            object["k\(index)"] = nil
        }
        #expect(object.count == 10)
        #expect(object["k95"] == 95)
        #expect(object.keys == (90..<100).map { "k\($0)" })
    }

    @Test func objectKeysAreExactUnicodeScalars() {
        var object = JSONObject()
        object["\u{E9}"] = 1
        object["e\u{301}"] = 2
        #expect(object.count == 2)
        #expect(object["\u{E9}"] == 1)
        #expect(object["e\u{301}"] == 2)
    }

    @Test func valuesAreSendable() async {
        let value: JSONValue = ["a": [1, 2]]
        let echoed = await Task.detached { value }.value
        #expect(echoed == value)
    }
}
