import Testing

@testable import ObserverHarness

extension Rules {
    /// `async-observer-outlives-owner` and `message-dropped` from scenarios
    /// (`open-loop`, `run-loop`, `cancel-loop`), and typed `discarded-token`.
    @Suite struct AsyncObservation {
        @Test func aStrongLoopKeepsItsReleasedOwnerAlive() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "open-loop", "registry": "center", "loop": "themeLoop", "owner": "screen",
                    "channel": "ThemeChanged", "hold": "strong", "handler": [], "site": "Screen.swift:14" },
                  { "op": "release", "object": "screen" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: "async-observer-outlives-owner"))
            #expect(finding.severity == .error)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["screen", "themeLoop"], registry: "center",
                        channel: "ThemeChanged", step: 2, site: "Screen.swift:14"))
            #expect(finding.message.contains("keeps its owner screen"))
        }

        @Test func aWeakLoopRunsOnForNobodyAfterItsOwnerDeallocated() throws {
            let report = InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "open-loop", "registry": "center", "loop": "themeLoop", "owner": "screen",
                    "channel": "ThemeChanged", "handler": [ { "increment": "reloads" } ] },
                  { "op": "release", "object": "screen" },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" },
                  { "op": "run-loop", "loop": "themeLoop" }
                ]
                """)
            let finding = try #require(try report.report().onlyFinding(of: "async-observer-outlives-owner"))
            #expect(finding.message.contains("deallocated"))
            // The body does not run for a weakly held owner that is gone.
            #expect(try report.finalState()["reloads"] == nil)
        }

        @Test func aStrongLoopCancelledBeforeTheReleaseLetsItsOwnerGo() throws {
            let report = InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "open-loop", "registry": "center", "loop": "themeLoop", "owner": "screen",
                    "channel": "ThemeChanged", "hold": "strong", "handler": [ { "increment": "reloads" } ] },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" },
                  { "op": "run-loop", "loop": "themeLoop" },
                  { "op": "cancel-loop", "loop": "themeLoop" },
                  { "op": "release", "object": "screen" }
                ]
                """)
            #expect(try report.report().findings.filter { $0.severity != .note }.isEmpty)
            #expect(try report.finalState()["reloads"] == "1")
        }

        @Test func aLoopWithoutAnOwnerIsNeverJudged() throws {
            let report = try InlineScenario(
                """
                [ { "op": "open-loop", "registry": "center", "loop": "logLoop", "channel": "Log" } ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func aFullBufferDropsTheOldestAndTheLoopSeesOnlyTheRest() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "open-loop", "registry": "center", "loop": "cartLoop", "owner": "badge", "typed": true,
                    "channel": "CartDidChange", "bufferSize": 1,
                    "handler": [ { "append": "seen", "value": { "payload": "n" } } ] },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true, "payload": { "n": 1 } },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true, "payload": { "n": 2 } },
                  { "op": "run-loop", "loop": "cartLoop" },
                  { "op": "cancel-loop", "loop": "cartLoop" }
                ]
                """)
            #expect(try scenario.finalState()["seen"] == "[2]")
            let finding = try #require(try scenario.report().onlyFinding(of: "message-dropped"))
            #expect(finding.step == 3)
            #expect(finding.message.contains("dropped 1 message"))
        }

        @Test func classicPostsNeverReachATypedLoop() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "open-loop", "registry": "center", "loop": "cartLoop", "typed": true,
                    "channel": "CartDidChange", "bufferSize": 1, "handler": [ { "increment": "seen" } ] },
                  { "op": "post", "registry": "center", "channel": "CartDidChange" },
                  { "op": "post", "registry": "center", "channel": "CartDidChange" },
                  { "op": "run-loop", "loop": "cartLoop" }
                ]
                """)
            #expect(try scenario.finalState()["seen"] == nil)
            #expect(try scenario.report().findings.allSatisfy { $0.rule != "message-dropped" })
        }

        @Test func aTypedObserveWithoutATokenIsDroppedAtOnceAndNeverFires() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartDidChange",
                    "typed": true, "handler": [ { "increment": "updates" } ], "site": "Badge.swift:12" },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true }
                ]
                """)
            #expect(try scenario.finalState()["updates"] == nil)
            let finding = try #require(try scenario.report().onlyFinding(of: "discarded-token"))
            #expect(finding.message.contains("never fires"))
            #expect(finding.step == 1)
        }

        @Test func aTypedTokenKeptThenRemovedIsClean() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartDidChange",
                    "typed": true, "token": "cartToken", "handler": [ { "increment": "updates" } ] },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true },
                  { "op": "remove", "registry": "center", "token": "cartToken" },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true }
                ]
                """)
            #expect(try scenario.finalState()["updates"] == "1")
            #expect(try scenario.report().findings.filter { $0.severity != .note }.isEmpty)
        }
    }
}
