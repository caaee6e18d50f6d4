import Foundation
import ObserverHarnessInterface

/// What `Observers.center` is once a harness has opened a scope in the
/// process: like `NotificationCenter.default`, it finds the running test's
/// center at each call (``ScopeRouter``). Read inside a scope, it is bound
/// (weakly) to that scope, so an object made in a test that stored it talks
/// to that test from any thread until the test ends, and to whichever test
/// is running after that. Storing it never pins a test's harness.
///
/// It keeps the app's behaviour the default center's:
/// - a post reaches the scope's registrations, every finished test's
///   registrations still in place (a long-lived object's), and Foundation's
///   own default center (observers made before any harness, or by code that
///   uses `NotificationCenter.default` directly);
/// - a post made straight on `NotificationCenter.default` reaches the
///   registrations made through it (a bridge observer forwards it);
/// - a removal goes to the center that holds the registration, whichever
///   scope made it, and is never an unbalanced removal of another one.
final class RoutingCenter: NotificationCenterProtocol, @unchecked Sendable {
    /// What `Observers.center` is outside every scope.
    static let shared = RoutingCenter(boundTo: nil)

    /// The scope `Observers.center` was read in: an object that stored it
    /// keeps talking to that test, from any thread, until the test ends.
    /// Held weakly, so storing the center never pins the harness.
    private weak var bound: HarnessRegistries?

    init(boundTo registries: HarnessRegistries?) {
        bound = registries
    }

    private let lock = Lock()
    private var bridge: (any NSObjectProtocol)?  // guarded by `lock`

    /// Where a post made straight on Foundation's center is said to come from.
    private static let foundationPost = CodeLocation(
        fileID: "NotificationCenter.default", filePath: "NotificationCenter.default", line: 0, column: 0)

    // MARK: Adding

    func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
        location: CodeLocation,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        switch resolve(.registration, name: name, location: location) {
        case .some(let center):
            center.addObserver(forName: name, object: object, queue: queue, location: location, using: block)
        case .none:
            NotificationCenter.default.addObserver(forName: name, object: object, queue: queue, using: block)
        }
    }

    #if canImport(ObjectiveC)
        func addObserver(
            _ observer: Any, selector: Selector, name: Notification.Name?, object: Any?,
            location: CodeLocation
        ) {
            switch resolve(.registration, name: name, location: location) {
            case .some(let center):
                center.addObserver(observer, selector: selector, name: name, object: object, location: location)
            case .none:
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
        guard let target = classInstance(observer) else { return }
        let first: HarnessRegistries? =
            switch ScopeRouter.shared.target(boundTo: bound) {
            case .scope(let registries, _): registries
            case .ambiguous, .production: nil
            }
        var matched = false
        let centers = ScopeRouter.shared.allCenters(first: first)
        for center in centers where center.hasRegistrations(of: target) {
            center.removeObserver(observer, name: name, object: object, location: location)
            matched = true
        }
        // Nothing anywhere: unbalanced, where a center can tell it was meant for it.
        if !matched,
            let center = InstrumentedNotificationCenter.homeOfUnmatchedRemoval(
                of: target, scope: first?.defaultCenter, among: centers)
        {
            center.removeObserver(observer, name: name, object: object, location: location)
        }
    }

    // MARK: Posting

    func post(_ notification: Notification, location: CodeLocation) {
        route(notification, location: location)
        forwardToFoundation(notification)
    }

    func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: CodeLocation) {
        post(Notification(name: name, object: object, userInfo: userInfo), location: location)
    }

    /// Delivers to the scope (or scopes) the post belongs to, then to every
    /// finished test's registrations.
    private func route(_ notification: Notification, location: CodeLocation) {
        let scopes = scopes(for: .post, name: notification.name, location: location)
        for registries in scopes { registries.defaultCenter.post(notification, location: location) }
        for center in ScopeRouter.shared.finishedCenters(excluding: scopes.count == 1 ? scopes[0] : nil) {
            center.postUnrecorded(notification)
        }
    }

    /// Posts on Foundation's default center too, for observers registered
    /// there; the bridge lets this post pass, as the router delivered it.
    private func forwardToFoundation(_ notification: Notification) {
        let context = ThreadContext.current
        let saved = context.forwardedPost
        context.forwardedPost = ForwardedPost(notification)
        defer { context.forwardedPost = saved }
        NotificationCenter.default.post(notification)
    }

    /// Installs, once, the observer of Foundation's default center that
    /// brings its posts to the registrations made through the router.
    func installBridge() {
        lock.withLock {
            guard bridge == nil else { return }
            bridge = NotificationCenter.default.addObserver(forName: nil, object: nil, queue: nil) {
                notification in
                RoutingCenter.shared.receiveFromFoundation(notification)
            }
        }
    }

    private func receiveFromFoundation(_ notification: Notification) {
        if let forwarded = ThreadContext.current.forwardedPost, forwarded.matches(notification) { return }
        // Foundation's own traffic reaches no harness unless someone listens.
        let centers = ScopeRouter.shared.allCenters(first: nil)
        guard centers.contains(where: { $0.receives(notification.name) }) else { return }
        route(notification, location: Self.foundationPost)
    }

    // MARK: Resolving

    enum Work: UInt32 {
        case post = 0
        case registration = 1
    }

    /// The scopes `work` goes to: one, or every open one when no single scope
    /// can be told (each records the escape), or none (Foundation's center only).
    private func scopes(for work: Work, name: Notification.Name?, location: CodeLocation) -> [HarnessRegistries] {
        switch ScopeRouter.shared.target(boundTo: bound) {
        case .scope(let registries, let inferredInParallelRun):
            if inferredInParallelRun {
                registries.recordEscape(work, name: name, openScopes: 1, location: location)
            }
            return [registries]
        case .ambiguous(let open):
            for registries in open {
                registries.recordEscape(work, name: name, openScopes: open.count, location: location)
            }
            return open
        case .production:
            return []
        }
    }

    /// The center a registration or other call goes to: the scope's, or nil
    /// for Foundation's when there is no single scope.
    private func resolve(_ work: Work, name: Notification.Name?, location: CodeLocation)
        -> InstrumentedNotificationCenter?
    {
        let scopes = scopes(for: work, name: name, location: location)
        return scopes.count == 1 ? scopes[0].defaultCenter : nil
    }

    /// The scope's center for the async and typed-message calls, or nil for Foundation's.
    func resolvedCenter(name: Notification.Name?, location: CodeLocation) -> InstrumentedNotificationCenter? {
        resolve(.registration, name: name, location: location)
    }
}

