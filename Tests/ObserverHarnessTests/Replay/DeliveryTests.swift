import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// The delivery semantics, seen through the shared state.
    @Suite struct Delivery {
        /// A registry that delivers in registration order, so one replay shows the rule.
        static let orderedRegistries = """
            { "center": { "kind": "notification-center", "order": "registration" },
              "subject": { "kind": "subject", "order": "registration" } }
            """

        @Test func aRegistrationAddedDuringDeliveryMissesTheInFlightPostButGetsTheNext() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "first" },
                  { "op": "create", "object": "late" },
                  { "op": "observe", "registry": "subject", "observer": "first", "handler": [
                      { "append": "log", "value": "first" },
                      { "observe": { "registry": "subject", "observer": "late",
                                     "handler": [ { "append": "log", "value": "late" } ] } } ] },
                  { "op": "post", "registry": "subject" },
                  { "op": "remove", "registry": "subject", "observer": "first" },
                  { "op": "post", "registry": "subject" }
                ]
                """, registries: Self.orderedRegistries
            ).baseline()
            #expect(result.state["log"] == #"["first","late"]"#)
        }

        @Test func aRegistrationRemovedDuringDeliveryReceivesNothingMore() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "first" },
                  { "op": "create", "object": "second" },
                  { "op": "observe", "registry": "subject", "observer": "first", "handler": [
                      { "append": "log", "value": "first" },
                      { "remove": { "registry": "subject", "observer": "second" } } ] },
                  { "op": "observe", "registry": "subject", "observer": "second",
                    "handler": [ { "append": "log", "value": "second" } ] },
                  { "op": "post", "registry": "subject" }
                ]
                """, registries: Self.orderedRegistries
            ).baseline()
            #expect(result.state["log"] == #"["first"]"#)
        }

        @Test func aHandlersOwnPostIsDeliveredBeforeTheOuterPostMovesOn() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a" },
                  { "op": "create", "object": "b", "methods": { "note": [ { "append": "log", "value": "b.note" } ] } },
                  { "op": "create", "object": "inner" },
                  { "op": "observe", "registry": "center", "observer": "a", "channel": "Outer", "handler": [
                      { "append": "log", "value": "a:start" },
                      { "post": { "registry": "center", "channel": "Inner" } },
                      { "append": "log", "value": "a:end" } ] },
                  { "op": "observe", "registry": "center", "observer": "b", "channel": "Outer",
                    "handler": [ { "append": "log", "value": "b" } ] },
                  { "op": "observe", "registry": "center", "observer": "inner", "channel": "Inner", "handler": [
                      { "append": "log", "value": "inner:start" },
                      { "invoke": { "object": "b", "method": "note" } },
                      { "append": "log", "value": "inner:end" } ] },
                  { "op": "post", "registry": "center", "channel": "Outer" }
                ]
                """, registries: Self.orderedRegistries
            ).baseline()
            #expect(result.state["log"] == #"["a:start","inner:start","b.note","inner:end","a:end","b"]"#)
        }

        @Test func aBlockRegistrationIgnoresRemovalByObserverAndEndsByItsToken() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Tick", "token": "tick",
                    "handler": [ { "increment": "ticks" } ] },
                  { "op": "remove", "registry": "center", "observer": "screen" },
                  { "op": "remove", "registry": "center", "observer": "screen", "channel": "Tick" },
                  { "op": "post", "registry": "center", "channel": "Tick" },
                  { "op": "remove", "registry": "center", "token": "tick" },
                  { "op": "post", "registry": "center", "channel": "Tick" }
                ]
                """
            ).baseline()
            #expect(result.state["ticks"] == "1")
        }

        @Test func aSelectorRegistrationIsRemovedByObserverAloneOrByChannel() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "A",
                    "handler": [ { "append": "log", "value": "A" } ] },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "B",
                    "handler": [ { "append": "log", "value": "B" } ] },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "C",
                    "handler": [ { "append": "log", "value": "C" } ] },
                  { "op": "remove", "registry": "center", "observer": "screen", "channel": "A" },
                  { "op": "post", "registry": "center", "channel": "A" },
                  { "op": "post", "registry": "center", "channel": "B" },
                  { "op": "remove", "registry": "center", "observer": "screen" },
                  { "op": "post", "registry": "center", "channel": "B" },
                  { "op": "post", "registry": "center", "channel": "C" }
                ]
                """
            ).baseline()
            #expect(result.state["log"] == #"["B"]"#)
        }

        @Test func aSubjectRegistrationWithATokenIsRemovedByObserverToo() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "subject", "observer": "screen", "token": "t",
                    "handler": [ { "increment": "calls" } ] },
                  { "op": "remove", "registry": "subject", "observer": "screen" },
                  { "op": "post", "registry": "subject" }
                ]
                """
            ).baseline()
            #expect(result.state["calls"] == nil)
        }

        @Test func aPayloadFieldReadsThePayloadOfTheNotificationBeingHandled() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "outer" },
                  { "op": "create", "object": "inner" },
                  { "op": "observe", "registry": "center", "observer": "outer", "channel": "Order", "handler": [
                      { "append": "ids", "value": { "payload": "id" } },
                      { "post": { "registry": "center", "channel": "Line", "payload": { "id": "line-1" } } },
                      { "append": "ids", "value": { "payload": "id" } } ] },
                  { "op": "observe", "registry": "center", "observer": "inner", "channel": "Line",
                    "handler": [ { "append": "ids", "value": { "payload": "id" } } ] },
                  { "op": "post", "registry": "center", "channel": "Order", "payload": { "id": "order-9" } }
                ]
                """
            ).baseline()
            #expect(result.state["ids"] == #"["order-9","line-1","order-9"]"#)
        }

        @Test func aWeakObserverIsSkippedAndAnUnownedOneIsRecordedAsADeliveryToTheDead() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "weakOne" },
                  { "op": "create", "object": "unownedOne" },
                  { "op": "observe", "registry": "subject", "observer": "weakOne", "hold": "weak",
                    "handler": [ { "increment": "weak.calls" } ] },
                  { "op": "observe", "registry": "subject", "observer": "unownedOne", "hold": "unowned",
                    "handler": [ { "increment": "unowned.calls" } ] },
                  { "op": "release", "object": "weakOne" },
                  { "op": "release", "object": "unownedOne" },
                  { "op": "post", "registry": "subject" }
                ]
                """
            ).baseline()
            #expect(result.state.isEmpty)
            #expect(result.objects(of: .deliverSkipped) == ["weakOne"])
            #expect(result.objects(of: .deliverToDead) == ["unownedOne"])
        }

        @Test func aStrongRegistrationKeepsItsObserverDeliveringAfterTheAppReleasesIt() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "hud" },
                  { "op": "observe", "registry": "subject", "observer": "hud",
                    "handler": [ { "increment": "hud.calls" } ] },
                  { "op": "release", "object": "hud" },
                  { "op": "post", "registry": "subject" }
                ]
                """
            ).baseline()
            #expect(result.state["hud.calls"] == "1")
            #expect(result.objects(of: .dealloc).isEmpty)
        }

        @Test func nestingOneChannelDeeperThan32LevelsEndsTheReplay() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "echo", "methods": { "after": [ { "set": "after", "value": true } ] } },
                  { "op": "observe", "registry": "subject", "observer": "echo", "handler": [
                      { "increment": "depth" }, { "post": { "registry": "subject" } } ] },
                  { "op": "post", "registry": "subject" },
                  { "op": "invoke", "object": "echo", "method": "after" }
                ]
                """
            ).baseline()
            #expect(result.state["depth"] == "32")
            #expect(result.state["after"] == nil)
            #expect(result.count(of: .cycleCut) == 1)
        }
    }
}
