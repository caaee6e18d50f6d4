import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct DanglingRegistration {
        static let rule = "dangling-registration"

        @Test func danglingRegistrationNotesWeakObserverFreedWhileRegistered() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "banner" },
                  { "op": "observe", "registry": "center", "observer": "banner", "channel": "Sale", "handler": [],
                    "site": "Banner.swift:12" },
                  { "op": "release", "object": "banner", "site": "Home.swift:40" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .note)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["banner"], registry: "center", channel: "Sale", step: 2,
                        site: "Banner.swift:12"))
            #expect(report.findings.count == 1)
        }

        @Test func danglingRegistrationNotesUnownedObserverFreedButNeverDeliveredTo() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "model" },
                  { "op": "create", "object": "view" },
                  { "op": "observe", "registry": "kvo", "observer": "view", "object": "model", "property": "title",
                    "handler": [], "site": "View.swift:10" },
                  { "op": "release", "object": "view" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["view"], registry: "kvo", channel: "title", step: 3,
                        site: "View.swift:10"))
            report.expectNone(of: "notify-after-dealloc")
        }

        @Test func danglingRegistrationIsNotReportedWhenAnUnownedObserverWasDeliveredTo() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "view" },
                  { "op": "observe", "registry": "subject", "observer": "view", "hold": "unowned", "handler": [] },
                  { "op": "release", "object": "view" },
                  { "op": "post", "registry": "subject" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
            #expect(report.findings(of: "notify-after-dealloc").count == 1)
        }

        @Test func danglingRegistrationIgnoresObserverThatRemovedItselfBeforeRelease() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "banner" },
                  { "op": "observe", "registry": "center", "observer": "banner", "channel": "Sale", "handler": [] },
                  { "op": "remove", "registry": "center", "observer": "banner", "channel": "Sale" },
                  { "op": "release", "object": "banner" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func danglingRegistrationIgnoresWeakObserverThatRemovesItselfInDeinit() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "banner",
                    "methods": { "deinit": [ { "remove": { "registry": "center", "observer": "self" } } ] } },
                  { "op": "observe", "registry": "center", "observer": "banner", "channel": "Sale", "handler": [] },
                  { "op": "release", "object": "banner" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func danglingRegistrationNeverFiresForAWeakDelegateThatDeallocates() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "scrollView" },
                  { "op": "create", "object": "controller" },
                  { "op": "set-delegate", "registry": "slot", "owner": "scrollView", "delegate": "controller" },
                  { "op": "release", "object": "controller" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }
    }
}
