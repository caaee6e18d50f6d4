import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Testing

/// Each example of the "Modern observer APIs in app code" article with the
/// test the article shows: the rule fires at the app's line.
@Suite(.cancellingTrackedTasks, .observerHarness) @MainActor struct ShopScreenTests {
    // article: typed-main-actor-test
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test(.observerHarness(expecting: ["discarded-token"]))
    func theBadgeFollowsItsCart() {
        let cart = ShopCart()
        let badge = CartBadge(cart: cart)
        Observers.center.post(ShopCartDidChange(count: 3), subject: cart)
        #expect(badge.count == 0)  // the observation ended with its dropped token
    }
    // end

    // article: typed-async-test
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test(.observerHarness(expecting: ["message-dropped"]))
    func theHistoryKeepsEverySync() async {
        let cart = ShopCart()
        let history = SyncHistory(cart: cart)
        await Harness.current!.settle()  // its loop listens
        for revision in 1...3 { Observers.center.post(ShopCartSynced(revision: revision), subject: cart) }
        await Harness.current!.settle()
        #expect(history.revisions.count < 3)  // one dropped: the buffer holds one
    }
    // end

    // article: observation-tracking-test
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test(.observerHarness(expecting: ["observation-not-rearmed"]))
    func theHeaderFollowsTheCart() {
        let cart = CartModel()
        let header = CartHeader(cart: cart)
        cart.count = 1
        cart.count = 2
        #expect(header.title == "0 items")
    }
    // end

    // article: isolation-test
    @Test(.observerHarness(expecting: ["delivery-off-isolation"]))
    func aFinishedSyncShowsTheBanner() async {
        let banner = SyncBanner()
        await CartSyncer().finish()
        banner.close()
    }
    // end

    #if compiler(>=6.2)
        // article: observations-test
        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test(.observerHarness(expecting: ["async-observer-outlives-owner"]))
        func closingTheScreenEndsItsLoop() {
            let harness = Harness.current!
            var screen: CartTotalScreen? = CartTotalScreen(cart: CartModel())
            harness.track(screen!, label: "total screen")
            harness.noteReleased(screen!)
            screen = nil
        }
    // end
    #endif
}
