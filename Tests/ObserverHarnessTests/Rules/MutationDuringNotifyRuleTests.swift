import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct MutationDuringNotify {
        static let rule = "mutation-during-notify"

        @Test func mutationDuringNotifyFiresWhenASubjectHandlerRemovesAnotherObserver() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [
                      { "remove": { "registry": "subject", "observer": "logger", "site": "Coordinator.swift:44" } } ] },
                  { "op": "observe", "registry": "subject", "observer": "logger", "handler": [] },
                  { "op": "post", "registry": "subject", "site": "Session.swift:12" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["coordinator", "logger"], registry: "subject", channel: "",
                        step: 4, site: "Coordinator.swift:44"))
        }

        @Test func mutationDuringNotifyFiresWhenAHandlerAddsAnObserverToTheDeliveringRegistry() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "center", "observer": "coordinator", "channel": "Login", "handler": [
                      { "observe": { "registry": "center", "observer": "logger", "channel": "Login", "handler": [],
                                     "site": "Coordinator.swift:50" } } ] },
                  { "op": "post", "registry": "center", "channel": "Login" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["coordinator", "logger"], registry: "center",
                        channel: "Login", step: 3, site: "Coordinator.swift:50"))
        }

        @Test func mutationDuringNotifyIgnoresAOneShotObserverRemovingItsOwnToken() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "onboarding" },
                  { "op": "observe", "registry": "center", "observer": "onboarding", "channel": "FirstLaunch",
                    "token": "once", "handler": [ { "remove": { "registry": "center", "token": "once" } } ] },
                  { "op": "post", "registry": "center", "channel": "FirstLaunch" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func mutationDuringNotifyIgnoresAHandlerChangingAnotherRegistry() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [
                      { "observe": { "registry": "center", "observer": "logger", "channel": "Login",
                                     "handler": [] } } ] },
                  { "op": "post", "registry": "subject" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func mutationDuringNotifyIgnoresRemovalsOutsideDelivery() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [] },
                  { "op": "observe", "registry": "subject", "observer": "logger", "handler": [] },
                  { "op": "post", "registry": "subject" },
                  { "op": "remove", "registry": "subject", "observer": "logger" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        // A handler drops the last reference to its own observer; the observer's deinit removes it
        // from the list after its delivery but before the next one.
        static func selfReleasingObserver(registry: String, channel: String) -> String {
            """
            [
              { "op": "create", "object": "login", "methods": {
                  "deinit": [ { "remove": { "registry": "\(registry)", "observer": "self", "site": "Store.m:77" } } ] } },
              { "op": "observe", "registry": "\(registry)", "observer": "login", \(channel)"hold": "weak",
                "handler": [ { "release": "login" } ] },
              { "op": "create", "object": "order" },
              { "op": "observe", "registry": "\(registry)", "observer": "order", \(channel)"hold": "weak", "handler": [] },
              { "op": "post", "registry": "\(registry)", \(channel)"site": "Store.m:48" }
            ]
            """
        }

        @Test func mutationDuringNotifyFiresWhenADeinitRemovesFromASubjectBetweenDeliveries() throws {
            let report = try InlineScenario(Self.selfReleasingObserver(registry: "subject", channel: "")).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["login"], registry: "subject", channel: "", step: 4,
                        site: "Store.m:77"))
            #expect(finding.message.contains("between two of its deliveries"))
        }

        @Test func mutationDuringNotifyIgnoresANotificationCenterObserverRemovingItselfInDeinit() throws {
            let report = try InlineScenario(
                Self.selfReleasingObserver(
                    registry: "center",
                    channel: "\"channel\": \"Token\", ")
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func mutationDuringNotifyIgnoresADeinitRemovalAfterTheLastDelivery() throws {
            // The same observer, delivered to last: the loop has nothing left to enumerate. The list
            // promises registration order (in any order, login could come first: the bug again).
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "order" },
                  { "op": "observe", "registry": "subject", "observer": "order", "hold": "weak", "handler": [] },
                  { "op": "create", "object": "login", "methods": {
                      "deinit": [ { "remove": { "registry": "subject", "observer": "self" } } ] } },
                  { "op": "observe", "registry": "subject", "observer": "login", "hold": "weak",
                    "handler": [ { "release": "login" } ] },
                  { "op": "post", "registry": "subject" }
                ]
                """, registries: #"{ "subject": { "kind": "subject", "order": "registration" } }"#
            ).report()
            report.expectNone(of: Self.rule)
        }
    }
}
