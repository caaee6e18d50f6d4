import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct DelegateOverwritten {
        static let rule = "delegate-overwritten"

        @Test func delegateOverwrittenFiresWhenALiveDelegateIsReplaced() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "locationManager" },
                  { "op": "create", "object": "mapScreen" },
                  { "op": "create", "object": "weatherScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen",
                    "site": "MapScreen.swift:14" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "weatherScreen",
                    "site": "WeatherScreen.swift:21" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["locationManager", "mapScreen", "weatherScreen"],
                        registry: "slot", channel: nil, step: 4,
                        site: "WeatherScreen.swift:21"))
        }

        @Test func delegateOverwrittenIgnoresReplacingADelegateThatWasSetToNil() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "locationManager" },
                  { "op": "create", "object": "mapScreen" },
                  { "op": "create", "object": "weatherScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": null },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "weatherScreen" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func delegateOverwrittenIgnoresReplacingADelegateThatDeallocated() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "locationManager" },
                  { "op": "create", "object": "mapScreen" },
                  { "op": "create", "object": "weatherScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen" },
                  { "op": "release", "object": "mapScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "weatherScreen" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func delegateOverwrittenIgnoresSettingTheSameDelegateAgain() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "locationManager" },
                  { "op": "create", "object": "mapScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        protocol Handoff: AnyObject { func ping() }
        final class Screen: Handoff {
            var onPing: () -> Void = {}
            func ping() { onPing() }
        }

        /// A strong slot that alone keeps its delegate: replaced, the old one
        /// goes with the replacement and expects nothing more. Held elsewhere
        /// too, it is cut off alive, and fires.
        @Test(arguments: [false, true])
        func liveAStrongSlotsOnlyReferenceReplacedIsClean(heldElsewhere: Bool) {
            final class Owner {}
            let harness = Harness()
            let owner = Owner()
            let slot = harness.delegateSlot(of: owner, as: Screen.self, hold: .strong)
            var elsewhere: Screen?
            do {
                let first = Screen()
                if heldElsewhere { elsewhere = first }
                slot.set(first)
            }
            slot.set(Screen())
            #expect(harness.analyze().findings(of: Self.rule).count == (heldElsewhere ? 1 : 0))
            withExtendedLifetime(elsewhere) {}
        }

        /// A weak slot's delegate cut off alive, then released by the test with
        /// nothing after: the finding does not depend on whether the test
        /// analyses before or after the release (its death, found at the
        /// check, is not the replacement's doing: a weak slot never held it).
        @Test(arguments: [false, true])
        func liveAnOverwriteIsReportedWhetherTheOldDelegateIsReleasedBeforeTheCheckOrNot(releasedFirst: Bool) {
            final class Owner {}
            let harness = Harness()
            let owner = Owner()
            let slot = harness.delegateSlot(of: owner, as: Screen.self, hold: .weak)
            var map: Screen? = Screen()
            let weather = Screen()
            slot.set(map)
            slot.set(weather)
            if releasedFirst { map = nil }
            #expect(harness.analyze().findings(of: Self.rule).count == 1)
            map = nil
            #expect(harness.analyze().findings(of: Self.rule).count == 1, "and again after the release")
            withExtendedLifetime((map, weather)) {}
        }

        /// A strong slot's delegate the app also held, released by the app
        /// after the set: the set did not free it, so it was cut off alive.
        @Test func aStrongSlotsDelegateTheAppReleasedAfterTheSetWasCutOffAlive() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "manager" },
                  { "op": "create", "object": "map" },
                  { "op": "create", "object": "weather" },
                  { "op": "set-delegate", "registry": "slot", "owner": "manager", "delegate": "map", "hold": "strong" },
                  { "op": "set-delegate", "registry": "slot", "owner": "manager", "delegate": "weather",
                    "hold": "strong" },
                  { "op": "release", "object": "map" }
                ]
                """
            ).report()
            #expect(report.findings.map(\.rule) == [Self.rule], "\(report.findings.map(\.message))")
        }

        /// A delegate that hands the slot on from its own callback chose to stop hearing it.
        @Test func liveADelegateHandingTheSlotOnInItsOwnCallbackIsClean() {
            final class Owner {}
            let harness = Harness()
            let owner = Owner()
            let slot = harness.delegateSlot(of: owner, as: Screen.self)
            let first = Screen(), second = Screen()
            first.onPing = { [unowned first] in
                _ = first; slot.set(second)
            }
            slot.set(first)
            slot.call { $0.ping() }
            harness.analyze().expectNone(of: Self.rule)
            withExtendedLifetime((first, second)) {}
        }
    }
}
