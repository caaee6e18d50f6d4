import Foundation
import ObserverHarness
import ObserverHarnessTesting
import XCTest

/// The async-observer rules from an XCTest suite, through the interface
/// (`Observers.center` inside `withObserverHarness`) as app code uses it.
final class AsyncObserverXCTests: XCTestCase {
    final class Cart: Sendable {}

    struct CartDidChange: NotificationCenter.MainActorMessage {
        typealias Subject = Cart
        let count: Int
    }

    /// An app object that observes its cart with a typed message.
    @MainActor final class Badge {
        private(set) var count = 0
        private var token: NotificationCenter.ObservationToken?

        init(cart: Cart, keepsToken: Bool) {
            let token = Observers.center.addObserver(of: cart, for: CartDidChange.self) { [weak self] message in
                self?.count = message.count
            }
            if keepsToken { self.token = token }
        }
    }

    @MainActor func testATypedTokenNotKeptIsADiscardedTokenWhoseObserverNeverFires() async {
        let harness = Harness()
        let cart = Cart()
        let badge = withObserverHarness(harness) {
            let badge = Badge(cart: cart, keepsToken: false)
            Observers.center.post(CartDidChange(count: 3), subject: cart)
            return badge
        }
        XCTAssertEqual(badge.count, 0)
        let report = assertFindings(harness, .exactly(["discarded-token"]))
        XCTAssertEqual(report.findings.first { $0.rule == "discarded-token" }?.message.contains("never fires"), true)
    }

    @MainActor func testATypedTokenKeptByItsOwnerIsClean() async {
        let harness = Harness()
        let cart = Cart()
        let badge = withObserverHarness(harness) {
            let badge = Badge(cart: cart, keepsToken: true)
            Observers.center.post(CartDidChange(count: 3), subject: cart)
            return badge
        }
        XCTAssertEqual(badge.count, 3)
        assertFindings(harness, .none())
    }
}
