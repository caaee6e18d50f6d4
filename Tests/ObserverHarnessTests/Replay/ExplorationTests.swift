import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// How many replays exploration spends, and what it tries first.
    @Suite struct Exploration {
        /// One post to `count` receivers: receiver 0 sets "k", receiver 1
        /// reads it, and every other receiver increments a shared counter
        /// (`sharedCounter`) or writes a key of its own.
        static func onePairAmong(_ count: Int, sharedCounter: Bool) -> InlineScenario {
            var steps: [String] = []
            for index in 0..<count { steps.append(#"{ "op": "create", "object": "r\#(index)" }"#) }
            for index in 0..<count {
                let effect =
                    switch index {
                    case 0: #"{ "set": "k", "value": 1 }"#
                    case 1: #"{ "read": "k" }"#
                    case _ where sharedCounter: #"{ "increment": "count" }"#
                    default: #"{ "set": "own\#(index)", "value": \#(index) }"#
                    }
                steps.append(
                    #"{ "op": "observe", "registry": "center", "observer": "r\#(index)", "channel": "N", "#
                        + #""handler": [ \#(effect) ] }"#)
            }
            steps.append(#"{ "op": "post", "registry": "center", "channel": "N" }"#)
            return InlineScenario(
                "[\n" + steps.joined(separator: ",\n") + "\n]",
                registries: #"{ "center": { "kind": "notification-center" } }"#)
        }

        @Test func oneConflictingPairIsFoundByTheReversedOrderAlone() throws {
            let report = try Self.onePairAmong(8, sharedCounter: false).report()
            #expect(report.replays == 2)
            #expect(report.findings(of: "ordering-dependence").map(\.objects) == [["r0", "r1"]])
        }

        /// A re-posting loop whose every level has the same two conflicting
        /// receivers: one dependence, counted per level, not one error per level.
        /// Two posts of different names, each with its own dependence, stay two.
        @Test func aDependenceRepeatedAtEveryLevelOfALoopIsOneFindingCounted() throws {
            let loop = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
                  { "op": "create", "object": "c" },
                  { "op": "observe", "registry": "center", "observer": "a", "channel": "P",
                    "handler": [ { "increment": "n" }, { "post": { "registry": "center", "channel": "Q" } } ] },
                  { "op": "observe", "registry": "center", "observer": "b", "channel": "Q",
                    "handler": [ { "post": { "registry": "center", "channel": "P", "site": "B.swift:2" } } ] },
                  { "op": "observe", "registry": "center", "observer": "c", "channel": "P",
                    "handler": [ { "set": "n", "value": 0 } ] },
                  { "op": "post", "registry": "center", "channel": "P", "site": "Main.swift:1" }
                ]
                """,
                registries: #"{ "center": { "kind": "notification-center" } }"#
            ).report()
            let dependences = loop.findings(of: "ordering-dependence")
            #expect(dependences.count == 1, "\(dependences.map(\.message))")
            #expect(dependences.map(\.count).reduce(0, +) > 2, "each level still counted")
            let twoPosts = try Self.onePairAmong(2, sharedCounter: false).report()
            #expect(twoPosts.findings(of: "ordering-dependence").count == 1)
        }

        @Test func receiversWithoutConflictsCostOneReversedReplay() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
                  { "op": "create", "object": "c" },
                  { "op": "observe", "registry": "center", "observer": "a", "channel": "N",
                    "handler": [ { "set": "a", "value": 1 } ] },
                  { "op": "observe", "registry": "center", "observer": "b", "channel": "N",
                    "handler": [ { "read": "b" } ] },
                  { "op": "observe", "registry": "center", "observer": "c", "channel": "N",
                    "handler": [ { "increment": "n" } ] },
                  { "op": "post", "registry": "center", "channel": "N" }
                ]
                """
            ).report()
            #expect(report.replays == 2)
            #expect(report.findings.isEmpty)
        }

        @Test func concurrentBranchesAreTriedInEveryInterleavingWhenFew() throws {
            // 2 + 2 steps: 6 interleavings, the baseline among them; the reversed
            // order is tried first and does not differ.
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "x", "methods": {
                      "w": [ { "set": "k", "value": 1 } ], "r": [ { "read": "k" } ], "n": [ { "increment": "n" } ] } },
                  { "op": "concurrently", "branches": [
                      [ { "op": "invoke", "object": "x", "method": "n" },
                        { "op": "invoke", "object": "x", "method": "r" } ],
                      [ { "op": "invoke", "object": "x", "method": "w" },
                        { "op": "invoke", "object": "x", "method": "n" } ] ] }
                ]
                """
            ).report()
            #expect(report.findings(of: "ordering-dependence").count == 1)
            #expect(report.replays >= 2 && report.replays <= 6)
        }

        /// Not a timing test: prints how many replays one conflicting pair
        /// costs as the number of receivers grows.
        @Test func replayCountForOneConflictingPairAmongManyReceivers() throws {
            var rows = ["receivers | replays (others increment one counter) | replays (others write own key)"]
            for count in [2, 4, 8, 16, 64, 256, 1000] {
                var replays: [Int] = []
                for sharedCounter in [true, false] {
                    let report = try Self.onePairAmong(count, sharedCounter: sharedCounter).report()
                    #expect(
                        report.findings(of: "ordering-dependence").map(\.objects) == [["r0", "r1"]],
                        "n = \(count)")
                    replays.append(report.replays)
                }
                rows.append("\(count) | \(replays[0]) | \(replays[1])")
            }
            print(rows.joined(separator: "\n"))
        }
    }
}
