import Foundation

/// The typed-message side of an instrumented center (`MainActorMessage`,
/// `AsyncMessage`, `messages(of:for:bufferSize:)`), made on first use so the
/// classic paths never pay for it. Typed and classic posts never meet (they
/// don't on Linux), so it is a registry of its own, named as the center.
///
/// Delivery is Foundation's: a main-actor message reaches its observers
/// synchronously, in the post; an async message's observers are enqueued on
/// the center's ``AsyncDeliveryQueue`` and run later; a message sequence
/// buffers at post time. Tokens are Foundation's own `ObservationToken`s,
/// made by a private real center (``mint``): each registration has a twin
/// there that is never posted to, whose closure holds a ``MessageObserverToken``.
/// Foundation lets that closure go when the token is removed or dropped,
/// which is how the harness learns of both.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
final class MessageRegistry: @unchecked Sendable {
    enum Handler {
        case mainActor(@MainActor @Sendable (Any) -> Void)
        case async(@Sendable (Any) async -> Void)
        /// A message sequence's iterator: buffers at post time (tag: the delivery).
        case sequence(@Sendable (Any, UInt32) -> Void)
    }

    let store: RegistrationStore<Handler>
    private let mint = NotificationCenter()
    private let queue = AsyncDeliveryQueue()
    private let lock = NSLock()
    /// Removals in progress by thread, so a token released inside one is
    /// recorded as removed there, not dropped. Guarded by `lock`.
    private var removals = [UInt16: (site: CodeLocation, matched: Bool)]()

    private var recorder: Recorder { store.recorder }

    init(recorder: Recorder, name: String) {
        store = RegistrationStore(
            recorder: recorder, info: RegistryInfo(name: name, kind: .notificationCenter),
            order: .registration)
    }

    /// Foundation names a message after its type.
    static func channel<Message>(_ type: Message.Type) -> String { _typeName(type, qualified: true) }

    // MARK: Registering

    func addMainActorObserver<Message: NotificationCenter.MainActorMessage>(
        _ type: Message.Type, subject: AnyObject?, location: CodeLocation,
        observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken {
        let token = MessageObserverToken()
        let registrationID = register(
            .mainActor { message in observer(message as! Message) },
            type: type, subject: subject, token: token, location: location)
        return mintToken(for: type, holding: token, registrationID: registrationID)
    }

    func addAsyncObserver<Message: NotificationCenter.AsyncMessage>(
        _ type: Message.Type, subject: AnyObject?, location: CodeLocation,
        observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken {
        let token = MessageObserverToken()
        let registrationID = register(
            .async { message in await observer(message as! Message) },
            type: type, subject: subject, token: token, location: location)
        return mintToken(for: type, holding: token, registrationID: registrationID)
    }

    private func register<Message>(
        _ handler: Handler, type: Message.Type, subject: AnyObject?,
        token: MessageObserverToken, location: CodeLocation
    ) -> UInt32 {
        let tokenID = recorder.tokenID(for: token, kind: .messageObserver, site: location)
        let subjectID = subject.map { recorder.objectID(for: $0) } ?? 0
        let result = store.add(
            observer: nil, observerID: tokenID, hold: .strong, channel: Self.channel(type),
            senderID: subjectID, tokenForm: true, dedupe: false, site: .location(location),
            handler: handler, extraFlags: .typedMessage)
        guard case .added(let registration) = result else { return 0 }
        return registration.id
    }

    /// A Foundation token whose twin registration holds `token`, so the
    /// harness hears when Foundation lets it go.
    private func mintToken<Message>(
        for type: Message.Type, holding token: MessageObserverToken,
        registrationID: UInt32
    ) -> NotificationCenter.ObservationToken {
        token.registry = self
        token.registrationID = registrationID
        token.tokenID = recorder.objectID(for: token)
        return mint.addObserver(for: MintMessage.self) { _ in withExtendedLifetime(token) {} }
    }

    /// `token`'s Foundation twin was let go: by ``remove(_:location:)`` on
    /// this thread, or because the app dropped the last copy of the token.
    fileprivate func released(_ token: MessageObserverToken) {
        let thread = ThreadContext.current.threadNumber
        let removal = lock.withLock { () -> CodeLocation? in
            guard let removal = removals[thread] else { return nil }
            removals[thread]?.matched = true
            return removal.site
        }
        if let removal {
            store.remove(registrationID: token.registrationID, observerID: token.tokenID, site: .location(removal))
        } else {
            store.tokenDropped(registrationID: token.registrationID, observerID: token.tokenID, ending: true)
        }
    }

    func remove(_ token: NotificationCenter.ObservationToken, location: CodeLocation) {
        let thread = ThreadContext.current.threadNumber
        lock.withLock { removals[thread] = (location, false) }
        mint.removeObserver(token)
        let matched = lock.withLock { removals.removeValue(forKey: thread)?.matched ?? false }
        // Not one of ours, or removed already: Foundation does nothing.
        if !matched { store.remove(registrationID: 0, observerID: 0, site: .location(location)) }
    }

    // MARK: Posting

    @MainActor
    func postMainActor<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: AnyObject?,
        location: CodeLocation
    ) {
        let subjectID = subject.map { recorder.objectID(for: $0) } ?? 0
        store.post(channel: Self.channel(Message.self), senderID: subjectID, site: .location(location)) {
            registration, _, _ in
            if case .mainActor(let observer) = registration.handler {
                MainActor.assumeIsolated { observer(message) }
            }
        }
    }

    func postAsync<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: AnyObject?,
        location: CodeLocation
    ) {
        let subjectID = subject.map { recorder.objectID(for: $0) } ?? 0
        let activity = recorder.asyncActivity
        store.post(channel: Self.channel(Message.self), senderID: subjectID, site: .location(location)) {
            registration, _, delivery in
            switch registration.handler {
            case .async(let observer):
                activity.deliveryEnqueued()
                queue.enqueue {
                    await observer(message)
                    activity.deliveryFinished()
                }
            case .sequence(let receive):
                receive(message, delivery)
            case .mainActor:
                break
            }
        }
    }

