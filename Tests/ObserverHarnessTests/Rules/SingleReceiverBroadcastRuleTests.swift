import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct SingleReceiverBroadcast {
        static let rule = "single-receiver-broadcast"

        @Test func singleReceiverBroadcastNotesTwoPostsThatBothReachOnlyOneObserver() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "settings" },
                  { "op": "observe", "registry": "center", "observer": "settings", "channel": "ThemeChanged",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged", "site": "ThemePicker.swift:30" },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged", "site": "ThemePicker.swift:44" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .note)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["settings"], registry: "center", channel: "ThemeChanged",
                        step: 2, site: "ThemePicker.swift:30"))
        }

        @Test func singleReceiverBroadcastIgnoresPostsThatReachTwoObservers() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "settings" },
                  { "op": "create", "object": "navigationBar" },
                  { "op": "observe", "registry": "center", "observer": "settings", "channel": "ThemeChanged",
                    "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "navigationBar", "channel": "ThemeChanged",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func singleReceiverBroadcastIgnoresASinglePost() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "settings" },
                  { "op": "observe", "registry": "center", "observer": "settings", "channel": "ThemeChanged",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func singleReceiverBroadcastIgnoresPostsReachingDifferentSingleReceivers() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "settings" },
                  { "op": "create", "object": "navigationBar" },
                  { "op": "observe", "registry": "center", "observer": "settings", "channel": "ThemeChanged",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" },
                  { "op": "remove", "registry": "center", "observer": "settings" },
                  { "op": "observe", "registry": "center", "observer": "navigationBar", "channel": "ThemeChanged",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func singleReceiverBroadcastIgnoresTheRepostsOfALoopTheHarnessCut() throws {
            // One post that handlers re-post in a loop is a notification-cycle,
            // not 33 independent one-receiver posts.
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "form" },
                  { "op": "create", "object": "preview" },
                  { "op": "observe", "registry": "center", "observer": "form", "channel": "TextChanged", "handler": [
                      { "post": { "registry": "center", "channel": "PreviewChanged" } } ] },
                  { "op": "observe", "registry": "center", "observer": "preview", "channel": "PreviewChanged",
                    "handler": [ { "post": { "registry": "center", "channel": "TextChanged" } } ] },
                  { "op": "post", "registry": "center", "channel": "TextChanged" }
                ]
                """
            ).report()
            #expect(report.firedRules == ["notification-cycle"], "\(report.findings.map(\.message))")
        }
    }
}
