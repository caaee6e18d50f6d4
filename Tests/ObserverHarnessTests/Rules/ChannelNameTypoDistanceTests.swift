import Testing

@testable import ObserverHarness

extension Rules {
    /// The edit distance behind `channel-name-typo`: banded and stopped
    /// early, so it must agree with the textbook computation wherever the
    /// answer is within the bound.
    @Suite struct ChannelNameTypoDistance {
        /// Levenshtein distance where swapping two adjacent characters is one
        /// edit (optimal string alignment), computed in full.
        static func referenceDistance(_ a: String, _ b: String) -> Int {
            let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
            var table = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
            for i in 0...x.count { table[i][0] = i }
            for j in 0...y.count { table[0][j] = j }
            for i in stride(from: 1, through: x.count, by: 1) {
                for j in stride(from: 1, through: y.count, by: 1) {
                    let cost = x[i - 1] == y[j - 1] ? 0 : 1
                    table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                    if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                        table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                    }
                }
            }
            return table[x.count][y.count]
        }

        @Test(arguments: [1, 2])
        func theBandedDistanceAgreesWithTheFullOneWithinTheBound(bound: Int) {
            var generator = SplitMix64(seed: 0x7E57 + UInt64(bound))
            let alphabet = Array("abc".unicodeScalars)
            func word() -> [Unicode.Scalar] {
                (0..<Int(generator.next() % 9)).map { _ in alphabet[Int(generator.next() % 3)] }
            }
            for _ in 0..<20_000 {
                let x = word(), y = word()
                let expected = Self.referenceDistance(
                    String(String.UnicodeScalarView(x)),
                    String(String.UnicodeScalarView(y)))
                var budget = Int.max
                let banded = ChannelNameTypoRule.boundedDistance(x[...], y[...], bound: bound, budget: &budget)
                #expect(banded == (expected <= bound ? expected : nil), "\(x) \(y)")
            }
        }

        @Test func typoDistanceKeepsItsRules() {
            #expect(ChannelNameTypoRule.typoDistance("AddToCart", "AddToCard") == 1)
            #expect(ChannelNameTypoRule.typoDistance("AddToCart", "AddToCrat") == 1)
            #expect(ChannelNameTypoRule.typoDistance("Item1", "Item2") == nil)
            #expect(ChannelNameTypoRule.typoDistance("Cart", "Cart") == nil)
            #expect(ChannelNameTypoRule.typoDistance("abc", "abd") == nil)
            #expect(ChannelNameTypoRule.typoDistance("CartDidChange", "CrtDidChnage") == 2)
            #expect(ChannelNameTypoRule.typoDistance("ShortName", "ShrtNme") == nil)
        }

        /// 300 posted and 300 observed long names that never meet: once
        /// 90 000 full tables of 80 × 80 cells (minutes), now a few cells
        /// each (about a second). The limit only guards against a hang: it
        /// is far above the time under sanitizers on a loaded machine.
        @Test(.timeLimit(.minutes(10)), .tags(.stress))
        func manyLongNamesAreComparedInNearLinearTime() throws {
            func name(_ prefix: String, _ index: Int) -> String {
                String(repeating: prefix, count: 76) + String(index, radix: 26).uppercased()
            }
            let observes = (0..<300).map {
                #"{ "op": "observe", "registry": "center", "observer": "a", "channel": "\#(name("b", $0))", "handler": [] }"#
            }
            let posts = (0..<300).map { #"{ "op": "post", "registry": "center", "channel": "\#(name("p", $0))" }"# }
            let steps = [#"{ "op": "create", "object": "a" }"#] + observes + posts
            let report = try InlineScenario("[" + steps.joined(separator: ",\n") + "]").report()
            report.expectNone(of: "channel-name-typo")
        }
    }
}
