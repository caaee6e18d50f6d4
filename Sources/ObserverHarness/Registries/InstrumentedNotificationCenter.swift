import Foundation

/// A NotificationCenter drop-in that records every add, remove, post and
/// delivery, and delivers by itself as Foundation's center does:
///
/// - `object:` filters by sender identity. A value (a string, a number, a
///   struct) is boxed, as Foundation boxes it, and the box's identity is what
///   counts: a value filter matches only a post that boxes to the very same
///   object (a small cached number), and the harness reports it as
///   `value-object-filter`;
/// - a `nil` name observes every name;
/// - delivery is synchronous, on the posting thread, in registration order
///   (Darwin's documented order; or the harness's ``DeliveryOrder``);
/// - a block given a queue runs on that `OperationQueue`, and `post` waits
///   until the queue has finished all its operations; a post made on that
///   queue (on the main thread or the main actor, for `queue: .main`) runs
///   the block in place, as Darwin does (with
///   ``Harness/PostThread/background`` it does not wait: `settle` does). The
///   center holds the queue weakly: once nothing else keeps it, the block no
///   longer runs;
/// - a block registration ends only when its token is removed: removing "the
///   observer" some other way matches nothing, as in Foundation. The token
///   does not keep the center alive, and a released center frees its blocks;
/// - the observer form (``addObserver(_:name:object:fileID:filePath:line:column:isolation:handler:)``,
///   and the selector form on Apple platforms) holds the observer weakly and is
///   removed by observer.
///
/// README's "Differences from Foundation" lists where it deliberately differs.
///
/// Get one from ``Harness/notificationCenter(_:order:)``.
public final class InstrumentedNotificationCenter: NotificationCenterProtocol, @unchecked Sendable {
    struct Handler {
        enum Body {
            case block(@Sendable (Notification) -> Void, queue: QueueReference?)
            case method((AnyObject, Notification) -> Void)
        }
        let body: Body
        /// The block again when it runs on the posting thread (no queue): the
        /// delivery loop calls it straight from here, instead of copying the
        /// enum out (two retains and two releases per delivery).
        let directBlock: (@Sendable (Notification) -> Void)?
        /// The box of a value given as `object:`. Foundation lets its box go at
        /// once, so a later box may reuse the address and match by accident;
        /// keeping it makes the filter match exactly what shares the box.
        let filterBox: AnyObject?

        init(body: Body, filterBox: AnyObject?) {
            self.body = body
            self.filterBox = filterBox
            if case .block(let block, nil) = body { directBlock = block } else { directBlock = nil }
        }
    }

    /// Foundation holds a block's queue weakly.
    final class QueueReference: @unchecked Sendable {
        weak var queue: OperationQueue?
        let objectID: UInt32

        init(_ queue: OperationQueue, objectID: UInt32) {
            self.queue = queue
            self.objectID = objectID
        }
    }

    let store: RegistrationStore<Handler>
    /// Typed messages, a registry of their own made on first use.
    let messageSide = LazyMessageSide()
    private var recorder: Recorder { store.recorder }

    /// Which thread a post the code under test makes is delivered from.
    private let postThread: Harness.PostThread

    init(recorder: Recorder, name: String, order: DeliveryOrder, posts: Harness.PostThread = .caller) {
        store = RegistrationStore(
            recorder: recorder,
            info: RegistryInfo(
                name: name, kind: .notificationCenter,
                snapshotDelivery: FoundationBehavior.centerDeliversToRemovedDuringPost),
            order: order)
        postThread = posts
    }

    /// The registry's name in reports.
    public var name: String { store.name }

    // MARK: Adding

