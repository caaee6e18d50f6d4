import Foundation
import ObserverHarnessInterface

/// What `Observers.center` is once a harness has opened a scope in the
/// process: like `NotificationCenter.default`, one center for the whole app,
/// which hands each call to the test it belongs to (``ScopeRouter`` decides).
/// Read inside a scope, it is bound (weakly) to that scope, so an object made
/// in a test that stored it talks to that test from any thread while the test
/// runs. Storing it never pins a test's harness.
///
/// It keeps the app's behaviour the default center's:
/// - a post reaches its test's registrations (or, when no test can be told,
///   every running test's, unrecorded), every finished test's registrations
///   still in place (a long-lived object's), and Foundation's own default
///   center (observers made before any harness, or by code that uses
///   `NotificationCenter.default` directly);
/// - a post made straight on `NotificationCenter.default` reaches the
///   registrations made through it (``FoundationBridge``);
/// - a removal goes to the center that holds the registration, whichever
///   scope made it, and is never an unbalanced removal of another one.
final class RoutingCenter: NotificationCenterProtocol, @unchecked Sendable {
    /// What `Observers.center` is outside every scope.
    static let shared = RoutingCenter(boundTo: nil)

    /// The scope `Observers.center` was read in: an object that stored it
    /// keeps talking to that test, from any thread, while the test runs.
    /// Held weakly, so storing the center never pins the harness.
    private weak var bound: HarnessRegistries?

    init(boundTo registries: HarnessRegistries?) {
        bound = registries
    }

    /// Where a post made straight on Foundation's center is said to come from.
    private static let foundationPost = CodeLocation(
        fileID: "NotificationCenter.default", filePath: "NotificationCenter.default", line: 0, column: 0)

    /// Whose work a call from here is.
    private func attribute(touching first: AnyObject?, _ second: AnyObject? = nil) -> ScopeRouter.Attribution {
        ScopeRouter.shared.attribute(bound: bound, touching: first, second)
    }

    /// The test's center a registration or other call goes to, or nil for
    /// Foundation's when no test can be told.
    func resolvedCenter(touching object: AnyObject?) -> InstrumentedNotificationCenter? {
        guard case .test(let registries) = attribute(touching: object) else { return nil }
        return registries.defaultCenter
    }

    // MARK: Adding

