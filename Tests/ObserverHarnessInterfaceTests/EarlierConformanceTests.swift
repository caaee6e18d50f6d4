import Foundation
import ObserverHarnessInterface
import Testing

/// A center an app wrote against the protocol's first shape — the classic
/// five methods only, forwarding to a base center — still conforms, and its
/// async loops go through it.
final class ForwardingCenter: NotificationCenterProtocol, @unchecked Sendable {
    let base: any NotificationCenterProtocol
    private(set) var calls: [String] = []

    init(base: any NotificationCenterProtocol) { self.base = base }

    func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?, location: CodeLocation,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        calls.append("add")
        return base.addObserver(forName: name, object: object, queue: queue, location: location, using: block)
    }

    #if canImport(ObjectiveC)
        func addObserver(
            _ observer: Any, selector: Selector, name: Notification.Name?, object: Any?, location: CodeLocation
        ) {
            base.addObserver(observer, selector: selector, name: name, object: object, location: location)
        }
    #endif

    func removeObserver(_ observer: Any, location: CodeLocation) {
        calls.append("remove")
        base.removeObserver(observer, location: location)
    }

    func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: CodeLocation) {
        calls.append("remove")
        base.removeObserver(observer, name: name, object: object, location: location)
    }

    func post(_ notification: Notification, location: CodeLocation) {
        calls.append("post")
        base.post(notification, location: location)
    }

    func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: CodeLocation) {
        calls.append("post")
        base.post(name: name, object: object, userInfo: userInfo, location: location)
    }
}

@Suite struct EarlierConformanceTests {
    static let tick = Notification.Name("EarlierConformanceTests.tick")

    @Test func aCenterOfTheClassicShapeStillConformsAndForwards() {
        let center = ForwardingCenter(base: NotificationCenter())
        nonisolated(unsafe) var heard = 0
        let token = center.addObserver(forName: Self.tick, object: nil, queue: nil) { _ in heard += 1 }
        center.post(name: Self.tick, object: nil)
        center.removeObserver(token)
        #expect(heard == 1)
        #expect(center.calls == ["add", "post", "remove"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func itsAsyncLoopsGoThroughItsOwnClassicMethods() async {
        let center = ForwardingCenter(base: NotificationCenter())
        var iterator = center.postedNotifications(named: Self.tick).makeAsyncIterator()
        center.post(name: Self.tick, object: nil)
        #expect(await iterator.next()?.name == Self.tick)
        #expect(center.calls == ["add", "post"])
    }
}

/// A forwarding center written when the async requirement was still called
/// `notifications(named:object:owner:location:)`: its implementation is
/// still the one every loop over it runs.
final class EarlierAsyncForwardingCenter: NotificationCenterProtocol, @unchecked Sendable {
    let base = ForwardingCenter(base: NotificationCenter())
    private(set) var loopsForwarded = 0

    func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?, location: CodeLocation,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        base.addObserver(forName: name, object: object, queue: queue, location: location, using: block)
    }

    #if canImport(ObjectiveC)
        func addObserver(
            _ observer: Any, selector: Selector, name: Notification.Name?, object: Any?, location: CodeLocation
        ) {
            base.addObserver(observer, selector: selector, name: name, object: object, location: location)
        }
    #endif

    func removeObserver(_ observer: Any, location: CodeLocation) { base.removeObserver(observer, location: location) }

    func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: CodeLocation) {
        base.removeObserver(observer, name: name, object: object, location: location)
    }

    func post(_ notification: Notification, location: CodeLocation) { base.post(notification, location: location) }

    func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: CodeLocation) {
        base.post(name: name, object: object, userInfo: userInfo, location: location)
    }

    // The earlier name of the requirement, implemented as an adopter did.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func notifications(
        named name: Notification.Name, object: AnyObject?, owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<PostedNotification> {
        loopsForwarded += 1
        return base.postedNotifications(named: name, object: object, owner: owner, location: location)
    }
}

@Suite struct EarlierAsyncRequirementTests {
    static let tick = Notification.Name("EarlierAsyncRequirementTests.tick")

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func aCenterImplementingTheEarlierNameIsCalledForTheCurrentOne() async {
        let center = EarlierAsyncForwardingCenter()
        var iterator = center.postedNotifications(named: Self.tick).makeAsyncIterator()
        center.post(name: Self.tick, object: nil)
        #expect(await iterator.next()?.name == Self.tick)
        #expect(center.loopsForwarded == 1)
        #expect(center.base.calls == ["add", "post"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func throughTheProtocolToo() async {
        let center = EarlierAsyncForwardingCenter()
        let existential: any NotificationCenterProtocol = center
        var iterator = existential.postedNotifications(named: Self.tick).makeAsyncIterator()
        existential.post(name: Self.tick, object: nil)
        #expect(await iterator.next()?.name == Self.tick)
        #expect(center.loopsForwarded == 1)
    }
}
