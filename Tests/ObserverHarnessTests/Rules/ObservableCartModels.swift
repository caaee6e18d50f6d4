// Kept apart from the harness's own module: its scenario type `Observation`
// would shadow the framework's module name in the @Observable expansion.
import Observation
import ObserverHarnessInterface

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class ObservableCart: @unchecked Sendable {
    var count = 0
}

/// Shows the cart's count; `rearms` says whether it observes again from onChange.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
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

/// Shows the cart's count, and observes again from a `Task` its onChange
/// starts (the re-arm the rule page warns about): kept in `rearm` so a test
/// can wait for it.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class TaskRearmingCartBadge: @unchecked Sendable {
    let cart: ObservableCart
    private(set) var shown = -1
    private(set) var rearm: Task<Void, Never>?
    static let observeLine = #line + 5

    init(cart: ObservableCart) { self.cart = cart }

    func observe() {
        shown = Observers.withObservationTracking(
            { self.cart.count },
            onChange: { [self] in rearm = Task { observe() } }, owner: self)
    }
}
