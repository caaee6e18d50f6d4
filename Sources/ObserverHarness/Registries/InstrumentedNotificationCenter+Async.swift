import Foundation

// Async sequences and typed messages on the drop-in. None of this touches
// the classic add/post paths: the typed side is its own registry, made on
// first use, and a notifications loop is one block registration.

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension InstrumentedNotificationCenter {
    /// A loop over notifications: one block registration, made when iteration
    /// starts, that buffers each post for the loop; recorded as an async
    /// observation (opened, values taken, how it ended).
    public func postedNotifications(
        named name: Notification.Name, object: AnyObject?, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<PostedNotification> {
        nonisolated(unsafe) let object = object
        // Held weakly: `owner:` names the loop's owner and must not keep it
        // alive. Tracked now, so a loop that opens after its owner went is seen.
        let ownerID = owner.map { store.recorder.objectID(for: $0) } ?? 0
        nonisolated(unsafe) let owner = WeakReference(owner)
        return AsyncObserverSequence { [self] in
            let recorder = store.recorder
            let recording = AsyncObservationRecording(recorder: recorder, registryID: store.registryID)
            let iterator = AsyncObserverIterator<PostedNotification>(limit: nil, events: recording)
            let loopID = recorder.objectID(for: iterator, site: location)
            let senderID = object.map { recorder.objectID(for: $0) } ?? 0
            let handler = Handler(
                body: .block(
                    { [weak iterator] notification in
                        iterator?.receive(PostedNotification(notification), tag: recorder.currentFrame)
                    }, queue: nil), filterBox: nil)
            let result = store.add(
                observer: nil, observerID: loopID, hold: .strong, channel: name.rawValue,
                senderID: senderID, tokenForm: true, dedupe: false, site: .location(location),
                handler: handler)
            guard case .added(let registration) = result else { return iterator }
            recording.open(
                loop: iterator, registrationID: registration.id, channel: name.rawValue, owner: owner, ownerID: ownerID,
                typedMessage: false, location: location)
            let store = self.store
            iterator.setUnregister {
                store.remove(registrationID: registration.id, observerID: loopID, site: .interned(0))
            }
            return iterator
        }
    }
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension InstrumentedNotificationCenter {
    public func addObserver<Message: NotificationCenter.MainActorMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        messageRegistry.addMainActorObserver(messageType, subject: subject, location: location, observer: observer)
    }

    public func addObserver<Message: NotificationCenter.MainActorMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken {
        messageRegistry.addMainActorObserver(messageType, subject: nil, location: location, observer: observer)
    }

    public func addObserver<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        messageRegistry.addAsyncObserver(messageType, subject: subject, location: location, observer: observer)
    }

    public func addObserver<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken {
        messageRegistry.addAsyncObserver(messageType, subject: nil, location: location, observer: observer)
    }

    public func removeObserver(_ token: NotificationCenter.ObservationToken, location: CodeLocation) {
        messageRegistry.remove(token, location: location)
    }

    @MainActor
    public func post<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        messageRegistry.postMainActor(message, subject: subject, location: location)
    }

    @MainActor
    public func post<Message: NotificationCenter.MainActorMessage>(_ message: Message, location: CodeLocation) {
        messageRegistry.postMainActor(message, subject: nil, location: location)
    }

    public func post<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        messageRegistry.postAsync(message, subject: subject, location: location)
    }

    public func post<Message: NotificationCenter.AsyncMessage>(_ message: Message, location: CodeLocation) {
        messageRegistry.postAsync(message, subject: nil, location: location)
    }

    public func messages<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, bufferSize limit: Int, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<Message> where Message.Subject: AnyObject {
        messageRegistry.messages(messageType, subject: subject, bufferSize: limit, owner: owner, location: location)
    }

    public func messages<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, bufferSize limit: Int,
        owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<Message> {
        messageRegistry.messages(messageType, subject: nil, bufferSize: limit, owner: owner, location: location)
    }

    /// The typed-message registry if it was made (the router asks without making one).
    var messageRegistryIfMade: MessageRegistry? { messageSide.existing }

    /// The typed-message registry, made on first use.
    var messageRegistry: MessageRegistry {
        messageSide.registry { MessageRegistry(recorder: store.recorder, name: store.name) }
    }
}

/// Holds a center's typed-message registry once it is made (typed so that
/// the center itself needs no availability annotation).
final class LazyMessageSide: @unchecked Sendable {
    private let lock = NSLock()
    private var made: AnyObject?  // guarded by `lock`

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    var existing: MessageRegistry? { lock.withLock { made as? MessageRegistry } }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func registry(_ make: () -> MessageRegistry) -> MessageRegistry {
        lock.withLock {
            if let made = made as? MessageRegistry { return made }
            let registry = make()
            made = registry
            return registry
        }
    }
}
