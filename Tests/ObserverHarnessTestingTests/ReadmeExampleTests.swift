// The README's example, verbatim, so it cannot drift.
import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Testing

// App code, written against ObserverHarnessInterface: `Observers.center` is
// `NotificationCenter.default` in the app.
extension Notification.Name { static let addToCart = Notification.Name("AddToCart") }

final class ProductList {
    let center = Observers.center
    var token: (any NSObjectProtocol)?
    init(onAdd: @escaping @Sendable () -> Void) {
        token = center.addObserver(forName: .addToCart, object: nil, queue: nil) { _ in onAdd() }
    }
    deinit { if let token { center.removeObserver(token) } }
}

// The test: inside the scope, the harness's registries stand in for the default ones.
@Test func oneTapAddsTheProductOnce() {
    let harness = Harness()
    let lists = withObserverHarness(harness) {
        let addToCart: @Sendable () -> Void = { harness.noteAction(.increment("cart.count")) }  // the handler's effect
        let lists = [ProductList(onAdd: addToCart), ProductList(onAdd: addToCart)]
        Observers.center.post(name: .addToCart, object: nil)
        return lists
    }
    // The bug, expected: one post made 2 receivers each increment "cart.count".
    assertFindings(harness, .exactly(["broadcast-as-command"]))
    _ = lists
}
