import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// The same input and seed give the same report, byte for byte.
    @Suite struct Determinism {
        /// Findings of several rules, an order dependence found by exhaustive
        /// orders and a concurrent step with more interleavings than are tried
        /// exhaustively (3 branches of 3: 1680), so seeded samples decide.
        static let busy = InlineScenario(
            """
            [
              { "op": "create", "object": "w1" },
              { "op": "create", "object": "reader" },
              { "op": "create", "object": "w2" },
              { "op": "create", "object": "gone" },
              { "op": "observe", "registry": "center", "observer": "w1", "channel": "Sync",
                "handler": [ { "set": "state", "value": "done" }, { "increment": "syncs" } ] },
              { "op": "observe", "registry": "center", "observer": "reader", "channel": "Sync",
                "handler": [ { "read": "state" }, { "increment": "syncs" } ] },
              { "op": "observe", "registry": "center", "observer": "w2", "channel": "Sync",
                "handler": [ { "set": "state", "value": "done" } ] },
              { "op": "observe", "registry": "center", "observer": "gone", "channel": "Sync", "handler": [] },
              { "op": "release", "object": "gone" },
              { "op": "post", "registry": "center", "channel": "Sync" },
              { "op": "post", "registry": "center", "channel": "Flush" },
              { "op": "create", "object": "x", "methods": {
                  "a": [ { "append": "log", "value": "a" } ], "b": [ { "read": "log" } ], "c": [ { "increment": "n" } ] } },
              { "op": "concurrently", "branches": [
                  [ { "op": "invoke", "object": "x", "method": "c" }, { "op": "invoke", "object": "x", "method": "c" },
                    { "op": "invoke", "object": "x", "method": "a" } ],
                  [ { "op": "invoke", "object": "x", "method": "c" }, { "op": "invoke", "object": "x", "method": "c" },
                    { "op": "invoke", "object": "x", "method": "b" } ],
                  [ { "op": "invoke", "object": "x", "method": "c" }, { "op": "invoke", "object": "x", "method": "c" },
                    { "op": "invoke", "object": "x", "method": "c" } ] ] }
            ]
            """)

        @Test func theSameScenarioGivesTheSameReportBytesTwice() throws {
            let first = try Self.busy.report().jsonText()
            let second = try Self.busy.report().jsonText()
            #expect(first == second)
            let rules = try Self.busy.report().firedRules
            #expect(rules.isSuperset(of: ["ordering-dependence", "dangling-registration", "unobserved-post"]))
        }

        @Test(arguments: [0, 1, 42, UInt64.max])
        func theSameSeedGivesTheSameReportBytes(seed: UInt64) throws {
            #expect(try Self.busy.report(seed: seed).jsonText() == Self.busy.report(seed: seed).jsonText())
        }

        @Test func aReportHasNoAbsolutePathsOrAddresses() throws {
            let text = try Self.busy.report().jsonText()
            #expect(!text.contains("Inline.scenario.json/"))
            #expect(!text.contains("0x"))
            #expect(!text.contains("/tmp"))
        }
    }
}
