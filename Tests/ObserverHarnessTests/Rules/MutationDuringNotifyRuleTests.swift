import Testing
@testable import ObserverHarness

extension Rules {
    @Suite struct MutationDuringNotify {
        static let rule = "mutation-during-notify"

        @Test func mutationDuringNotifyFiresWhenASubjectHandlerRemovesAnotherObserver() throws {
            let report = try InlineScenario("""
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [
                      { "remove": { "registry": "subject", "observer": "logger", "site": "Coordinator.swift:44" } } ] },
                  { "op": "observe", "registry": "subject", "observer": "logger", "handler": [] },
                  { "op": "post", "registry": "subject", "site": "Session.swift:12" }
                ]
                """).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(finding.shape == FindingShape(objects: ["coordinator", "logger"], registry: "subject", channel: "",
                                                  step: 4, site: "Coordinator.swift:44"))
        }

        @Test func mutationDuringNotifyFiresWhenAHandlerAddsAnObserverToTheDeliveringRegistry() throws {
            let report = try InlineScenario("""
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "center", "observer": "coordinator", "channel": "Login", "handler": [
                      { "observe": { "registry": "center", "observer": "logger", "channel": "Login", "handler": [],
                                     "site": "Coordinator.swift:50" } } ] },
                  { "op": "post", "registry": "center", "channel": "Login" }
                ]
                """).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.shape == FindingShape(objects: ["coordinator", "logger"], registry: "center",
                                                  channel: "Login", step: 3, site: "Coordinator.swift:50"))
        }

        @Test func mutationDuringNotifyIgnoresAOneShotObserverRemovingItsOwnToken() throws {
            let report = try InlineScenario("""
                [
                  { "op": "create", "object": "onboarding" },
                  { "op": "observe", "registry": "center", "observer": "onboarding", "channel": "FirstLaunch",
                    "token": "once", "handler": [ { "remove": { "registry": "center", "token": "once" } } ] },
                  { "op": "post", "registry": "center", "channel": "FirstLaunch" }
                ]
                """).report()
            report.expectNone(of: Self.rule)
        }

        @Test func mutationDuringNotifyIgnoresAHandlerChangingAnotherRegistry() throws {
            let report = try InlineScenario("""
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [
                      { "observe": { "registry": "center", "observer": "logger", "channel": "Login",
                                     "handler": [] } } ] },
                  { "op": "post", "registry": "subject" }
                ]
                """).report()
            report.expectNone(of: Self.rule)
        }

        @Test func mutationDuringNotifyIgnoresRemovalsOutsideDelivery() throws {
            let report = try InlineScenario("""
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [] },
                  { "op": "observe", "registry": "subject", "observer": "logger", "handler": [] },
                  { "op": "post", "registry": "subject" },
                  { "op": "remove", "registry": "subject", "observer": "logger" }
                ]
                """).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }
    }
}
