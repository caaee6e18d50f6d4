// Test helpers adopters wrote against the previous release's ObserverHarness
// and ObserverHarnessTesting products.
import Foundation
import ObserverHarness
import ObserverHarnessInterface
import ObserverHarnessTesting

public enum CartChecks {
    /// A screen shown and closed under a harness, checked for findings and leaks.
    public static func badgeIsClean() {
        let harness = Harness(name: "badge")
        let report = withObserverHarness(harness) { () -> Report in
            let cart = Cart()
            let badge = CartBadge()
            harness.track(badge, label: "badge")
            badge.appear(cart: cart)
            cart.add()
            badge.disappear()
            harness.noteReleased(badge)
            return harness.analyze()
        }
        _ = report.findings.filter { $0.severity >= .warning }.map { "\($0.rule): \($0.message)" }
        _ = report.jsonText()
        assertFindings(harness, .none(allowing: ["unobserved-post"], atOrAbove: .warning))
        assertFindings(in: report, .exactly([], atOrAbove: .error))
        assertNoLeaks(harness)
    }

    /// The analytics center handed to app code, as injection.
    public static func analyticsForwards() {
        let harness = Harness()
        let center = AnalyticsCenter(base: harness.notificationCenter("analytics"))
        let cart = Cart(center: center)
        let badge = CartBadge(center: center)
        badge.appear(cart: cart)
        cart.add()
        badge.disappear()
        _ = harness.eventCount
    }

    /// Lists, delegate slots and the order check.
    public static func listsAndOrders() {
        let harness = Harness()
        let list: ObserverList<CartListener> = harness.observerList("listeners", of: CartListener.self)
        list.notify { $0.cartChanged(count: 1) }
        assertOrderIndependent { order in
            let center = harness.notificationCenter("orders", order: order)
            center.post(name: .cartDidChange, object: nil)
            return 0
        }
        withGoldenRecording(.never) {
            assertGolden(text: "{}", named: "upgrade-fixture", directory: URL(fileURLWithPath: "/nonexistent"))
        }
        _ = GoldenRecordMode.missing
    }
}