/// The post the router is handing to Foundation on this thread: the bridge
/// skips it. Matched by name and sender, so a handler's own direct post,
/// made inside it, still crosses.
struct ForwardedPost {
    let name: Notification.Name
    let sender: ObjectIdentifier?

    init(_ notification: Notification) {
        name = notification.name
        sender = notification.object.flatMap(classInstance).map(ObjectIdentifier.init)
    }

    func matches(_ notification: Notification) -> Bool {
        notification.name == name
            && notification.object.flatMap(classInstance).map(ObjectIdentifier.init) == sender
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
        let center: any NotificationCenterProtocol =
            resolvedCenter(name: name, location: location) ?? NotificationCenter.default
        return center.postedNotifications(named: name, object: object, owner: owner, location: location)
    }
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension RoutingCenter {
    private func center<Message>(for _: Message.Type, location: CodeLocation) -> any NotificationCenterProtocol {
        resolvedCenter(name: nil, location: location) ?? NotificationCenter.default
    }

    func addObserver<Message: NotificationCenter.MainActorMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        center(for: messageType, location: location)
            .addObserver(of: subject, for: messageType, location: location, using: observer)
    }

    func addObserver<Message: NotificationCenter.MainActorMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken {
        center(for: messageType, location: location)
            .addObserver(ofEvery: subjectType, for: messageType, location: location, using: observer)
    }

    func addObserver<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        center(for: messageType, location: location)
            .addObserver(of: subject, for: messageType, location: location, using: observer)
    }

    func addObserver<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken {
        center(for: messageType, location: location)
            .addObserver(ofEvery: subjectType, for: messageType, location: location, using: observer)
    }

    func removeObserver(_ token: NotificationCenter.ObservationToken, location: CodeLocation) {
        center(for: Void.self, location: location).removeObserver(token, location: location)
    }

    @MainActor
    func post<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        center(for: Message.self, location: location).post(message, subject: subject, location: location)
    }

    @MainActor
    func post<Message: NotificationCenter.MainActorMessage>(_ message: Message, location: CodeLocation) {
        center(for: Message.self, location: location).post(message, location: location)
    }

    func post<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        center(for: Message.self, location: location).post(message, subject: subject, location: location)
    }

    func post<Message: NotificationCenter.AsyncMessage>(_ message: Message, location: CodeLocation) {
        center(for: Message.self, location: location).post(message, location: location)
    }

    func messages<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, bufferSize limit: Int, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<Message> where Message.Subject: AnyObject {
        center(for: messageType, location: location)
            .messages(of: subject, for: messageType, bufferSize: limit, owner: owner, location: location)
    }

    func messages<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, bufferSize limit: Int,
        owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<Message> {
        center(for: messageType, location: location)
            .messages(ofEvery: subjectType, for: messageType, bufferSize: limit, owner: owner, location: location)
    }
}
