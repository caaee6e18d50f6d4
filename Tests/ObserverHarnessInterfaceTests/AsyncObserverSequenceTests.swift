import Foundation
import ObserverHarnessInterface
import Testing

/// Typed messages and async sequences through the protocol, on Foundation's
/// own center: what the app runs in production.
@Suite struct AsyncObserverSequenceTests {
    static let ping = Notification.Name("AsyncObserverSequenceTests.ping")

    final class Cart: Sendable {}

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    struct CartDidChange: NotificationCenter.MainActorMessage {
        typealias Subject = Cart
        let count: Int
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    struct CartSynced: NotificationCenter.AsyncMessage {
        typealias Subject = Cart
        let revision: Int
    }

    final class Values: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [Int] = []
        func append(_ value: Int) { lock.withLock { storage.append(value) } }
        var all: [Int] { lock.withLock { storage } }
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @MainActor @Test func foundationsTypedMessagesWorkThroughTheProtocol() {
        let center: any NotificationCenterProtocol = NotificationCenter()
        let cart = Cart()
        let values = Values()
        let token = center.addObserver(of: cart, for: CartDidChange.self) { values.append($0.count) }
        _ = center.addObserver(of: cart, for: CartDidChange.self) { _ in values.append(-1) }  // never fires
        center.post(CartDidChange(count: 1), subject: cart)
        center.removeObserver(token)
        center.post(CartDidChange(count: 2), subject: cart)
        #expect(values.all == [1])
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aNotificationsLoopGetsASendableProjectionAndEndsWhenCancelled() async {
        let center: any NotificationCenterProtocol = NotificationCenter()
        let sender = NSObject()
        var iterator = center.postedNotifications(named: Self.ping, object: sender).makeAsyncIterator()
        center.post(name: Self.ping, object: NSObject())  // another sender: filtered out
        center.post(name: Self.ping, object: sender, userInfo: ["count": 3, "skip": NSObject()])
        let first = await iterator.next()
        #expect(first?.name == Self.ping)
        #expect(first?.isPosted(by: sender) == true)
        #expect(first?.userInfo["count"] as? Int == 3)
        #expect(first?.userInfo["skip"] == nil)

        let loop = Task {
            var taken = 0
            for await _ in center.postedNotifications(named: Self.ping) { taken += 1 }
            return taken
        }
        loop.cancel()
        #expect(await loop.value == 0)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aPostedNotificationKeepsEachNumbersKindAlsoFromAnNSNumber() async {
        let center: any NotificationCenterProtocol = NotificationCenter()
        var iterator = center.postedNotifications(named: Self.ping).makeAsyncIterator()
        // An Objective-C poster's numbers arrive as NSNumbers, which cast to Int
        // whatever they hold.
        let userInfo: [AnyHashable: Any] = [
            "flag": true, "ratio": 2.5, "count": 3,
            "objcFlag": NSNumber(value: true), "objcWhole": NSNumber(value: 2.0), "objcCount": NSNumber(value: 3),
        ]
        center.post(name: Self.ping, object: nil, userInfo: userInfo)
        let note = await iterator.next()
        func kind(_ key: String) -> String { note?.userInfo[key].map { "\(type(of: $0))" } ?? "missing" }
        #expect(
            ["flag", "ratio", "count", "objcFlag", "objcWhole", "objcCount"].map(kind)
                == ["Bool", "Double", "Int", "Bool", "Double", "Int"])
        #expect(note?.userInfo["objcFlag"] as? Bool == true)
        #expect(note?.userInfo["objcWhole"] as? Double == 2.0)
        #expect(note?.userInfo["ratio"] as? Double == 2.5)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aMessageBufferDropsItsOldestMessagesAsFoundationsDoes() async {
        let center: any NotificationCenterProtocol = NotificationCenter()
        let cart = Cart()
        var iterator = center.messages(of: cart, for: CartSynced.self, bufferSize: 2).makeAsyncIterator()
        for revision in 1...5 { center.post(CartSynced(revision: revision), subject: cart) }
        let first = await iterator.next()
        let second = await iterator.next()
        #expect([first?.revision, second?.revision] == [4, 5])
    }
}
