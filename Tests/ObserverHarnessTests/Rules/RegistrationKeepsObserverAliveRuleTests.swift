import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct RegistrationKeepsObserverAlive {
        static let rule = "registration-keeps-observer-alive"

        @Test func registrationKeepsObserverAliveFiresWhenStrongSubjectListOutlivesTheRelease() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "player" },
                  { "op": "create", "object": "hud" },
                  { "op": "observe", "registry": "subject", "observer": "hud", "handler": [],
                    "site": "HUD.swift:22" },
                  { "op": "release", "object": "hud", "site": "Game.swift:90" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .error)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["hud"], registry: "subject", channel: "", step: 3,
                        site: "HUD.swift:22"))
        }

        @Test func registrationKeepsObserverAliveFiresEvenWhenDeinitWouldRemoveTheRegistration() throws {
            // The registration keeps the observer alive, so the deinit that
            // removes it never runs.
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "hud",
                    "methods": { "deinit": [ { "remove": { "registry": "subject", "observer": "self" } } ] } },
                  { "op": "observe", "registry": "subject", "observer": "hud", "handler": [],
                    "site": "HUD.swift:22" },
                  { "op": "release", "object": "hud", "site": "Game.swift:90" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["hud"], registry: "subject", channel: "", step: 2,
                        site: "HUD.swift:22"))
        }

        @Test func registrationKeepsObserverAliveFiresForAStrongDelegateSlot() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "downloader" },
                  { "op": "create", "object": "screen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "downloader", "delegate": "screen",
                    "hold": "strong", "site": "Screen.swift:8" },
                  { "op": "release", "object": "screen" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["screen"], registry: "slot", channel: nil, step: 3,
                        site: "Screen.swift:8"))
        }

        /// The slot's owner going after the screen's release ends a hold that
        /// outlived the release (a downloader made in a test body): reported.
        @Test func registrationKeepsObserverAliveFiresForAStrongSlotWhoseOwnerGoesAfterTheRelease() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "downloader" },
                  { "op": "create", "object": "screen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "downloader", "delegate": "screen",
                    "hold": "strong", "site": "Screen.swift:8" },
                  { "op": "release", "object": "screen" },
                  { "op": "release", "object": "downloader" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.shape.objects == ["screen"])
        }

        /// An owner gone before the screen's release held nothing past it.
        @Test func registrationKeepsObserverAliveIgnoresAStrongSlotWhoseOwnerWentFirst() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "downloader" },
                  { "op": "create", "object": "screen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "downloader", "delegate": "screen",
                    "hold": "strong" },
                  { "op": "release", "object": "downloader" },
                  { "op": "release", "object": "screen" }
                ]
                """
            ).report()
            #expect(report.findings(of: Self.rule).isEmpty)
        }

        @Test func registrationKeepsObserverAliveIgnoresAWeakListWhoseObserverDeallocates() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "hud" },
                  { "op": "observe", "registry": "subject", "observer": "hud", "handler": [] },
                  { "op": "release", "object": "hud" }
                ]
                """, registries: #"{ "subject": { "kind": "subject", "hold": "weak" } }"#
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func registrationKeepsObserverAliveIgnoresWeakRegistrationRemovedInDeinitAndReportsNothing() throws {
            // The deinit's removal is recorded before the deallocation, so there
            // is no dangling note either.
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "hud",
                    "methods": { "deinit": [ { "remove": { "registry": "subject", "observer": "self" } } ] } },
                  { "op": "observe", "registry": "subject", "observer": "hud", "hold": "weak", "handler": [] },
                  { "op": "release", "object": "hud" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func registrationKeepsObserverAliveIgnoresStrongRegistrationRemovedBeforeRelease() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "hud" },
                  { "op": "observe", "registry": "subject", "observer": "hud", "handler": [] },
                  { "op": "remove", "registry": "subject", "observer": "hud" },
                  { "op": "release", "object": "hud" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func registrationKeepsObserverAliveIgnoresObserverTheAppStillHoldsElsewhere() throws {
            // The scenario dropped its own reference, but a live object retains
            // the observer: the registration is not what keeps it alive.
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "game" },
                  { "op": "create", "object": "hud" },
                  { "op": "retain", "holder": "game", "target": "hud" },
                  { "op": "observe", "registry": "subject", "observer": "hud", "handler": [] },
                  { "op": "release", "object": "hud" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }
    }
}
