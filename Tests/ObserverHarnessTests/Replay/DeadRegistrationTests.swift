import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// A weak registration whose observer is gone records one skipped
    /// delivery, then later posts pass it by: 2,000 dead registrations and
    /// 8,000 posts once recorded 16 million skips (40 s, 3.5 GB).
    @Suite struct DeadRegistrations {
        /// `a` registered `count` times weakly on "N", released, then `posts` posts of "N", then `then`.
        static func deadObserver(registrations count: Int, posts: Int, then more: [String] = []) -> InlineScenario {
            let observe = #"{ "op": "observe", "registry": "center", "observer": "a", "channel": "N", "handler": [] }"#
            let post = #"{ "op": "post", "registry": "center", "channel": "N" }"#
            let steps =
                [#"{ "op": "create", "object": "a" }"#] + Array(repeating: observe, count: count)
                + [#"{ "op": "release", "object": "a" }"#] + Array(repeating: post, count: posts) + more
            return InlineScenario("[" + steps.joined(separator: ",\n") + "]")
        }

        @Test func aDeadWeakRegistrationIsSkippedOnceThenPruned() throws {
            let scenario = try Self.deadObserver(registrations: 200, posts: 50).parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.count(of: .deliverSkipped) == 200)
            // Its dangling note is still made.
            #expect(result.findings.contains { $0.rule == "dangling-registration" })
            // The skipped receivers are no decision after the first post: nothing to explore.
            #expect(result.decisions.count == 1)
        }

        @Test func aPrunedRegistrationIsStillRemovable() throws {
            // The removal runs in another object's method: a top-level step may not name a released object.
            let cleaner =
                #"{ "op": "create", "object": "b", "methods": { "cleanUp": [ "#
                + #"{ "remove": { "registry": "center", "observer": "a" } } ] } }"#
            let cleanUp = #"{ "op": "invoke", "object": "b", "method": "cleanUp" }"#
            let scenario = try Self.deadObserver(registrations: 3, posts: 2, then: [cleaner, cleanUp]).parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.recording.events.filter { $0.kind == .remove && $0.registration != 0 }.count == 3)
            #expect(!result.findings.contains { $0.rule == "unbalanced-removal" })
        }

        @Test func aLiveWeakRegistrationKeepsReceiving() throws {
            let observe = #"{ "op": "observe", "registry": "center", "observer": "a", "channel": "N", "handler": [] }"#
            let post = #"{ "op": "post", "registry": "center", "channel": "N" }"#
            let scenario = try InlineScenario(
                "["
                    + ([#"{ "op": "create", "object": "a" }"#, observe]
                    + Array(repeating: post, count: 5)).joined(separator: ",\n") + "]"
            ).parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.count(of: .deliver) == 5)
            #expect(result.count(of: .deliverSkipped) == 0)
        }

        @Test func anUnownedRegistrationIsReportedOnEveryPost() throws {
            // Not pruned: each of those deliveries would be a crash, and is counted.
            let scenario = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a" },
                  { "op": "observe", "registry": "center", "observer": "a", "channel": "N", "handler": [],
                    "hold": "unowned" },
                  { "op": "release", "object": "a" },
                  { "op": "post", "registry": "center", "channel": "N" },
                  { "op": "post", "registry": "center", "channel": "N" }
                ]
                """
            ).parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.count(of: .deliverToDead) == 2)
        }
    }
}
