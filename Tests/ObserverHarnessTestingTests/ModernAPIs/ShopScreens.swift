// More app code of the "Modern observer APIs in app code" article: the
// blocks between `// article:` and `// end` are the article's, verbatim.
import Foundation
import Observation
import ObserverHarnessInterface

// article: typed-main-actor
final class ShopCart: Sendable {}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
struct ShopCartDidChange: NotificationCenter.MainActorMessage {
    typealias Subject = ShopCart
    let count: Int
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@MainActor final class CartBadge {
    var count = 0

    init(cart: ShopCart) {
        // ↓ discarded-token
        _ = Observers.center.addObserver(of: cart, for: ShopCartDidChange.self) { [weak self] message in
            self?.count = message.count
        }
    }
}
// end

// article: typed-async
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
struct ShopCartSynced: NotificationCenter.AsyncMessage {
    typealias Subject = ShopCart
    let revision: Int
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@MainActor final class SyncHistory {
    var revisions: [Int] = []
    var task: Task<Void, Never>?

    init(cart: ShopCart) {
        task = Task { [weak self] in
            // ↓ message-dropped
            for await message in Observers.center.messages(of: cart, for: ShopCartSynced.self, bufferSize: 1) {
                self?.revisions.append(message.revision)
            }
        }
    }

    deinit { task?.cancel() }
}
// end

// article: observation-tracking
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor @Observable final class CartModel {
    var count = 0
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor final class CartHeader {
    let cart: CartModel
    var title = ""

    init(cart: CartModel) {
        self.cart = cart
        // ↓ observation-not-rearmed
        title = Observers.withObservationTracking({ "\(cart.count) items" }, onChange: { print("cart changed") })
    }
}
// end

// article: isolation
extension Notification.Name {
    static let cartSynced = Notification.Name("CartSynced")
    static let bannerDidShow = Notification.Name("BannerDidShow")
}

@MainActor final class SyncBanner {
    var token: (any NSObjectProtocol)?

    init() {
        // ↓ delivery-off-isolation
        token = Observers.center.addObserver(forName: .cartSynced, object: nil, queue: nil) { _ in
            // Shows the banner, and tells the screen reader: main-actor work.
            Observers.center.post(name: .bannerDidShow, object: nil)
        }
    }

    func close() {
        if let token { Observers.center.removeObserver(token) }
        token = nil
    }
}

final class CartSyncer: Sendable {
    func finish() async {
        Observers.center.post(name: .cartSynced, object: nil)
    }
}
// end

#if compiler(>=6.2)
    // article: observations
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @MainActor final class CartTotalScreen {
        let cart: CartModel
        var shown = 0
        var task: Task<Void, Never>?

        init(cart: CartModel) {
            self.cart = cart
            task = Task {
                // ↓ async-observer-outlives-owner
                for await count in Observers.observations({ self.cart.count }) { self.shown = count }
            }
        }
    }
// end
#endif
