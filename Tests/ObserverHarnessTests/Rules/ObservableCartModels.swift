// Kept apart from the harness's own module: its scenario type `Observation`
// would shadow the framework's module name in the @Observable expansion.
import Observation
import ObserverHarnessInterface

@Observable final class ObservableCart: @unchecked Sendable {
    var count = 0
}

/// Shows the cart's count; `rearms` says whether it observes again from onChange.
final class ObservingCartBadge: @unchecked Sendable {
    let cart: ObservableCart
    let rearms: Bool
    private(set) var shown = -1
    private(set) var firings = 0
    static let observeLine = #line + 5

    init(cart: ObservableCart, rearms: Bool) { (self.cart, self.rearms) = (cart, rearms) }

    func observe() {
        shown = Observers.withObservationTracking(
            { self.cart.count },
            onChange: { [self] in
                firings += 1
                if rearms { observe() }
            }, owner: self)
    }
}