    public func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
        location: CodeLocation,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        let token = NotificationObserverToken(store: store, center: self)
        let tokenID = recorder.tokenID(for: token, kind: .block, site: location)
        let sender = senderIdentity(of: object, location: location)
        let queueReference = queue.map { QueueReference($0, objectID: recorder.objectID(for: $0)) }
        // A block given a queue runs on that queue's thread, not the poster's.
        let deliveryPlace: ExecutionPlace? = queue.map { $0 === OperationQueue.main ? .mainActor : .background }
        let result = store.add(
            observer: nil, observerID: tokenID, hold: .strong, channel: name?.rawValue,
            senderID: sender.id, tokenForm: true, dedupe: false, site: .location(location),
            isolation: RegistrationIsolation(location.isolation), deliveryPlace: deliveryPlace,
            handler: Handler(body: .block(block, queue: queueReference), filterBox: sender.box))
        if case .added(let registration) = result { token.registrationID = registration.id }
        token.observerID = tokenID
        return token
    }

    /// The observer form: `observer` is held weakly, gets `handler(observer, notification)`
    /// and is removed with `removeObserver(_:)`.
    /// It models `addObserver(_:selector:name:object:)` on every platform.
    public func addObserver<Observer: AnyObject>(
        _ observer: Observer, name: Notification.Name?, object: Any?,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: (any Actor)? = #isolation,
        handler: @escaping (Observer, Notification) -> Void
    ) {
        let location = CodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column,
            isolation: isolation)
        addMethodObserver(observer, name: name, object: object, location: location) { target, notification in
            // The store only hands back the object registered here.
            handler(unsafeDowncast(target, to: Observer.self), notification)
        }
    }

    func addMethodObserver(
        _ observer: AnyObject, name: Notification.Name?, object: Any?, location: CodeLocation,
        handler: @escaping (AnyObject, Notification) -> Void
    ) {
        let observerID = recorder.objectID(for: observer, site: location)
        let sender = senderIdentity(of: object, location: location)
        _ = store.add(
            observer: observer, observerID: observerID, hold: .weak, channel: name?.rawValue,
            senderID: sender.id, tokenForm: false, dedupe: false, site: .location(location),
            isolation: RegistrationIsolation(location.isolation),
            handler: Handler(body: .method(handler), filterBox: sender.box))
    }

    #if canImport(ObjectiveC)
        /// Foundation's selector form: `observer` is held weakly and receives
        /// `selector` with the notification.
        public func addObserver(
            _ observer: Any, selector: Selector, name: Notification.Name?, object: Any?,
            location: CodeLocation
        ) {
            let target = observer as AnyObject
            addMethodObserver(target, name: name, object: object, location: location) { target, notification in
                _ = target.perform(selector, with: notification as NSNotification)
            }
        }
    #endif

    // MARK: Removing

    public func removeObserver(_ observer: Any, location: CodeLocation) {
        removeObserver(observer, name: nil, object: nil, location: location)
    }

    public func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: CodeLocation) {
        let senderID = object.map { senderIdentity(of: $0, location: location).id } ?? 0
        if let token = observer as? NotificationObserverToken {
            // As in Foundation, a name or object given must match the block
            // registration's own. Another center's token matches nothing here
            // (Foundation would remove this center's registration that has the
            // same internal key): recorded as an unbalanced removal.
            let registrationID = token.store === store ? token.registrationID : 0
            store.remove(
                registrationID: registrationID, observerID: token.observerID, channel: name?.rawValue,
                senderID: senderID, site: .location(location))
            return
        }
        guard let target = classInstance(observer) else {
            store.remove(observerID: 0, channel: name?.rawValue, senderID: 0, site: .location(location))
            return
        }
        let observerID = recorder.objectIDForRemoval(of: target)
        let removed = store.remove(
            observerID: observerID, channel: name?.rawValue, senderID: senderID, site: .location(location))
        // An object that registered a block and removes itself ended nothing:
        // its registration is its token's. Saying who keeps the token lets
        // the finding name that registration.
        guard removed == 0 else { return }
        for token in activeTokens(keptBy: target) { recorder.recordTokenOwner(observerID, of: token) }
    }

    /// The tokens of this center's active block registrations that `object`
    /// keeps in its stored properties.
    func activeTokens(keptBy object: AnyObject) -> [UInt32] {
        let store = store
        let kept = TokenOwners.tokens(keptBy: object) { instance in
            guard let token = instance as? NotificationObserverToken, token.store === store else { return nil }
            return token.observerID
        }
        return kept.isEmpty ? [] : store.activeTokens(among: kept)
    }

    /// Whether `object` keeps a block token of an active registration here.
    func keepsActiveTokens(of object: AnyObject) -> Bool { !activeTokens(keptBy: object).isEmpty }

    // MARK: Posting

    public func post(_ notification: Notification, location: CodeLocation) {
        post(notification, object: notification.object, location: location)
    }

    /// `object` is the notification's, as the caller has it: each reading of
    /// a notification's `object` copies an existential, even a nil one.
    func post(_ notification: Notification, object: Any?, location: CodeLocation) {
        // No sender, no identity work. (`== nil` reads the optional in place;
        // `guard let` and `if case .none` copy the existential first.)
        if object == nil {
            post(notification, senderID: 0, location: location)
            return
        }
        let sender = senderIdentity(of: object!, location: location)
        post(notification, senderID: sender.id, location: location)
        // A posted value's box must outlive the post, or a box made during
        // delivery could take its address (and its id).
        withExtendedLifetime(sender) {}
    }

    private func post(_ notification: Notification, senderID: UInt32, location: CodeLocation) {
        // Only the code under test's own posts move: one a handler makes
        // (inside a delivery frame) stays on that handler's thread.
        if postThread == .background, recorder.currentFrame == Event.none {
            nonisolated(unsafe) let sent = notification
            BackgroundPost.run { self.deliverPost(sent, senderID: senderID, location: location) }
            return
        }
        deliverPost(notification, senderID: senderID, location: location)
    }

    private func deliverPost(_ notification: Notification, senderID: UInt32, location: CodeLocation) {
        store.post(channel: notification.name.rawValue, senderID: senderID, site: .location(location)) {
            registration, observer, delivery in
            // The common case, a block for the posting thread, called in place
            // (optional chaining calls it where it is stored, without binding a copy).
            if registration.handler.directBlock?(notification) == nil {
                deliver(notification, to: registration, observer: observer, delivery: delivery)
            }
        }
    }

    private func deliver(
        _ notification: Notification, to registration: Registration<Handler>, observer: AnyObject?,
        delivery: UInt32
    ) {
        switch registration.handler.body {
        case .method(let handler):
            if let observer { handler(observer, notification) }
        case .block(let block, let reference):
            guard let reference else {
                block(notification)
                return
            }
            guard let queue = reference.queue else {
                // Foundation's weak queue is gone: the block never runs again.
                recorder.record(
                    Event(
                        kind: .deliverSkipped, registry: store.registryID, object: reference.objectID,
                        registration: registration.id))
                return
            }
            guard !Self.runsInPlace(queue) else {
                block(notification)
                return
            }
            // `post` waits for the whole queue, as Foundation's does, so the
            // notification is not shared with the posting thread while the
            // block runs.
            nonisolated(unsafe) let sent = notification
            let recorder = self.recorder
            guard postThread == .caller else {
                // Posting from the background, waiting for the queue could
                // wait on the test's own thread (the main queue): the block
                // runs when that queue next turns, and `settle` waits for it.
                let activity = recorder.asyncActivity
                activity.deliveryEnqueued()
                queue.addOperation {
                    recorder.withFrame(delivery) { block(sent) }
                    activity.deliveryFinished()
                }
                return
            }
            queue.addOperation { recorder.withFrame(delivery) { block(sent) } }
            queue.waitUntilAllOperationsAreFinished()
        }
    }

    public func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: CodeLocation) {
        // The sender from the argument, not read back out of the notification.
        post(Notification(name: name, object: object, userInfo: userInfo), object: object, location: location)
    }

    /// How many registrations are active.
    public var registrationCount: Int { store.activeCount }

    /// Delivers `notification` to the registrations here without recording:
    /// how a later test's post reaches a finished test's registrations.
    /// Returns how many registrations it reached; `beforeFirst` runs before
    /// the first of them is called.
    @discardableResult
    func postUnrecorded(_ notification: Notification, beforeFirst: () -> Void = {}) -> Int {
        store.deliverUnrecorded(
            channel: notification.name.rawValue, sender: notification.object.flatMap(classInstance),
            beforeFirst: beforeFirst
        ) { registration, observer in
            switch registration.handler.body {
            case .method(let handler):
                if let observer { handler(observer, notification) }
            case .block(let block, nil):
                block(notification)
            case .block(let block, let reference?):
                guard let queue = reference.queue else { return }
                guard !Self.runsInPlace(queue) else {
                    block(notification)
                    return
                }
                nonisolated(unsafe) let sent = notification
                queue.addOperation { block(sent) }
                queue.waitUntilAllOperationsAreFinished()
            }
        }
    }

    /// Whether a block for `queue` runs in place, inside the post: the
    /// current queue does, as in Foundation. On Darwin the main queue is the
    /// current queue on the main thread; on Linux it is not (and
    /// `OperationQueue.current` misses the main actor's executor on a
    /// worker), and waiting for the main queue from the thread that drains it
    /// would hang: it runs in place there too.
    static func runsInPlace(_ queue: OperationQueue) -> Bool {
        queue === OperationQueue.current || (queue === OperationQueue.main && ExecutionPlace.current.isMainActor)
    }

    /// Whether `observer` has a registration here (the observer form).
    func hasRegistrations(of observer: AnyObject) -> Bool {
        store.hasRegistrations(ofObject: observer)
    }

    /// Whether the recording already knows `object` (a removal of an object
    /// it never saw may be a registration on another center).
    func knows(_ object: AnyObject) -> Bool {
        recorder.knownObjectID(for: object) != nil
    }

    // MARK: Helpers

    /// The recorder's id of `object:`, and the box that carries a value's
    /// identity (kept by a registration, so the box lives as long as its filter).
    private func senderIdentity(of object: Any?, location: CodeLocation) -> (id: UInt32, box: AnyObject?) {
        guard let object else { return (0, nil) }
        if let instance = classInstance(object) { return (recorder.objectID(for: instance), nil) }
        let box = object as AnyObject
        return (
            recorder.valueObjectID(
                for: box, typeName: String(describing: type(of: object)),
                label: ValueDescription.of(object), site: .location(location)), box
        )
    }
}

