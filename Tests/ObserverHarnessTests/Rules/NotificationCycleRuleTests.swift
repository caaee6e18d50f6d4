import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct NotificationCycle {
        static let rule = "notification-cycle"

        @Test func notificationCycleFiresWhenTwoHandlersRepostEachOthersChannel() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "form" },
                  { "op": "create", "object": "preview" },
                  { "op": "observe", "registry": "center", "observer": "form", "channel": "TextChanged", "handler": [
                      { "post": { "registry": "center", "channel": "PreviewChanged", "site": "Form.swift:20" } } ] },
                  { "op": "observe", "registry": "center", "observer": "preview", "channel": "PreviewChanged",
                    "handler": [
                      { "post": { "registry": "center", "channel": "TextChanged", "site": "Preview.swift:31" } } ] },
                  { "op": "post", "registry": "center", "channel": "TextChanged", "site": "Editor.swift:5" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .error)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["form", "preview"], registry: "center",
                        channel: "TextChanged", step: 4, site: "Preview.swift:31"))
        }

        @Test func notificationCycleFiresWhenAHandlerRepostsItsOwnChannel() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "counter" },
                  { "op": "observe", "registry": "subject", "observer": "counter", "handler": [
                      { "increment": "count" }, { "post": { "registry": "subject", "site": "Counter.swift:9" } } ] },
                  { "op": "post", "registry": "subject", "site": "App.swift:1" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["counter"], registry: "subject", channel: "", step: 2,
                        site: "Counter.swift:9"))
        }

        @Test func notificationCycleIgnoresAHandlerThatPostsADifferentChannelOnce() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "form" },
                  { "op": "create", "object": "preview" },
                  { "op": "observe", "registry": "center", "observer": "form", "channel": "TextChanged", "handler": [
                      { "post": { "registry": "center", "channel": "PreviewChanged" } } ] },
                  { "op": "observe", "registry": "center", "observer": "preview", "channel": "PreviewChanged",
                    "handler": [ { "increment": "renders" } ] },
                  { "op": "post", "registry": "center", "channel": "TextChanged" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }
    }
}
