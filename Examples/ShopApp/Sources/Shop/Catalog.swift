import Foundation

/// A product the shop sells.
public struct Product: Hashable, Sendable {
    public let id: String
    public let name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

extension Notification.Name {
    /// Posted when a product's details change. A real broadcast: any number
    /// of screens may listen, and each only redraws itself.
    public static let productDidUpdate = Notification.Name("ProductDidUpdate")
    /// Posted by the legacy cell when the user taps "Add to cart": a command
    /// dressed up as a broadcast (see `LegacyProductCell`).
    public static let addToCart = Notification.Name("AddToCart")
}

/// The shopping cart. `onAdd` lets the app (or a test) watch what it does.
@MainActor
public final class Cart {
    public private(set) var items: [String] = []
    private let onAdd: (Product) -> Void

    public init(onAdd: @escaping (Product) -> Void = { _ in }) {
        self.onAdd = onAdd
    }

    public func add(_ product: Product) {
        items.append(product.id)
        onAdd(product)
    }
}
