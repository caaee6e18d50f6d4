import Foundation
import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct UnbalancedRemoval {
        static let rule = "unbalanced-removal"

        @Test func unbalancedRemovalFiresWhenABlockRegistrationIsRemovedByObserver() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken", "handler": [ { "increment": "logouts" } ], "site": "Screen.swift:18" },
                  { "op": "remove", "registry": "center", "observer": "screen", "site": "Screen.swift:60" },
                  { "op": "post", "registry": "center", "channel": "Logout" }
                ]
                """)
            let finding = try #require(try scenario.report().onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["screen"], registry: "center", channel: nil, step: 2,
                        site: "Screen.swift:60"))
            #expect(finding.message.contains("block form"))
            // The block registration is still there.
            #expect(try scenario.finalState()["logouts"] == "1")
        }

        @Test func unbalancedRemovalIgnoresABlockRegistrationRemovedByItsToken() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken", "handler": [ { "increment": "logouts" } ] },
                  { "op": "remove", "registry": "center", "token": "logoutToken" },
                  { "op": "post", "registry": "center", "channel": "Logout" }
                ]
                """)
            try scenario.report().expectNone(of: Self.rule)
            #expect(try scenario.finalState()["logouts"] == nil)
        }

        @Test func unbalancedRemovalFiresOnASecondRemovalOfTheSameRegistration() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout", "handler": [] },
                  { "op": "remove", "registry": "center", "observer": "screen", "channel": "Logout",
                    "site": "Screen.swift:60" },
                  { "op": "remove", "registry": "center", "observer": "screen", "channel": "Logout",
                    "site": "Screen.swift:75" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["screen"], registry: "center", channel: "Logout", step: 3,
                        site: "Screen.swift:75"))
            #expect(finding.message.contains("already removed at Screen.swift:60"))
        }

        @Test func unbalancedRemovalFiresOnASecondRemovalOfTheSameToken() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken", "handler": [] },
                  { "op": "remove", "registry": "center", "token": "logoutToken", "site": "Screen.swift:60" },
                  { "op": "remove", "registry": "center", "token": "logoutToken", "site": "Screen.swift:75" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["screen"], registry: "center", channel: nil, step: 3,
                        site: "Screen.swift:75"))
            #expect(finding.message.contains("already removed at Screen.swift:60"), "\(finding.message)")
        }

        /// An extra "remove everything" repeats the removal that emptied the
        /// observer, not the earlier one that ended a single name.
        @Test func unbalancedRemovalNamesTheRemovalItRepeats() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "log" },
                  { "op": "observe", "registry": "center", "observer": "log", "channel": null, "handler": [],
                    "site": "Log.swift:3" },
                  { "op": "observe", "registry": "center", "observer": "log", "channel": "Named", "handler": [],
                    "site": "Log.swift:4" },
                  { "op": "remove", "registry": "center", "observer": "log", "channel": "Named", "site": "Log.swift:11" },
                  { "op": "remove", "registry": "center", "observer": "log", "site": "Log.swift:13" },
                  { "op": "remove", "registry": "center", "observer": "log", "site": "Log.swift:14" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.site?.description == "Log.swift:14")
            #expect(finding.message.contains("already removed at Log.swift:13"), "\(finding.message)")
        }

        @Test func unbalancedRemovalFiresWhenTheObserverNeverRegisteredInThatRegistry() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "subject", "observer": "screen", "handler": [] },
                  { "op": "remove", "registry": "center", "observer": "screen", "site": "Screen.swift:60" },
                  { "op": "remove", "registry": "subject", "observer": "screen" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["screen"], registry: "center", channel: nil, step: 2,
                        site: "Screen.swift:60"))
        }

        @Test func unbalancedRemovalIgnoresOneRemovalOfEachSelectorRegistration() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout", "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Login", "handler": [] },
                  { "op": "remove", "registry": "center", "observer": "screen", "channel": "Logout" },
                  { "op": "remove", "registry": "center", "observer": "screen" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        // MARK: Live: an object that keeps its block's token removes itself

        final class LogoutScreen {
            var token: (any NSObjectProtocol)?
            init(center: InstrumentedNotificationCenter) {
                token = center.addObserver(forName: .init("Logout"), object: nil, queue: nil) { _ in }
            }
        }

        @Test func liveAScreenRemovingItselfWhileItKeepsItsBlockTokenFires() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let screen = LogoutScreen(center: center)
            let removalLine = #line + 1
            center.removeObserver(screen)
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.site?.line == removalLine)
            #expect(finding.message.contains("block form"), "\(finding.message)")
        }

        @Test func liveAScreenRemovingItsTokenIsClean() {
            let harness = Harness()
            let center = harness.notificationCenter()
            let screen = LogoutScreen(center: center)
            if let token = screen.token { center.removeObserver(token) }
            harness.analyze().expectNone(of: Self.rule)
        }

        /// The token given, with an object its registration was not made for:
        /// the message says so, not that only the token would end it.
        @Test func liveATokenRemovedWithAnotherObjectSaysTheFilterDidNotMatch() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let screen = LogoutScreen(center: center)
            let other = LiveScreen("other")
            let token = try #require(screen.token)
            center.removeObserver(token, name: nil, object: other)
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.message.contains("made for another name or object"), "\(finding.message)")
            center.removeObserver(token)
        }

        /// A subject list's token removed twice: Foundation's key reuse is a
        /// center's hazard, not a list's.
        @Test func aListsTokenRemovedTwiceNamesNoFoundationHazard() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "subject", "observer": "screen", "token": "t", "handler": [] },
                  { "op": "remove", "registry": "subject", "token": "t" },
                  { "op": "remove", "registry": "subject", "token": "t" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.message.contains("already removed"), "\(finding.message)")
            #expect(!finding.message.contains("Foundation"), "\(finding.message)")
        }
    }
}
