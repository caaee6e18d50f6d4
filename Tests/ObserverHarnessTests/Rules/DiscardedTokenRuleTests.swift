import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct DiscardedToken {
        static let rule = "discarded-token"

        @Test func discardedTokenFiresWhenTheTokenIsDroppedWhileActive() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken", "handler": [], "site": "Screen.swift:18" },
                  { "op": "drop-token", "token": "logoutToken", "site": "Screen.swift:19" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["screen"], registry: "center", channel: "Logout", step: 2,
                        site: "Screen.swift:18"))
        }

        @Test func discardedTokenIgnoresATokenDroppedAfterItsRemoval() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken", "handler": [] },
                  { "op": "remove", "registry": "center", "token": "logoutToken" },
                  { "op": "drop-token", "token": "logoutToken" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        // A token is declared once, so a name is rebound only by a handler
        // that runs twice (registering in viewWillAppear).
        @Test func discardedTokenFiresForTheFirstRegistrationWhenItsTokenNameIsRebound() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen", "methods": { "appear": [
                      { "observe": { "registry": "center", "observer": "self", "channel": "Logout", "token": "token",
                                     "handler": [], "site": "Screen.swift:18" } } ] } },
                  { "op": "invoke", "object": "screen", "method": "appear" },
                  { "op": "invoke", "object": "screen", "method": "appear" },
                  { "op": "remove", "registry": "center", "token": "token" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["screen"], registry: "center", channel: "Logout", step: 2,
                        site: "Screen.swift:18"))
        }

        @Test func discardedTokenIgnoresRebindingATokenNameAfterItsRegistrationWasRemoved() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen", "methods": { "appear": [
                      { "observe": { "registry": "center", "observer": "self", "channel": "Logout", "token": "token",
                                     "handler": [], "site": "Screen.swift:18" } } ] } },
                  { "op": "invoke", "object": "screen", "method": "appear" },
                  { "op": "remove", "registry": "center", "token": "token" },
                  { "op": "invoke", "object": "screen", "method": "appear" },
                  { "op": "remove", "registry": "center", "token": "token" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        /// A property observation's token (KVO's NSKeyValueObservation)
        /// ends it: dropped at once, its handler never runs.
        @Test func discardedTokenFiresForAPropertyObservationDroppedAtOnceWhichNeverRuns() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "model" },
                  { "op": "create", "object": "view" },
                  { "op": "observe", "registry": "kvo", "observer": "view", "object": "model", "property": "p",
                    "token": "t", "handler": [ { "increment": "runs" } ], "site": "View.swift:10" },
                  { "op": "drop-token", "token": "t" },
                  { "op": "set", "registry": "kvo", "object": "model", "property": "p", "value": 1 }
                ]
                """)
            let finding = try #require(try scenario.report().onlyFinding(of: Self.rule))
            #expect(finding.site?.description == "View.swift:10")
            #expect(finding.message.contains("was dropped at once"))
            #expect(try scenario.finalState()["runs"] == nil)
        }

        /// The near miss: kept until after a change, then let go, as an owner's teardown does.
        @Test func discardedTokenIgnoresAPropertyObservationKeptUntilAfterAChange() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "model" },
                  { "op": "create", "object": "view" },
                  { "op": "observe", "registry": "kvo", "observer": "view", "object": "model", "property": "p",
                    "token": "t", "handler": [ { "increment": "runs" } ] },
                  { "op": "set", "registry": "kvo", "object": "model", "property": "p", "value": 1 },
                  { "op": "drop-token", "token": "t" },
                  { "op": "set", "registry": "kvo", "object": "model", "property": "p", "value": 2 }
                ]
                """)
            let report = try scenario.report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
            #expect(try scenario.finalState()["runs"] == "1")
        }

        @Test func discardedTokenIgnoresATokenOfASubjectRegistrationWhichItsObserverCanStillRemove() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "subject", "observer": "screen", "token": "token", "handler": [] },
                  { "op": "drop-token", "token": "token" },
                  { "op": "remove", "registry": "subject", "observer": "screen" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func discardedTokenIgnoresDroppingOneOfTwoTokensADedupingRegistryGaveForOneRegistration() throws {
            // The second observe is ignored; its token names the existing
            // registration, which the other token still reaches and removes.
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "first", "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "second", "handler": [] },
                  { "op": "drop-token", "token": "first" },
                  { "op": "remove", "registry": "center", "token": "second" }
                ]
                """, registries: #"{ "center": { "kind": "notification-center", "dedupe": true } }"#
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func discardedTokenIgnoresRebindingATokenNameToTheSameDedupedRegistration() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen", "methods": { "appear": [
                      { "observe": { "registry": "center", "observer": "self", "channel": "Logout", "token": "token",
                                     "handler": [], "site": "Screen.swift:18" } } ] } },
                  { "op": "invoke", "object": "screen", "method": "appear" },
                  { "op": "invoke", "object": "screen", "method": "appear" },
                  { "op": "remove", "registry": "center", "token": "token" }
                ]
                """, registries: #"{ "center": { "kind": "notification-center", "dedupe": true } }"#
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }
    }
}
