// App code as adopters wrote it against the previous release: it links the
// interface product only. A line ending in `// deprecated` must compile
// with a deprecation warning (and a fix-it); every other line without one.
import Foundation
import ObserverHarnessInterface

extension Notification.Name {
    static let cartDidChange = Notification.Name("UpgradeFixture.cartDidChange")
}

public final class Cart: @unchecked Sendable {
    private let center: any NotificationCenterProtocol
    public private(set) var count = 0

    public init(center: any NotificationCenterProtocol = Observers.center) { self.center = center }

    public func add() {
        count += 1
        center.post(name: .cartDidChange, object: self)
    }
}

public final class CartBadge: @unchecked Sendable {
    private let center: any NotificationCenterProtocol
    private var token: (any NSObjectProtocol)?
    private var task: Task<Void, Never>?
    public private(set) var shown = 0

    public init(center: any NotificationCenterProtocol = Observers.center) { self.center = center }

    public func appear(cart: Cart) {
        token = center.addObserver(forName: .cartDidChange, object: cart, queue: nil) { [weak self] _ in
            self?.shown += 1
        }
    }

    public func disappear() {
        if let token { center.removeObserver(token) }
        token = nil
        task?.cancel()
    }

    /// The async loop under the sequence's earlier name.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public func listen() {
        let center = center
        task = Task { [weak self] in
            for await _ in center.notifications(named: .cartDidChange, owner: self) {  // deprecated
                self?.shown += 1
            }
        }
    }
}

/// A listener type and the app's own lists of them.
public protocol CartListener: AnyObject {
    func cartChanged(count: Int)
}

public final class CartListeners: @unchecked Sendable {
    private let listeners = ObserverList(of: CartListener.self, hold: .weak)

    public init() {}

    public func add(_ listener: CartListener) { listeners.add(listener) }
    public func remove(_ listener: CartListener) { listeners.remove(listener) }
    public var count: Int { listeners.count }
    public func tell(_ count: Int) { listeners.notify { $0.cartChanged(count: count) } }
}

public protocol CheckoutDelegate: AnyObject {
    func checkoutFinished(total: Int)
}

public final class Checkout: @unchecked Sendable {
    public lazy var delegate = DelegateSlot(of: self, as: CheckoutDelegate.self)

    public init() {}

    public func finish(total: Int) {
        delegate.call { $0.checkoutFinished(total: total) }
    }
}
