import Foundation
import ObserverHarnessInterface

// The wiring the shop had before: two bugs from the classic "delegate or
// notification?" article. Kept so the tests can show the harness catching them.

/// Posts "Add to cart" to everyone instead of telling its owner.
@MainActor
public final class LegacyProductCell {
    public let product: Product
    /// Bug 2: a strong delegate. The screen owns its cells, so screen and cell
    /// keep each other alive after the screen is closed.
    public private(set) lazy var delegate = DelegateSlot<LegacyProductList>(of: self, hold: .strong)

    public init(product: Product) {
        self.product = product
    }

    public func tapAddToCart() {
        // Bug 1: a command sent as a broadcast. Every list on screen hears it.
        let info = ["product": product.id]
        Observers.center.post(name: .addToCart, object: nil, userInfo: info)  // bug: broadcast-as-command
    }
}

/// A product list that listens for every "Add to cart" in the app.
@MainActor
public final class LegacyProductList {
    public let title: String
    public let cells: [LegacyProductCell]
    private let cart: Cart
    private var addToCart: Observation?

    public init(title: String, products: [Product], cart: Cart) {
        self.title = title
        self.cart = cart
        cells = products.map { LegacyProductCell(product: $0) }
        for cell in cells {
            cell.delegate.set(self)  // bug: strong delegate, a retain cycle
        }
        let center = Observers.center
        addToCart = Observation(
            center: center,
            token: center.addObserver(
                forName: .addToCart, object: nil, queue: nil
            ) { [weak self] note in
                let id = note.userInfo?["product"] as? String
                MainActor.assumeIsolated {
                    guard let self, let cell = self.cells.first(where: { $0.product.id == id }) else { return }
                    self.cart.add(cell.product)
                }
            })
    }
}
