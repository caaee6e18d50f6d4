import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// The work bounds that keep a hostile scenario from running
    /// for hours — per replay (steps, effects and deliveries, ``Replay/workBound``)
    /// and across an exploration's replays (``Explorer/workBudget``).
    @Suite struct Budgets {
        /// One object registered `observers` times on "N" with empty
        /// handlers, then `posts` posts of "N", then `then`.
        static func fanOut(observers: Int, posts: Int, then more: [String] = []) -> InlineScenario {
            let observe = #"{ "op": "observe", "registry": "center", "observer": "a", "channel": "N", "handler": [] }"#
            let post = #"{ "op": "post", "registry": "center", "channel": "N" }"#
            let steps =
                [#"{ "op": "create", "object": "a" }"#] + Array(repeating: observe, count: observers)
                + Array(repeating: post, count: posts) + more
            return InlineScenario("[" + steps.joined(separator: ",\n") + "]")
        }

        /// 600 × 900 deliveries to handlers with no step in them: once, this
        /// replay ran every one (and each exploration replay again).
        @Test func deliveriesToEmptyHandlersCountAsWork() throws {
            let result = try Replay(Self.fanOut(observers: 600, posts: 900).parse(), schedule: Schedule()).run()
            // Past the bound by the one delivery that crossed it (and the look through 600 registrations).
            #expect((Replay.workBound + 1...Replay.workBound + 10).contains(result.work))
            // 601 units before the posts, then 610 per post (its step, 9 for
            // looking through 600 registrations, 600 deliveries): 818 posts
            // run, and the 819th (step 1419) is cut at its 410th delivery.
            #expect(result.limit == Replay.LimitCut(bound: .work, step: 1_419))
            // The post in progress stops too: no delivery is recorded after the cut.
            #expect(result.count(of: .deliver) == 818 * 600 + 410)
            // Not a cycle: the bound is named, as an exploration-limit note.
            #expect(result.count(of: .cycleCut) == 0)
            #expect(Set(result.findings.map(\.rule)) == ["duplicate-registration", "exploration-limit"])
        }

        @Test func lookingThroughALargeRegistryIsWorkEvenWhenNoOneReceives() throws {
            // 128 registrations on "N", then 10 posts of "Other": each looks through 128 (2 units).
            let post = #"{ "op": "post", "registry": "center", "channel": "Other" }"#
            let scenario = Self.fanOut(observers: 128, posts: 0, then: Array(repeating: post, count: 10))
            let result = try Replay(scenario.parse(), schedule: Schedule()).run()
            #expect(result.count(of: .post) == 10)
            #expect(result.work == 1 + 128 + 10 + 10 * 2)
        }

        @Test func explorationStopsOnceItsReplaysHaveSpentTheBudget() throws {
            // 50 posts with 2 receivers: 50 decisions, each tried in reverse.
            // One replay: 53 steps and 100 deliveries.
            let scenario = try Self.fanOut(observers: 2, posts: 50).parse()
            var unlimited = Explorer(scenario: scenario, seed: 0)
            #expect(try unlimited.run().replays == 51)
            #expect(unlimited.work == 51 * 153)

            var limited = Explorer(scenario: scenario, seed: 0)
            limited.workLimit = 1_000
            #expect(try limited.run().replays == 7)
            #expect(limited.work == 7 * 153)
        }

        @Test func theDefaultBudgetsAreTheDocumentedOnes() {
            #expect(Replay.workBound == 500_000)
            #expect(Replay.frameDepthBound == 256)
            #expect(Replay.channelDepthBound == 32)
            #expect(Explorer.replayBudget == 5_000)
            #expect(Explorer.workBudget == 2_000_000)
        }
    }
}
