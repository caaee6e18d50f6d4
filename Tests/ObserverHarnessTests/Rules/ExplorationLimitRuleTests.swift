import Testing

@testable import ObserverHarness

extension Rules {
    /// A replay's or the exploration's bounds are reported as notes naming
    /// the bound, never as `notification-cycle`. Replay only: live code has
    /// no bound but the cycle bound.
    @Suite struct ExplorationLimit {
        static let rule = "exploration-limit"

        /// An object whose method `m0` calls `m1`, … up to `m(depth - 1)`.
        static func invokeChain(depth: Int) -> InlineScenario {
            let methods = (0..<depth).map { index in
                let next = index + 1 < depth ? #"{ "invoke": { "object": "self", "method": "m\#(index + 1)" } }"# : ""
                return #""m\#(index)": [ \#(next) ]"#
            }
            return InlineScenario(
                """
                [
                  { "op": "create", "object": "chain", "methods": { \(methods.joined(separator: ", ")) } },
                  { "op": "invoke", "object": "chain", "method": "m0", "site": "Chain.swift:3" },
                  { "op": "create", "object": "later" }
                ]
                """)
        }

        @Test func aChainOf300InvokesIsALimitNotACycle() throws {
            let report = try Self.invokeChain(depth: 300).report()
            report.expectNone(of: "notification-cycle")
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .note)
            #expect(finding.step == 1)
            #expect(finding.site?.description == "Chain.swift:3")
            #expect(finding.message.contains("nested 256 deep (in chain's handlers and methods)"))
            #expect(finding.message.contains("the rest of step 1 and 1 later step were not run"))
        }

        @Test func aChainWithinTheNestingBoundIsClean() throws {
            let report = try Self.invokeChain(depth: 250).report()
            report.expectNone(of: Self.rule)
            report.expectNone(of: "notification-cycle")
        }

        // The work bound: `Budgets.deliveriesToEmptyHandlersCountAsWork`.

        /// Registry `r` with channel `a\0X`, registry `r\0a` with channel `X`:
        /// 20 one-shot receivers on each, each re-posting its channel once, the
        /// last of the first chain posting the second. Each channel nests 20
        /// deep, under the bound of 32; joined with a NUL, the two keys were one.
        @Test func channelsWhoseNamesJoinAlikeKeepTheirOwnDepth() throws {
            var steps: [String] = []
            for (registry, channel, next) in [
                ("r", "a\\u0000X", #"{ "post": { "registry": "r\u0000a", "channel": "X" } }"#),
                ("r\\u0000a", "X", ""),
            ] {
                for index in 0..<20 {
                    let name = "\(registry == "r" ? "first" : "second")\(index)"
                    let repost =
                        index < 19 ? #"{ "post": { "registry": "\#(registry)", "channel": "\#(channel)" } }"# : next
                    let effects = [#"{ "remove": { "registry": "\#(registry)", "observer": "self" } }"#, repost]
                        .filter { !$0.isEmpty }
                    steps.append(#"{ "op": "create", "object": "\#(name)" }"#)
                    steps.append(
                        #"{ "op": "observe", "registry": "\#(registry)", "observer": "\#(name)", "channel": "\#(channel)", "handler": [ \#(effects.joined(separator: ", ")) ] }"#
                    )
                }
            }
            steps.append(#"{ "op": "post", "registry": "r", "channel": "a\u0000X" }"#)
            let registries =
                #"{ "r": { "kind": "notification-center", "order": "registration" }, "#
                + #""r\u0000a": { "kind": "notification-center", "order": "registration" } }"#
            let scenario = InlineScenario("[" + steps.joined(separator: ",\n") + "]", registries: registries)
            let replay = try Replay(scenario.parse(), schedule: Schedule()).run()
            #expect(replay.count(of: .deliver) == 40)
            let report = try scenario.report()
            report.expectNone(of: "notification-cycle")
            report.expectNone(of: Self.rule)
            // The same chain 40 deep on one channel is a cycle: the bound is still there.
            #expect(NotificationCycleRule.depthBound < 40)
        }

        @Test func aSpentBudgetSaysWhatWasNotExplored() throws {
            // 30 posts to the same two conflicting receivers; each replay costs
            // the same, and the budget allows 10 of them.
            let post = #"{ "op": "post", "registry": "center", "channel": "N" }"#
            let scenario = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
                  { "op": "observe", "registry": "center", "observer": "a", "channel": "N",
                    "handler": [ { "set": "k", "value": 1 }, { "set": "k", "value": 0 } ] },
                  { "op": "observe", "registry": "center", "observer": "b", "channel": "N",
                    "handler": [ { "set": "k", "value": 0 } ] },
                  \(Array(repeating: post, count: 30).joined(separator: ",\n"))
                ]
                """
            ).parse()
            var explorer = Explorer(scenario: scenario, seed: 0)
            explorer.workLimit = 10 * (try Replay(scenario, schedule: Schedule()).run().work)
            let report = try explorer.run()
            #expect(report.replays == 10)
            #expect(report.orders == 1 << 30)
            let note = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                note.message == "Exploration stopped at its budget of \(explorer.workLimit.grouped) units of "
                    + "work after 10 replays of 1,073,741,824 orders: not explored were orders of \"N\" (step 13) "
                    + "and the rest of the search after them.")
            // Told at that post, as every finding is at a line.
            #expect(note.step == 13)
            #expect(note.site?.description == "\(InlineScenario.path):\(scenario.steps[13].position.line)")
            #expect(report.text().contains("(218 events, 10 replays of 1,073,741,824 orders)"))
            #expect(report.jsonText().contains(#""orders": 1073741824"#))
        }

        @Test func anExplorationWithinItsBudgetIsClean() throws {
            let post = #"{ "op": "post", "registry": "center", "channel": "N" }"#
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
                  { "op": "observe", "registry": "center", "observer": "a", "channel": "N",
                    "handler": [ { "set": "k", "value": 1 }, { "set": "k", "value": 0 } ] },
                  { "op": "observe", "registry": "center", "observer": "b", "channel": "N",
                    "handler": [ { "set": "k", "value": 0 } ] },
                  \(Array(repeating: post, count: 30).joined(separator: ",\n"))
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
            // Each post reversed alone, then 435 pairs of posts reversed together.
            #expect(report.replays == 1 + 30 + 435)
        }
    }
}