    func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
        location: CodeLocation,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        guard let center = resolvedCenter(touching: object.flatMap(classInstance)) else {
            return NotificationCenter.default.addObserver(forName: name, object: object, queue: queue, using: block)
        }
        FoundationBridge.shared.bridge(name)
        let token = center.addObserver(forName: name, object: object, queue: queue, location: location, using: block)
        if name == nil { Self.noteUnbridged(on: center, at: location) }
        return token
    }

    /// A registration for every name hears only what the bridge brings of
    /// Foundation's posts (never every name: see ``FoundationBridge``), so
    /// the test's report says so at the app's line.
    private static func noteUnbridged(on center: InstrumentedNotificationCenter, at location: CodeLocation) {
        let store = center.store
        _ = store.recorder.record(Event(kind: .unbridgedWildcard, registry: store.registryID), at: location)
    }

    #if canImport(ObjectiveC)
        func addObserver(
            _ observer: Any, selector: Selector, name: Notification.Name?, object: Any?,
            location: CodeLocation
        ) {
            switch attribute(touching: classInstance(observer), object.flatMap(classInstance)) {
            case .test(let registries):
                FoundationBridge.shared.bridge(name)
                registries.defaultCenter.addObserver(
                    observer, selector: selector, name: name, object: object, location: location)
                if name == nil { Self.noteUnbridged(on: registries.defaultCenter, at: location) }
            case .untold:
                NotificationCenter.default.addObserver(observer, selector: selector, name: name, object: object)
            }
        }
    #endif

    // MARK: Removing

    func removeObserver(_ observer: Any, location: CodeLocation) {
        removeObserver(observer, name: nil, object: nil, location: location)
    }

    func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: CodeLocation) {
        // A block token ends where it was made, whichever scope that was.
        if let token = observer as? NotificationObserverToken {
            token.center?.removeObserver(token, name: name, object: object, location: location)
            return
        }
        // Anything else may be registered on Foundation's center (a token it
        // made, an observer registered before the harness) and in any scope.
        NotificationCenter.default.removeObserver(observer, name: name, object: object)
        // No test running and none left registrations: no center of ours has any.
        guard !ScopeRouter.shared.isIdle, let target = classInstance(observer) else { return }
        let first: HarnessRegistries? =
            switch attribute(touching: target) {
            case .test(let registries): registries
            case .untold: nil
            }
        var matched = false
        ScopeRouter.shared.forEachCenter(holding: target, first: first) { center in
            guard center.hasRegistrations(of: target) else { return }
            center.removeObserver(observer, name: name, object: object, location: location)
            matched = true
        }
        // Nothing anywhere: unbalanced, where a center can tell it was meant
        // for it: one whose block token the object keeps (removing itself by
        // observer ends nothing there), else the test's own center if its
        // harness knows the object. An object neither knows may be registered
        // on Foundation's own center.
        guard !matched else { return }
        var home: InstrumentedNotificationCenter?
        ScopeRouter.shared.forEachCenter(holding: target, first: first) { center in
            if home == nil, center.keepsActiveTokens(of: target) { home = center }
        }
        if home == nil, let scope = first?.defaultCenter, scope.knows(target) { home = scope }
        home?.removeObserver(observer, name: name, object: object, location: location)
    }

    // MARK: Posting

    func post(_ notification: Notification, location: CodeLocation) {
        post(notification, object: notification.object, location: location)
    }

    func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: CodeLocation) {
        post(Notification(name: name, object: object, userInfo: userInfo), object: object, location: location)
    }

    /// `object` is the notification's, read once for the decision, the
    /// test's center and the bridge's check (each reading of a
    /// notification's `object` copies an existential).
    private func post(_ notification: Notification, object: Any?, location: CodeLocation) {
        // `== nil` reads the optional in place; `flatMap` copies it first.
        let sender = object == nil ? nil : classInstance(object!)
        // With no test running and none left registrations, only Foundation's observers can hear it.
        if !ScopeRouter.shared.isIdle {
            route(notification, object: object, sender: sender, location: location, from: nil)
        }
        forwardToFoundation(notification, sender: sender)
    }

    /// Delivers to the test the post belongs to (or, untold, to every running
    /// test's registrations, unrecorded), then to every finished test's.
    /// `sender` is `object` if it is a class instance.
    private func route(
        _ notification: Notification, object: Any?, sender: AnyObject?, location: CodeLocation,
        from origin: ExecutionContext?
    ) {
        // The centers reached so far: a test that ended during this post is a
        // leftover by then too, and hears it once. (The test's own center kept
        // apart: an array would cost a routed post an allocation.)
        var reachedTest: ObjectIdentifier?
        var reached: [ObjectIdentifier] = []
        switch attribute(touching: sender) {
        case .test(let registries):
            registries.postOnDefaultCenter(notification, object: object, location: location)
            if let center = registries.routedCenterIfMade { reachedTest = ObjectIdentifier(center) }
        case .untold(let running):
            let how = origin ?? .describeCurrent()
            running.forEach { registries, center in
                registries.receiveUntold(
                    notification, on: center, from: how, running: running.count,
                    shared: running.touchesSharedObject, location: location)
                reached.append(ObjectIdentifier(center))
            }
        }
        // Most runs have none: a debug build's iterator costs ~600 instructions even then.
        let leftovers = ScopeRouter.shared.leftovers.centers(named: notification.name)
        guard !leftovers.isEmpty else { return }
        for center in leftovers
        where ObjectIdentifier(center) != reachedTest && !reached.contains(ObjectIdentifier(center)) {
            center.postUnrecorded(notification)
        }
    }

    /// Posts on Foundation's default center too, for observers registered
    /// there; the bridge lets this post pass, as the router delivered it.
    private func forwardToFoundation(_ notification: Notification, sender: AnyObject?) {
        ThreadContext.withCurrent { context in
            let saved = context.forwardedPost
            context.forwardedPost = ForwardedPost(name: notification.name, sender: sender)
            defer { context.forwardedPost = saved }
            NotificationCenter.default.post(notification)
        }
    }

    /// A post made straight on Foundation's center, brought by the bridge.
    func receiveFromFoundation(_ notification: Notification) {
        guard !ScopeRouter.shared.isIdle else { return }
        let sender = notification.object.flatMap(classInstance)
        let forwarded = ThreadContext.withCurrent { $0.forwardedPost?.matches(notification.name, sender) == true }
        if forwarded { return }
        route(
            notification, object: notification.object, sender: sender, location: Self.foundationPost,
            from: .foundationCenter)
    }
}

