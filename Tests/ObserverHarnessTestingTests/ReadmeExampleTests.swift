// The README's example, verbatim, so it cannot drift.
import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Testing

extension Notification.Name { static let addToCart = Notification.Name("AddToCart") }

final class ProductList {
    var token: (any NSObjectProtocol)?
    init(center: any NotificationCenterProtocol, harness: Harness) {
        token = center.addObserver(forName: .addToCart, object: nil, queue: nil) { _ in
            harness.noteAction(.increment("cart.count"))   // what the handler does to shared state
        }
    }
}

@Test func oneTapAddsTheProductOnce() {
    let harness = Harness()
    let center = harness.notificationCenter()
    let lists = [ProductList(center: center, harness: harness), ProductList(center: center, harness: harness)]
    center.post(name: .addToCart, object: nil)
    // The bug, expected: one post made 2 receivers each increment "cart.count"."
    assertFindings(harness, .exactly(["broadcast-as-command"]))
    _ = lists
}
