import ObserverHarness

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
    private let harness: Harness
    /// The cell's `weak var delegate`, instrumented.
    public private(set) lazy var delegate = harness.delegateSlot(of: self, as: (any ProductCellDelegate).self)

    public init(product: Product, harness: Harness) {
        self.product = product
        self.harness = harness
    }

    public func tapAddToCart() {
        delegate.call { $0.productCellDidTapAddToCart(self) }
    }
}