    /// Delivers `message` to the registrations here that match it, recording
    /// nothing: work no test can be told to own reaching this test's observers,
    /// as Foundation's default center would deliver it. Returns how many
    /// registrations it reached.
    @MainActor
    func postMainActorUnrecorded<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: AnyObject?, beforeFirst: () -> Void
    ) -> Int {
        store.deliverUnrecorded(channel: Self.channel(Message.self), sender: subject, beforeFirst: beforeFirst) {
            registration, _ in
            if case .mainActor(let observer) = registration.handler { observer(message) }
        }
    }

    /// The `AsyncMessage` form of ``postMainActorUnrecorded(_:subject:)``.
    func postAsyncUnrecorded<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: AnyObject?, beforeFirst: () -> Void
    ) -> Int {
        store.deliverUnrecorded(channel: Self.channel(Message.self), sender: subject, beforeFirst: beforeFirst) {
            registration, _ in
            switch registration.handler {
            case .async(let observer): queue.enqueue { await observer(message) }
            case .sequence(let receive): receive(message, AsyncObservationRecording.untold)
            case .mainActor: break
            }
        }
    }

    // MARK: Sequences

    func messages<Message: NotificationCenter.AsyncMessage>(
        _ type: Message.Type, subject: AnyObject?, bufferSize limit: Int, owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<Message> {
        nonisolated(unsafe) let subject = subject
        // Held weakly: `owner:` names the loop's owner and must not keep it
        // alive. Tracked now, so a loop that opens after its owner went is seen.
        let ownerID = owner.map { store.recorder.objectID(for: $0) } ?? 0
        nonisolated(unsafe) let owner = WeakReference(owner)
        return AsyncObserverSequence { [self] in
            let recording = AsyncObservationRecording(recorder: recorder, registryID: store.registryID)
            let iterator = AsyncObserverIterator<Message>(limit: limit, events: recording)
            let subjectID = subject.map { recorder.objectID(for: $0) } ?? 0
            let loopID = recorder.objectID(for: iterator, site: location)
            let result = store.add(
                observer: nil, observerID: loopID, hold: .strong, channel: Self.channel(type), senderID: subjectID,
                tokenForm: true, dedupe: false, site: .location(location),
                handler: .sequence { [weak iterator] message, delivery in
                    iterator?.receive(message as! Message, tag: delivery)
                },
                extraFlags: .typedMessage)
            guard case .added(let registration) = result else { return iterator }
            recording.open(
                loop: iterator, registrationID: registration.id, channel: Self.channel(type), owner: owner,
                ownerID: ownerID,
                typedMessage: true, location: location)
            let store = self.store
            iterator.setUnregister {
                store.remove(registrationID: registration.id, observerID: loopID, site: .interned(0))
            }
            return iterator
        }
    }
}

/// What a typed-message registration's Foundation token stands for in the
/// recording: it lives exactly as long as Foundation keeps the registration.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
final class MessageObserverToken: @unchecked Sendable {
    // Written once, before the token is returned.
    fileprivate weak var registry: MessageRegistry?
    var registrationID: UInt32 = 0
    var tokenID: UInt32 = 0

    deinit {
        registry?.released(self)
    }
}

// The private center's twin registrations: a message type nobody posts.
private final class MintSubject {}
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
private struct MintMessage: NotificationCenter.MainActorMessage {
    typealias Subject = MintSubject
}
