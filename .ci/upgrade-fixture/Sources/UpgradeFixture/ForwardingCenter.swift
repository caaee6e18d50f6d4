// A center an adopter wrote against the previous release: it forwards to a
// base center and counts, and implements the async requirement under its
// earlier name, which must still be the one its loops run.
import Foundation
import ObserverHarnessInterface

public final class AnalyticsCenter: NotificationCenterProtocol, @unchecked Sendable {
    private let base: any NotificationCenterProtocol
    public private(set) var posts = 0

    public init(base: any NotificationCenterProtocol = NotificationCenter.default) { self.base = base }

    public func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?, location: CodeLocation,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        base.addObserver(forName: name, object: object, queue: queue, location: location, using: block)
    }

    #if canImport(ObjectiveC)
        public func addObserver(
            _ observer: Any, selector: Selector, name: Notification.Name?, object: Any?, location: CodeLocation
        ) {
            base.addObserver(observer, selector: selector, name: name, object: object, location: location)
        }
    #endif

    public func removeObserver(_ observer: Any, location: CodeLocation) {
        base.removeObserver(observer, location: location)
    }

    public func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: CodeLocation) {
        base.removeObserver(observer, name: name, object: object, location: location)
    }

    public func post(_ notification: Notification, location: CodeLocation) {
        posts += 1
        base.post(notification, location: location)
    }

    public func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: CodeLocation) {
        posts += 1
        base.post(name: name, object: object, userInfo: userInfo, location: location)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public func notifications(
        named name: Notification.Name, object: AnyObject?, owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<PostedNotification> {
        base.notifications(named: name, object: object, owner: owner, location: location)  // deprecated
    }
}

// The typed-message requirements, which the previous release required of
// every conformer: forwarded to the base center.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension AnalyticsCenter {
    public func addObserver<Message: NotificationCenter.MainActorMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        base.addObserver(of: subject, for: messageType, location: location, using: observer)
    }

    public func addObserver<Message: NotificationCenter.MainActorMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken {
        base.addObserver(ofEvery: subjectType, for: messageType, location: location, using: observer)
    }

    public func addObserver<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        base.addObserver(of: subject, for: messageType, location: location, using: observer)
    }

    public func addObserver<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken {
        base.addObserver(ofEvery: subjectType, for: messageType, location: location, using: observer)
    }

    public func removeObserver(_ token: NotificationCenter.ObservationToken, location: CodeLocation) {
        base.removeObserver(token, location: location)
    }

    @MainActor public func post<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        base.post(message, subject: subject, location: location)
    }

    @MainActor public func post<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, location: CodeLocation
    ) {
        base.post(message, location: location)
    }

    public func post<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        base.post(message, subject: subject, location: location)
    }

    public func post<Message: NotificationCenter.AsyncMessage>(_ message: Message, location: CodeLocation) {
        base.post(message, location: location)
    }

    public func messages<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, bufferSize limit: Int, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<Message> where Message.Subject: AnyObject {
        base.messages(of: subject, for: messageType, bufferSize: limit, owner: owner, location: location)
    }

    public func messages<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, bufferSize limit: Int,
        owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<Message> {
        base.messages(ofEvery: subjectType, for: messageType, bufferSize: limit, owner: owner, location: location)
    }
}
