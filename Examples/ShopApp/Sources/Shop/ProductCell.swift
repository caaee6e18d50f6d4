import ObserverHarnessInterface

/// What a product cell asks of the screen that shows it.
@MainActor
public protocol ProductCellDelegate: AnyObject {
    func productCellDidTapAddToCart(_ cell: ProductCell)
}

/// A row of a product list. A tap goes to exactly one object: its delegate,
/// the screen that owns the cell.
@MainActor
public final class ProductCell {
    public let product: Product
    /// The cell's `weak var delegate`.
    public private(set) lazy var delegate = DelegateSlot<any ProductCellDelegate>(of: self)

    public init(product: Product) {
        self.product = product
    }

    public func tapAddToCart() {
        delegate.call { $0.productCellDidTapAddToCart(self) }
    }
}
