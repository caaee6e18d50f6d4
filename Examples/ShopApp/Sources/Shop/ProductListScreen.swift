import Foundation
import ObserverHarnessInterface

/// A list of products (best sellers, recommendations…). It is the delegate of
/// its own cells, and redraws when any product changes.
@MainActor
public final class ProductListScreen: ProductCellDelegate {
    public let title: String
    public let cells: [ProductCell]
    public private(set) var reloads = 0
    private let cart: Cart
    private var productUpdates: Observation?

    /// `center` is the default center unless a caller injects another.
    public init(
        title: String, products: [Product], cart: Cart,
        center: any NotificationCenterProtocol = Observers.center
    ) {
        self.title = title
        self.cart = cart
        cells = products.map { ProductCell(product: $0) }
        for cell in cells { cell.delegate.set(self) }
        // Weak capture, and the token is removed when the screen goes away.
        productUpdates = Observation(
            center: center,
            token: center.addObserver(
                forName: .productDidUpdate, object: nil, queue: nil
            ) { [weak self] _ in
                MainActor.assumeIsolated { self?.reloads += 1 }
            })
    }

    public func productCellDidTapAddToCart(_ cell: ProductCell) {
        cart.add(cell.product)
    }
}

/// Owns one block registration and removes it when released, like Combine's
/// `AnyCancellable`.
final class Observation {
    private let center: any NotificationCenterProtocol
    private let token: any NSObjectProtocol

    init(center: any NotificationCenterProtocol, token: any NSObjectProtocol) {
        self.center = center
        self.token = token
    }

    deinit { center.removeObserver(token) }
}
