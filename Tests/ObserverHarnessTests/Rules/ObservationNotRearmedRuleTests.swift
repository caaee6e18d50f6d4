import Foundation
import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct ObservationNotRearmed {
        static let rule = "observation-not-rearmed"

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        typealias Cart = ObservableCart
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        typealias Badge = ObservingCartBadge

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func firesWhenOnChangeDoesNotObserveAgainAndTheValueChangesTwice() throws {
            let harness = Harness()
            let cart = Cart()
            let badge = Badge(cart: cart, rearms: false)
            withObserverHarness(harness) { badge.observe() }
            cart.count = 1
            cart.count = 2
            #expect(badge.firings == 1)
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(finding.site?.line == Badge.observeLine)
            #expect(finding.objects.count == 1)
            #expect(finding.message.contains("fired its onChange once"), "\(finding.message)")
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func isQuietForAnObserverThatObservesAgainFromOnChange() {
            let harness = Harness()
            let cart = Cart()
            let badge = Badge(cart: cart, rearms: true)
            withObserverHarness(harness) { badge.observe() }
            cart.count = 1
            cart.count = 2
            cart.count = 3
            #expect(badge.firings == 3)
            harness.analyze().expectNone(of: Self.rule)
        }

        /// Re-armed from a `Task`: a change made before the task runs is missed,
        /// and reported (what the rule page and the modern-APIs article say).
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func firesWhenOnChangeObservesAgainFromATaskThatRunsAfterTheNextChange() async throws {
            let harness = Harness()
            let cart = Cart()
            let badge = TaskRearmingCartBadge(cart: cart)
            withObserverHarness(harness) { badge.observe() }
            cart.count = 1
            cart.count = 2  // before the task re-arms
            await badge.rearm?.value
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.site?.line == TaskRearmingCartBadge.observeLine)
        }

        /// Its near miss: the task re-armed before the value changed again.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func isQuietWhenTheTaskObservesAgainBeforeTheNextChange() async {
            let harness = Harness()
            let cart = Cart()
            let badge = TaskRearmingCartBadge(cart: cart)
            withObserverHarness(harness) { badge.observe() }
            cart.count = 1
            await badge.rearm?.value
            cart.count = 2
            await badge.rearm?.value
            #expect(badge.shown == 2)
            harness.analyze().expectNone(of: Self.rule)
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func onChangeReadsTheOldValueAsTheFrameworkDoes() {
            let harness = Harness()
            let cart = Cart()
            let badge = Badge(cart: cart, rearms: true)
            withObserverHarness(harness) { badge.observe() }
            cart.count = 5
            // Re-armed inside onChange, before the set: it read the old value.
            #expect(badge.shown == 0)
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test @MainActor func onChangeRunOnAnotherThreadIsDeliveryOffIsolation() async throws {
            let harness = Harness()
            let cart = Cart()
            // onChange does main-actor work where it runs (it tells the screen to
            // refresh): judged by what it records, as a block observer's handler is.
            withObserverHarness(harness) {
                _ = Observers.withObservationTracking(
                    { cart.count },
                    onChange: { Observers.center.post(name: Notification.Name("CartBadgeRefresh"), object: nil) })
            }
            await Task.detached { cart.count = 1 }.value
            let finding = try #require(harness.analyze().onlyFinding(of: "delivery-off-isolation"))
            #expect(finding.message.contains("onChange"), "\(finding.message)")
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func withoutAHarnessItIsTheFrameworksOwn() {
            let cart = Cart()
            let badge = Badge(cart: cart, rearms: false)
            badge.observe()
            cart.count = 1
            cart.count = 2
            #expect(badge.firings == 1)
        }

        // MARK: Scenarios

        static let registries = #"{ "model": { "kind": "observable" } }"#

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func firesForAScenarioObserverThatDoesNotObserveAgain() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                    "handler": [ { "read": "cart.count" } ], "site": "CartBadge.swift:20" },
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 1 },
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 2 }
                ]
                """, registries: Self.registries
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.step == 2)
            #expect(finding.site?.description == "CartBadge.swift:20")
            #expect(finding.objects == ["badge"])
        }

        /// A label that observes again only from a main-actor hop misses the
        /// second change of every update: one finding, counted at each miss.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func everyMissedChangeIsCounted() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a", "methods": { "update": [
                    { "set": { "registry": "model", "object": "a", "property": "name", "value": "0" } },
                    { "set": { "registry": "model", "object": "a", "property": "name", "value": "1" } } ] } },
                  { "op": "create", "object": "label", "methods": { "observeName": [
                    { "observe": { "registry": "model", "observer": "self", "object": "a", "property": "name",
                      "site": "Label.swift:3", "handler": [ { "hop": "main-actor", "handler": [
                        { "read": "a.name" }, { "invoke": { "object": "self", "method": "observeName" } } ] } ] } } ] } },
                  { "op": "invoke", "object": "label", "method": "observeName" },
                  { "op": "invoke", "object": "a", "method": "update" },
                  { "op": "invoke", "object": "a", "method": "update" },
                  { "op": "invoke", "object": "a", "method": "update" }
                ]
                """, registries: Self.registries
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.count == 3)
            #expect(finding.site?.description == "Label.swift:3")
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func aHandlerThatSetsWhatItTracksAndObservesAgainIsACycle() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge", "methods": { "refresh": [
                    { "observe": { "registry": "model", "observer": "self", "object": "cart", "property": "count",
                                   "method": "refresh" } },
                    { "set": { "registry": "model", "object": "cart", "property": "count", "value": 0 } } ] } },
                  { "op": "observe", "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                    "method": "refresh" },
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 1 }
                ]
                """, registries: Self.registries
            ).report()
            #expect(report.findings(of: "notification-cycle").count == 1)
        }
    }
}