extension InstrumentedNotificationCenter: Hashable {
    /// Centers are equal when they are the same center, as Foundation's are.
    public static func == (lhs: InstrumentedNotificationCenter, rhs: InstrumentedNotificationCenter) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// A class instance, or nil for a value (values have no identity to filter by).
func classInstance(_ value: Any) -> AnyObject? {
    type(of: value) is AnyClass ? value as AnyObject : nil
}

/// How a value given as `object:` is named in reports: short, and quoted when it is text.
enum ValueDescription {
    static let limit = 40

    static func of(_ value: Any) -> String {
        cut(value is String ? "\"\(value)\"" : String(describing: value))
    }

    static func cut(_ text: String) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }
}

/// The token a block registration returns. Only removing it ends the
/// registration; if its last reference goes while the registration is
/// active, that is recorded as a discarded token. It holds its center's
/// registrations weakly, as Foundation's token does: a released center frees
/// the blocks even while a token is kept.
final class NotificationObserverToken: NSObject, @unchecked Sendable {
    weak var store: RegistrationStore<InstrumentedNotificationCenter.Handler>?
    /// The center that made it, where the router sends its removal.
    weak var center: InstrumentedNotificationCenter?
    // Written once, before the token is returned.
    var registrationID: UInt32 = 0
    var observerID: UInt32 = 0

    init(
        store: RegistrationStore<InstrumentedNotificationCenter.Handler>,
        center: InstrumentedNotificationCenter? = nil
    ) {
        self.store = store
        self.center = center
    }

    deinit {
        store?.tokenDropped(registrationID: registrationID, observerID: observerID)
    }
}