/// The post the router is handing to Foundation on this thread: the bridge
/// skips it. Matched by name and sender, so a handler's own direct post,
/// made inside it, still crosses.
struct ForwardedPost {
    let name: Notification.Name
    let sender: ObjectIdentifier?

    init(name: Notification.Name, sender: AnyObject?) {
        self.name = name
        self.sender = sender.map(ObjectIdentifier.init)
    }

    func matches(_ name: Notification.Name, _ sender: AnyObject?) -> Bool {
        name == self.name && sender.map(ObjectIdentifier.init) == self.sender
    }
}

// The async and typed-message calls go to the scope's center, or to
// Foundation's when no single scope can be told.

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension RoutingCenter {
    func postedNotifications(
        named name: Notification.Name, object: AnyObject?, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<PostedNotification> {
        guard let center = resolvedCenter(touching: object) else {
            return NotificationCenter.default.postedNotifications(
                named: name, object: object, owner: owner, location: location)
        }
        FoundationBridge.shared.bridge(name)
        return center.postedNotifications(named: name, object: object, owner: owner, location: location)
    }
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension RoutingCenter {
    /// The test's center for a typed-message call touching `subject`, or
    /// Foundation's default center when no test can be told.
    private func center(touching subject: AnyObject?) -> any NotificationCenterProtocol {
        resolvedCenter(touching: subject) ?? NotificationCenter.default
    }

    func addObserver<Message: NotificationCenter.MainActorMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        center(touching: subject).addObserver(of: subject, for: messageType, location: location, using: observer)
    }

    func addObserver<Message: NotificationCenter.MainActorMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken {
        center(touching: nil).addObserver(ofEvery: subjectType, for: messageType, location: location, using: observer)
    }

    func addObserver<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        center(touching: subject).addObserver(of: subject, for: messageType, location: location, using: observer)
    }

    func addObserver<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken {
        center(touching: nil).addObserver(ofEvery: subjectType, for: messageType, location: location, using: observer)
    }

    func removeObserver(_ token: NotificationCenter.ObservationToken, location: CodeLocation) {
        center(touching: nil).removeObserver(token, location: location)
    }

    @MainActor
    func post<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        route(
            touching: subject, toTest: { $0.post(message, subject: subject, location: location) },
            untold: { $0.receiveUntold(message, subject: subject, running: $1, shared: $2, location: location) },
            toFoundation: { NotificationCenter.default.post(message, subject: subject) })
    }

    @MainActor
    func post<Message: NotificationCenter.MainActorMessage>(_ message: Message, location: CodeLocation) {
        route(
            touching: nil, toTest: { $0.post(message, location: location) },
            untold: { $0.receiveUntold(message, subject: nil, running: $1, shared: $2, location: location) },
            toFoundation: { NotificationCenter.default.post(message) })
    }

    func post<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        route(
            touching: subject, toTest: { $0.post(message, subject: subject, location: location) },
            untold: { $0.receiveUntold(message, subject: subject, running: $1, shared: $2, location: location) },
            toFoundation: { NotificationCenter.default.post(message, subject: subject) })
    }

    func post<Message: NotificationCenter.AsyncMessage>(_ message: Message, location: CodeLocation) {
        route(
            touching: nil, toTest: { $0.post(message, location: location) },
            untold: { $0.receiveUntold(message, subject: nil, running: $1, shared: $2, location: location) },
            toFoundation: { NotificationCenter.default.post(message) })
    }

    /// A typed message goes to its test's center or, untold, to every running
    /// test's typed observers (unrecorded) and to Foundation's center.
    private func route(
        touching subject: AnyObject?, toTest: (InstrumentedNotificationCenter) -> Void,
        untold: (HarnessRegistries, Int, Bool) -> Void, toFoundation: () -> Void
    ) {
        switch attribute(touching: subject) {
        case .test(let registries):
            toTest(registries.defaultCenter)
        case .untold(let running):
            running.forEach { registries, _ in untold(registries, running.count, running.touchesSharedObject) }
            toFoundation()
        }
    }

    func messages<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, bufferSize limit: Int, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<Message> where Message.Subject: AnyObject {
        center(touching: subject)
            .messages(of: subject, for: messageType, bufferSize: limit, owner: owner, location: location)
    }

    func messages<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, bufferSize limit: Int,
        owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<Message> {
        center(touching: nil)
            .messages(ofEvery: subjectType, for: messageType, bufferSize: limit, owner: owner, location: location)
    }
}
