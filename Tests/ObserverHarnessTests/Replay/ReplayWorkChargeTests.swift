import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// Every loop a replay or an exploration runs is charged as work (or
    /// stops with the budget), so no scenario within the input limits runs
    /// past ``Replay/workBound`` and ``Explorer/workBudget``. Each test is a
    /// scenario whose loop once ran uncharged, far past the bound.
    @Suite struct WorkCharges {
        static let unownedCenter = #"{ "center": { "kind": "notification-center", "hold": "unowned" } }"#
        static let weakCenter = #"{ "center": { "kind": "notification-center", "hold": "weak" } }"#

        /// One object registered `observers` times on "N", released, then
        /// `posts` posts of "N": every post reaches every registration of a
        /// dead observer.
        static func deadFanOut(observers: Int, posts: Int, registries: String) -> InlineScenario {
            let observe = #"{ "op": "observe", "registry": "center", "observer": "a", "channel": "N", "handler": [] }"#
            let post = #"{ "op": "post", "registry": "center", "channel": "N" }"#
            let steps =
                [#"{ "op": "create", "object": "a" }"#] + Array(repeating: observe, count: observers)
                + [#"{ "op": "release", "object": "a" }"#] + Array(repeating: post, count: posts)
            return InlineScenario("[" + steps.joined(separator: ",\n") + "]", registries: registries)
        }

        @Test func deliveriesToADeadUnownedObserverCountAsWork() throws {
            // 1 000 × 600 = 600 000 deliveries to a dead object: once, none was charged.
            let scenario = try Self.deadFanOut(observers: 1_000, posts: 600, registries: Self.unownedCenter).parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            // 1 002 units before the posts, then 1 016 per post (its step, 15 for
            // looking through 1 000 registrations, 1 000 deliveries): 491 posts
            // run, and the 492nd (step 1 493) is cut at its 127th delivery.
            #expect(result.work == Replay.workBound + 1)
            #expect(result.limit == Replay.LimitCut(bound: .work, step: 1_493))
            #expect(result.count(of: .deliverToDead) == 491 * 1_000 + 127)
            #expect(Set(result.findings.map(\.rule)).isSuperset(of: ["notify-after-dealloc", "exploration-limit"]))
        }

        @Test func explorationChargesEachReplaysDeadDeliveries() throws {
            // 200 × 300 dead deliveries a replay. Uncharged, each replay cost
            // ~1 000 units and all 300 decisions were reversed (301 replays).
            let scenario = try Self.deadFanOut(observers: 200, posts: 300, registries: Self.unownedCenter).parse()
            var explorer = Explorer(scenario: scenario, seed: 0)
            explorer.workLimit = 200_000
            let report = try explorer.run()
            let oneReplay = 1 + 200 + 1 + 300 * (1 + 3 + 200)
            #expect(report.replays == 4)
            #expect(explorer.work == 4 * oneReplay)
            #expect(report.findings.contains { $0.rule == "exploration-limit" && $0.message.contains("units of work") })
        }

        @Test func registrationsOfAWeakObserverThatIsGoneCountAsWork() throws {
            // After one skip each, later posts pass the 1 000 dead weak
            // registrations by: still a look at each, charged.
            let scenario = try Self.deadFanOut(observers: 1_000, posts: 600, registries: Self.weakCenter).parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.limit?.bound == .work)
            #expect(result.count(of: .deliverSkipped) == 1_000)
            #expect(result.count(of: .post) < 600)
        }

        @Test func valuesALoopTakesCountAsWorkWhenItsOwnerIsGone() throws {
            // A `for await` loop whose weakly held owner is gone skips its
            // body for each value, but still takes it: 300 000 buffered values.
            let poster =
                #"{ "op": "observe", "registry": "center", "observer": "x", "channel": "F", "method": "fire" }"#
            // 15 posts of "F" reach x 100 times each, and each time x posts "N" 100 times.
            let firePosts = Array(repeating: #"{ "post": { "registry": "center", "channel": "N" } }"#, count: 100)
            let steps =
                [
                    #"{ "op": "create", "object": "owner" }"#,
                    #"{ "op": "create", "object": "x", "methods": { "fire": [\#(firePosts.joined(separator: ", "))] } }"#,
                    #"{ "op": "open-loop", "registry": "center", "loop": "l", "channel": "N", "owner": "owner", "handler": [] }"#,
                    #"{ "op": "release", "object": "owner" }"#,
                ] + Array(repeating: poster, count: 100)
                + Array(repeating: #"{ "op": "post", "registry": "center", "channel": "F" }"#, count: 15)
                + [#"{ "op": "run-loop", "loop": "l" }"#]
            let scenario = try InlineScenario("[" + steps.joined(separator: ",\n") + "]").parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            // 150 000 values buffered (451 634 units: each "N" post's effect step,
            // look through and delivery), then the run-loop step and a unit per
            // value taken, until the bound.
            #expect(result.count(of: .asyncConsume) == Replay.workBound - 451_634 - 1)
            #expect(result.limit == Replay.LimitCut(bound: .work, step: scenario.steps.count - 1))
        }

        @Test func aChangeVisitsOnlyTheTrackingsOfItsOwnProperty() throws {
            // 1 500 observers track cart.count; then 200 000 sets of cart.total
            // (x's method of 100 sets, run 40 times for each of 50 posts). Each
            // set once looked at every tracking ever armed, uncharged: 300 M looks.
            let touch = Array(
                repeating: #"{ "set": { "registry": "model", "object": "cart", "property": "total", "value": 1 } }"#,
                count: 100)
            var steps = [
                #"{ "op": "create", "object": "cart" }"#,
                #"{ "op": "create", "object": "x", "methods": { "touch": [ \#(touch.joined(separator: ", ")) ] } }"#,
            ]
            for index in 0..<1_500 {
                steps.append(#"{ "op": "create", "object": "o\#(index)" }"#)
                steps.append(
                    #"{ "op": "observe", "registry": "model", "observer": "o\#(index)", "object": "cart", "property": "count", "handler": [] }"#
                )
            }
            steps += Array(
                repeating: #"{ "op": "observe", "registry": "list", "observer": "x", "method": "touch" }"#, count: 40)
            steps += Array(repeating: #"{ "op": "post", "registry": "list" }"#, count: 50)
            let registries = #"{ "model": { "kind": "observable" }, "list": { "kind": "subject" } }"#
            let scenario = try InlineScenario("[" + steps.joined(separator: ",\n") + "]", registries: registries)
                .parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            // Steps and effects are a unit each; a set of "total" looks at no tracking of "count".
            #expect(result.limit == nil)
            #expect(result.work == 2 + 1_500 * 2 + 40 + 50 * (1 + 40 + 40 * 100))
            #expect(result.count(of: .observationChange) == 0)
        }

        @Test func everyTrackingAChangeVisitsIsWork() throws {
            // 1 500 observers each armed once on cart.count, never re-armed:
            // every set records a change for each, and is cut at the bound
            // mid-set (once, only the next step noticed, up to 1 500 units late).
            var steps = [#"{ "op": "create", "object": "cart" }"#]
            for index in 0..<1_500 {
                steps.append(#"{ "op": "create", "object": "o\#(index)" }"#)
                steps.append(
                    #"{ "op": "observe", "registry": "model", "observer": "o\#(index)", "object": "cart", "property": "count", "handler": [] }"#
                )
            }
            let set = #"{ "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 1 }"#
            steps += Array(repeating: set, count: 400)
            let scenario = try InlineScenario(
                "[" + steps.joined(separator: ",\n") + "]", registries: #"{ "model": { "kind": "observable" } }"#
            ).parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.limit?.bound == .work)
            #expect(result.work == Replay.workBound + 1)
        }

        @Test func receiversRemovedEarlierInThePostCountAsWork() throws {
            // The first of 100 deliveries removes all 100 registrations: the
            // post passes the other 99 by, each a look, once uncharged.
            let observe =
                #"{ "op": "observe", "registry": "center", "observer": "a", "channel": "N", "handler": [ { "remove": { "registry": "center", "observer": "self", "channel": "N" } } ] }"#
            let steps =
                [#"{ "op": "create", "object": "a" }"#] + Array(repeating: observe, count: 100)
                + [#"{ "op": "post", "registry": "center", "channel": "N" }"#]
            let scenario = try InlineScenario("[" + steps.joined(separator: ",\n") + "]").parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.count(of: .deliver) == 1)
            // 101 steps; the post: its step, 1 for looking through 100
            // registrations, 100 attempts; the removal: its effect and 1 look.
            #expect(result.work == 101 + (1 + 1 + 100) + (1 + 1))
        }

        @Test func releasingAHeldObjectLooksThroughWhatTheHolderHolds() throws {
            // x holds 128 objects; its method lets go of o5, found among them.
            var steps = [#"{ "op": "create", "object": "x", "methods": { "drop": [ { "release": "o5" } ] } }"#]
            for index in 0..<128 { steps.append(#"{ "op": "create", "object": "o\#(index)" }"#) }
            for index in 0..<128 { steps.append(#"{ "op": "retain", "holder": "x", "target": "o\#(index)" }"#) }
            steps += [
                #"{ "op": "release", "object": "o5" }"#, #"{ "op": "invoke", "object": "x", "method": "drop" }"#,
            ]
            let scenario = try InlineScenario("[" + steps.joined(separator: ",\n") + "]").parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.objects(of: .dealloc).contains("o5"))
            // 259 steps, then the invoked method's effect and its look through 128 held objects (2).
            #expect(result.work == 259 + 1 + 2)
        }

        @Test func removingAndDroppingTokensLookThroughTheRegistry() throws {
            // 128 registrations, then 10 removals that match nothing and a
            // token dropped: each looks through 128 registrations (2 units).
            let observe = #"{ "op": "observe", "registry": "center", "observer": "a", "channel": "N", "handler": [] }"#
            let remove = #"{ "op": "remove", "registry": "center", "observer": "a", "channel": "Other" }"#
            let steps =
                [#"{ "op": "create", "object": "a" }"#] + Array(repeating: observe, count: 127)
                + [
                    #"{ "op": "observe", "registry": "center", "observer": "a", "channel": "N", "token": "t", "handler": [] }"#
                ]
                + Array(repeating: remove, count: 10) + [#"{ "op": "drop-token", "token": "t" }"#]
            let scenario = try InlineScenario("[" + steps.joined(separator: ",\n") + "]").parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.work == 1 + 128 + 10 * (1 + 2) + (1 + 2))
        }

        @Test func watchedSendersAreLookedThroughByEveryRegistryOperation() throws {
            // 128 registrations, each filtered on a sender of its own (a boxed
            // value): every later registry operation sweeps the 128 watched senders.
            var steps = [#"{ "op": "create", "object": "a" }"#]
            for index in 0..<128 {
                steps.append(
                    #"{ "op": "observe", "registry": "center", "observer": "a", "channel": "N", "senderValue": "s\#(index)", "handler": [] }"#
                )
            }
            steps += Array(repeating: #"{ "op": "post", "registry": "center", "channel": "Other" }"#, count: 10)
            let scenario = try InlineScenario("[" + steps.joined(separator: ",\n") + "]").parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            // The observes sweep 0 … 127 watched senders (a unit per 4: 1 984 in
            // all); each post, 128 registrations (2 units) and 128 senders (32).
            #expect(result.work == 1 + 128 + 1_984 + 10 * (1 + 2 + 32))
        }

        @Test func explorationStopsItsSearchOnceTheBudgetIsSpent() throws {
            // 2 000 posts whose two receivers write different values: 2 000
            // conflicting decisions, so 2 million pairs of them to reverse
            // together. Once the budget ran out, the search still walked
            // every pair (and built its schedule) without replaying it.
            let observe = { (name: String, value: Int) in
                #"{ "op": "observe", "registry": "center", "observer": "\#(name)", "channel": "N", "handler": [ { "set": "k", "value": \#(value) } ] }"#
            }
            let steps =
                [
                    #"{ "op": "create", "object": "a" }"#, #"{ "op": "create", "object": "b" }"#, observe("a", 1),
                    observe("b", 2),
                ]
                + Array(repeating: #"{ "op": "post", "registry": "center", "channel": "N" }"#, count: 2_000)
            let scenario = try InlineScenario("[" + steps.joined(separator: ",\n") + "]").parse()
            var explorer = Explorer(scenario: scenario, seed: 0)
            explorer.workLimit = 50_000
            let report = try explorer.run()
            #expect(report.findings.contains { $0.rule == "exploration-limit" })
            // The schedules asked for are the ones replayed, and the one the budget refused.
            #expect(explorer.schedulesConsidered <= report.replays + 1)
        }
    }
}
