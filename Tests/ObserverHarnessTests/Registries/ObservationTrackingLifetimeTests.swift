import Testing

@testable import ObserverHarness

/// The harness's shadow tracking keeps the app's `apply` (which captures the
/// model) and the model's registrar keeps the shadow's onChange: neither may
/// keep the model alive once the test has let go of the harness.
@Suite struct ObservationTrackingLifetimeTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    typealias Cart = ObservableCart
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    typealias Badge = ObservingCartBadge

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aModelStillObservedWhenTheTestEndsIsFreed() {
        weak var weakCart: Cart?
        weak var weakBadge: Badge?
        do {
            let harness = Harness()
            let cart = Cart()
            let badge = Badge(cart: cart, rearms: true)
            withObserverHarness(harness) { badge.observe() }
            cart.count = 1
            #expect(badge.firings == 1)
            (weakCart, weakBadge) = (cart, badge)
        }
        #expect(weakBadge == nil)
        #expect(weakCart == nil)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aModelTheHarnessWatchesAfterAMissedRearmIsFreed() {
        weak var weakCart: Cart?
        do {
            let harness = Harness()
            let cart = Cart()
            withObserverHarness(harness) {
                _ = Observers.withObservationTracking({ cart.count }, onChange: {})
            }
            cart.count = 1  // fires; the harness runs `apply` again to keep watching
            weakCart = cart
        }
        #expect(weakCart == nil)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func afterAMissedChangeTheHarnessNoLongerHoldsWhatApplyCaptured() {
        let harness = Harness()
        weak var weakCart: Cart?
        do {
            let cart = Cart()
            withObserverHarness(harness) {
                _ = Observers.withObservationTracking({ cart.count }, onChange: {})
            }
            cart.count = 1
            cart.count = 2  // missed: the watch rests until the app arms again
            weakCart = cart
        }
        #expect(weakCart == nil)
        #expect(harness.analyze().findings(of: "observation-not-rearmed").count == 1)
    }
}
