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

// The tests: one line runs each of them under a harness of its own, whose
// registries stand in for the default ones; its findings fail the test at the app's line.
@Suite(.observerHarness)
struct CartTests {
    // The bug, expected: one post makes 2 receivers each increment "cart.count".
    // Without `expecting:`, the test fails at the post line with the fix, the report attached.
    @Test(.observerHarness(expecting: ["broadcast-as-command"]))
    func oneTapAddsTheProductOnce() {
        // The handler's effect, noted on the test's harness.
        let harness = Harness.current
        let addToCart: @Sendable () -> Void = { harness?.noteAction(.increment("cart.count")) }
        let lists = [ProductList(onAdd: addToCart), ProductList(onAdd: addToCart)]
        Observers.center.post(name: .addToCart, object: nil)
        _ = lists
    }
}
