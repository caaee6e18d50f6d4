import Foundation

// Defaults for the requirements added after the classic five, so a center an
// app wrote against an earlier release (a wrapper that forwards, an analytics
// center) still conforms. Foundation's center, the harness's and the router
// implement them all; a conformer of the earlier shape gets:
// - `postedNotifications(named:…)` built on its own classic `addObserver` and
//   `removeObserver`, so a wrapper's loops go through the wrapper, or on its
//   own `notifications(named:…location:)`, the requirement's earlier name;
// - typed messages on Foundation's default center, which is what app code
//   reaches in production. Implement them to forward to a base center instead.

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension NotificationCenterProtocol {
    // The async sequence has two names, the current one and the deprecated
    // earlier one, so a center written against either is called as it was:
    // the current requirement's default calls the earlier one, whose default
    // builds the loop on the center's own classic methods. A center that
    // implements neither gets that build; one that implements either gets its own.

    public func postedNotifications(
        named name: Notification.Name, object: AnyObject?, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<PostedNotification> {
        (EarlierSpelling() as any EarlierSpellingCall).notifications(
            on: self, named: name, object: object, owner: owner, location: location)
    }

    @available(*, deprecated, renamed: "postedNotifications(named:object:owner:location:)")
    public func notifications(
        named name: Notification.Name, object: AnyObject?, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<PostedNotification> {
        nonisolated(unsafe) let object = object
        return AsyncObserverSequence { [self] in
            let iterator = AsyncObserverIterator<PostedNotification>(limit: nil, events: nil)
            let token = addObserver(forName: name, object: object, queue: nil, location: location) {
                [weak iterator] notification in
                iterator?.receive(PostedNotification(notification))
            }
            nonisolated(unsafe) let registration = token
            iterator.setUnregister { [weak self] in self?.removeObserver(registration, location: location) }
            return iterator
        }
    }
}

/// Calls the deprecated requirement without a deprecation warning in this
/// package: a call made from a deprecated witness, reached through a
/// protocol that is not deprecated, is not diagnosed.
private protocol EarlierSpellingCall {
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func notifications(
        on center: some NotificationCenterProtocol, named name: Notification.Name, object: AnyObject?,
        owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<PostedNotification>
}

private struct EarlierSpelling: EarlierSpellingCall {
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @available(*, deprecated)
    func notifications(
        on center: some NotificationCenterProtocol, named name: Notification.Name, object: AnyObject?,
        owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<PostedNotification> {
        center.notifications(named: name, object: object, owner: owner, location: location)
    }
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension NotificationCenterProtocol {
    public func addObserver<Message: NotificationCenter.MainActorMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        NotificationCenter.default.addObserver(of: subject, for: messageType, location: location, using: observer)
    }

    public func addObserver<Message: NotificationCenter.MainActorMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken {
        NotificationCenter.default.addObserver(
            ofEvery: subjectType, for: messageType, location: location, using: observer)
    }

    public func addObserver<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        NotificationCenter.default.addObserver(of: subject, for: messageType, location: location, using: observer)
    }

    public func addObserver<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken {
        NotificationCenter.default.addObserver(
            ofEvery: subjectType, for: messageType, location: location, using: observer)
    }

    public func removeObserver(_ token: NotificationCenter.ObservationToken, location: CodeLocation) {
        NotificationCenter.default.removeObserver(token, location: location)
    }

    @MainActor
    public func post<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        NotificationCenter.default.post(message, subject: subject, location: location)
    }

    @MainActor
    public func post<Message: NotificationCenter.MainActorMessage>(_ message: Message, location: CodeLocation) {
        NotificationCenter.default.post(message, location: location)
    }

    public func post<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        NotificationCenter.default.post(message, subject: subject, location: location)
    }

    public func post<Message: NotificationCenter.AsyncMessage>(_ message: Message, location: CodeLocation) {
        NotificationCenter.default.post(message, location: location)
    }

    public func messages<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, bufferSize limit: Int, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<Message> where Message.Subject: AnyObject {
        NotificationCenter.default.messages(
            of: subject, for: messageType, bufferSize: limit, owner: owner, location: location)
    }

    public func messages<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, bufferSize limit: Int,
        owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<Message> {
        NotificationCenter.default.messages(
            ofEvery: subjectType, for: messageType, bufferSize: limit, owner: owner, location: location)
    }
}
