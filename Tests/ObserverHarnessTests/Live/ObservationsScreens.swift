// Kept apart from the harness's own module, as ObservableCartModels.swift is.
#if compiler(>=6.2)
    import Foundation
    import ObserverHarnessInterface

    /// A screen that shows the cart's count by iterating a tracked
    /// `Observations`: holding itself strongly in the loop, or weakly with the
    /// task cancelled in deinit.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    final class ObservationsCartScreen: @unchecked Sendable {
        private(set) var task: Task<Void, Never>?
        private let lock = NSLock()
        private var storedShown = -1
        var shown: Int { lock.withLock { storedShown } }
        let cart: ObservableCart

        init(cart: ObservableCart, strongSelf: Bool) {
            self.cart = cart
            if strongSelf {
                task = Task {
                    for await count in Observers.observations(owner: self, { self.cart.count }) { self.show(count) }
                }
            } else {
                task = Task { [weak self, cart] in
                    for await count in Observers.observations(owner: self, { cart.count }) { self?.show(count) }
                }
            }
        }

        private func show(_ count: Int) { lock.withLock { storedShown = count } }

        deinit { task?.cancel() }
    }
#endif
