import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// Each step kind of the scenario format, run once in the baseline replay.
    @Suite struct Steps {
        @Test func createMakesALiveObjectOfItsTypeAndReleaseDeallocatesIt() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen", "type": "CheckoutViewController" },
                  { "op": "create", "object": "plain" },
                  { "op": "release", "object": "screen" }
                ]
                """
            ).baseline()
            let trace = TraceIndex(result.recording)
            #expect(trace.describe(1) == "screen (CheckoutViewController)")
            #expect(trace.describe(2) == "plain (plain)")
            #expect(result.objects(of: .dealloc) == ["screen"])
        }

        @Test func retainKeepsTheTargetAliveUntilTheHolderGoesAndTheHolderDeallocatesFirst() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "create", "object": "viewModel" },
                  { "op": "retain", "holder": "screen", "target": "viewModel" },
                  { "op": "release", "object": "viewModel" },
                  { "op": "release", "object": "screen" }
                ]
                """
            ).baseline()
            #expect(result.objects(of: .appRelease) == ["viewModel", "screen"])
            #expect(result.objects(of: .dealloc) == ["screen", "viewModel"])
        }

        @Test func aRetainCycleKeepsBothObjectsAlive() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "parent" },
                  { "op": "create", "object": "child" },
                  { "op": "retain", "holder": "parent", "target": "child" },
                  { "op": "retain", "holder": "child", "target": "parent" },
                  { "op": "release", "object": "parent" },
                  { "op": "release", "object": "child" }
                ]
                """
            ).baseline()
            #expect(result.objects(of: .dealloc).isEmpty)
        }

        @Test func releaseInsideAHandlerDropsTheHandlerObjectsOwnReference() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "child" },
                  { "op": "create", "object": "parent", "methods": { "dropChild": [ { "release": "child" } ] } },
                  { "op": "retain", "holder": "parent", "target": "child" },
                  { "op": "release", "object": "child" },
                  { "op": "invoke", "object": "parent", "method": "dropChild" }
                ]
                """
            ).baseline()
            #expect(result.objects(of: .dealloc) == ["child"])
        }

        @Test func releasingSelfInAHandlerDropsTheScenariosReferenceOnceTheHandlerReturns() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen", "methods": {
                      "close": [ { "release": "self" }, { "append": "log", "value": "closing" } ],
                      "deinit": [ { "append": "log", "value": "deinit" } ] } },
                  { "op": "invoke", "object": "screen", "method": "close" }
                ]
                """
            ).baseline()
            #expect(result.state["log"] == #"["closing","deinit"]"#)
            #expect(result.objects(of: .appRelease) == ["screen"])
            #expect(result.objects(of: .dealloc) == ["screen"])
        }

        @Test func observeAndPostRunTheHandlerWithThePostsPayload() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "observe", "registry": "center", "observer": "cart", "channel": "AddToCart",
                    "handler": [ { "set": "cart.last", "value": { "payload": "product" } },
                                 { "set": "cart.missing", "value": { "payload": "absent" } } ] },
                  { "op": "post", "registry": "center", "channel": "AddToCart", "payload": { "product": "p1" } }
                ]
                """
            ).baseline()
            #expect(result.state["cart.last"] == #""p1""#)
            #expect(result.state["cart.missing"] == "null")
        }

        @Test func aSenderFilterReceivesOnlyThatSendersPostsAndNoFilterReceivesAll() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "left" },
                  { "op": "create", "object": "right" },
                  { "op": "create", "object": "leftMeter" },
                  { "op": "create", "object": "mixer" },
                  { "op": "observe", "registry": "center", "observer": "leftMeter", "channel": "Level",
                    "sender": "left", "handler": [ { "increment": "leftMeter.updates" } ] },
                  { "op": "observe", "registry": "center", "observer": "mixer", "channel": "Level",
                    "handler": [ { "increment": "mixer.updates" } ] },
                  { "op": "post", "registry": "center", "channel": "Level", "sender": "left" },
                  { "op": "post", "registry": "center", "channel": "Level", "sender": "right" },
                  { "op": "post", "registry": "center", "channel": "Level" }
                ]
                """
            ).baseline()
            #expect(result.state["leftMeter.updates"] == "1")
            #expect(result.state["mixer.updates"] == "3")
        }

        @Test func aNullChannelInANotificationCenterReceivesEveryName() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "center", "observer": "logger", "channel": null,
                    "handler": [ { "increment": "logged" } ] },
                  { "op": "post", "registry": "center", "channel": "Login" },
                  { "op": "post", "registry": "center", "channel": "Logout" }
                ]
                """
            ).baseline()
            #expect(result.state["logged"] == "2")
        }

        @Test func setWritesObjectDotPropertyAndNotifiesObserversOnEverySetWithOldAndNew() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "player" },
                  { "op": "create", "object": "label" },
                  { "op": "observe", "registry": "kvo", "observer": "label", "object": "player", "property": "rate",
                    "handler": [ { "append": "label.seen", "value": { "payload": "old" } },
                                 { "append": "label.seen", "value": { "payload": "new" } } ] },
                  { "op": "set", "registry": "kvo", "object": "player", "property": "rate", "value": 1 },
                  { "op": "set", "registry": "kvo", "object": "player", "property": "rate", "value": 1 },
                  { "op": "set", "registry": "kvo", "object": "player", "property": "volume", "value": 5 }
                ]
                """
            ).baseline()
            #expect(result.state["player.rate"] == "1")
            #expect(result.state["player.volume"] == "5")
            #expect(result.state["label.seen"] == "[null,1,1,1]")
        }

        @Test func setDelegateAndCallDelegateRunTheDelegatesMethodWithThePayload() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "table" },
                  { "op": "create", "object": "dataSource",
                    "methods": { "didSelect": [ { "append": "selected", "value": { "payload": "row" } } ] } },
                  { "op": "set-delegate", "registry": "slot", "owner": "table", "delegate": "dataSource" },
                  { "op": "call-delegate", "registry": "slot", "owner": "table", "method": "didSelect",
                    "payload": { "row": 3 } },
                  { "op": "set-delegate", "registry": "slot", "owner": "table", "delegate": null },
                  { "op": "call-delegate", "registry": "slot", "owner": "table", "method": "didSelect",
                    "payload": { "row": 4 } }
                ]
                """
            ).baseline()
            #expect(result.state["selected"] == "[3]")
            #expect(result.count(of: .delegateCall) == 2)
        }

        @Test func invokeRunsTheObjectsMethodWithItsPayload() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "button",
                    "methods": { "tap": [ { "set": "tapped", "value": { "payload": "at" } } ] } },
                  { "op": "invoke", "object": "button", "method": "tap", "payload": { "at": "12:00" } }
                ]
                """
            ).baseline()
            #expect(result.state["tapped"] == #""12:00""#)
        }

        @Test func dropTokenRecordsTheLastReferenceGoingOnlyWhileActive() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "A", "token": "a",
                    "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "B", "token": "b",
                    "handler": [] },
                  { "op": "remove", "registry": "center", "token": "b" },
                  { "op": "drop-token", "token": "a" },
                  { "op": "drop-token", "token": "b" }
                ]
                """
            ).baseline()
            #expect(result.count(of: .tokenDropped) == 1)
        }

        @Test func concurrentBranchesRunOneAfterAnotherInTheBaseline() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a", "methods": { "one": [ { "append": "log", "value": "a1" } ],
                                                                "two": [ { "append": "log", "value": "a2" } ] } },
                  { "op": "create", "object": "b", "methods": { "one": [ { "append": "log", "value": "b1" } ] } },
                  { "op": "concurrently", "branches": [
                      [ { "op": "invoke", "object": "a", "method": "one" },
                        { "op": "invoke", "object": "a", "method": "two" } ],
                      [ { "op": "invoke", "object": "b", "method": "one" } ] ] }
                ]
                """
            ).baseline()
            #expect(result.state["log"] == #"["a1","a2","b1"]"#)
            #expect(result.concurrentSteps.map(\.branchSizes) == [[2, 1]])
        }

        @Test func incrementStartsFromZeroAppendFromAnEmptyListAndReadRecordsTheValue() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a", "methods": { "run": [
                      { "increment": "count" }, { "increment": "count" },
                      { "append": "list", "value": { "nested": [1] } },
                      { "read": "count" }, { "read": "never.written" } ] } },
                  { "op": "invoke", "object": "a", "method": "run" }
                ]
                """
            ).baseline()
            #expect(result.state["count"] == "2")
            #expect(result.state["list"] == #"[{"nested":[1]}]"#)
            #expect(result.readValues == ["2", "null"])
        }

        @Test func handlersRunStepsAsEffects() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "table" },
                  { "op": "create", "object": "cache" },
                  { "op": "create", "object": "dataSource",
                    "methods": { "reload": [ { "append": "log", "value": { "payload": "why" } } ] } },
                  { "op": "create", "object": "app", "methods": { "start": [
                      { "retain": { "holder": "self", "target": "cache" } },
                      { "set-delegate": { "registry": "slot", "owner": "table", "delegate": "dataSource" } },
                      { "call-delegate": { "registry": "slot", "owner": "table", "method": "reload",
                                           "payload": { "why": "start" } } },
                      { "observe": { "registry": "center", "observer": "self", "channel": "Ping", "token": "ping",
                                     "handler": [ { "append": "log", "value": "ping" } ] } },
                      { "drop-token": "ping" } ] } },
                  { "op": "invoke", "object": "app", "method": "start" },
                  { "op": "release", "object": "cache" },
                  { "op": "post", "registry": "center", "channel": "Ping" }
                ]
                """
            ).baseline()
            #expect(result.state["log"] == #"["start","ping"]"#)
            // The app retains the cache, so releasing it does not deallocate it.
            #expect(result.objects(of: .dealloc).isEmpty)
            #expect(result.count(of: .tokenDropped) == 1)
        }

        @Test func selfInAHandlerIsTheObjectWhoseHandlerRuns() throws {
            let result = try InlineScenario(
                """
                [
                  { "op": "create", "object": "profile", "methods": { "refresh": [ { "increment": "refreshes" } ] } },
                  { "op": "observe", "registry": "center", "observer": "profile", "channel": "Login", "handler": [
                      { "set": { "registry": "kvo", "object": "self", "property": "name", "value": "Ada" } },
                      { "invoke": { "object": "self", "method": "refresh" } },
                      { "remove": { "registry": "center", "observer": "self" } } ] },
                  { "op": "post", "registry": "center", "channel": "Login" },
                  { "op": "post", "registry": "center", "channel": "Login" }
                ]
                """
            ).baseline()
            #expect(result.state["profile.name"] == #""Ada""#)
            #expect(result.state["refreshes"] == "1")
        }

        @Test func selfInADeinitIsTheDeallocatingObjectAndItsMethodsStillRun() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "screen", "methods": {
                      "stopObserving": [ { "remove": { "registry": "center", "observer": "self" } },
                                         { "append": "log", "value": "stopped" } ],
                      "deinit": [ { "append": "log", "value": "deinit" },
                                  { "invoke": { "object": "self", "method": "stopObserving" } },
                                  { "post": { "registry": "center", "channel": "Closed", "sender": "self" } } ] } },
                  { "op": "create", "object": "tracker" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Refresh", "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "tracker", "channel": "Closed",
                    "sender": "screen", "handler": [ { "increment": "closed" } ] },
                  { "op": "release", "object": "screen" }
                ]
                """)
            let result = try scenario.baseline()
            #expect(result.state["log"] == #"["deinit","stopped"]"#)
            #expect(result.state["closed"] == "1")
            // The removal ran before the deallocation was recorded.
            try scenario.report().expectNone(of: "dangling-registration")
        }
    }
}
