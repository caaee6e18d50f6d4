import Foundation

/// Runs `operation` with `harness`'s instrumented registries in place of the
/// production ones: inside it, `Observers.center` is the harness's
/// notification center, and every `ObserverList`, `ObservedProperty` and
/// `DelegateSlot` made is instrumented, so app code needs no injection.
///
/// ```swift
/// @Test func tappingAddToCartAddsOnce() {
///     let harness = Harness()
///     withObserverHarness(harness) {
///         let screen = ProductListScreen(products: [book], cart: cart)  // uses Observers.center
///         screen.cells[0].tapAddToCart()
///     }
///     assertFindings(harness, .none())
/// }
/// ```
///
/// The override is a task-local value: parallel tests, each in its own task,
/// never see each other's registries. It reaches `Task {}` started inside the
/// scope. Work that leaves the task (`Task.detached`, a `DispatchQueue` block,
/// a `Thread`, a timer) is this test's when something ties it to the test —
/// the center an object stored here, an object the test has used, a handler
/// of this test's — and otherwise reaches every running test as the default
/// center would, judged by none (see the ScopeBoundaries article).
public func withObserverHarness<Result>(_ harness: Harness, operation: () throws -> Result) rethrows -> Result {
    ScopeRouter.shared.enter(harness.registries)
    defer { ScopeRouter.shared.exit(harness.registries) }
    return try RegistryScope.withProvider(harness.registries, operation: operation)
}

/// The `async` form of ``withObserverHarness(_:operation:)``: the harness's
/// registries stay in place across every `await` of `operation`.
///
/// ```swift
/// await withObserverHarness(harness) {
///     await screen.reload()
/// }
/// ```
public func withObserverHarness<Result>(
    _ harness: Harness, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
) async rethrows -> Result {
    ScopeRouter.shared.enter(harness.registries)
    defer { ScopeRouter.shared.exit(harness.registries) }
    return try await RegistryScope.withProvider(harness.registries, isolation: isolation, operation: operation)
}

/// What `withObserverHarness` puts in place: one notification center for the
/// scope (as there is one default center), and new instrumented registries.
final class HarnessRegistries: RegistryProvider, @unchecked Sendable {
    private let recorder: Recorder
    /// Made in this order: how the router lists scopes, deterministically.
    let serial = HarnessRegistries.nextSerial()
    private let lock = Lock()
    /// Made on first use, under `lock`; read on every post, without it.
    private let scopeCenter = OnceCenter()
    /// The harness these registries belong to, for `Harness.current`; weak, as
    /// the harness holds its registries.
    private weak var _owner: Harness?  // guarded by `lock`

    var owner: Harness? {
        get { lock.withLock { _owner } }
        set { lock.withLock { _owner = newValue } }
    }

    private let posts: Harness.PostThread

    /// The recording's identity: what a handler running on a thread names.
    let recorderID: ObjectIdentifier

    /// Whether its test may take work nothing else ties to a test when it is
    /// the only one running (false for the trait's tests, which may run in
    /// parallel: a verdict must not depend on what runs beside it).
    var infersSoleTest: Bool {
        get { lock.withLock { _infersSoleTest } }
        set { lock.withLock { _infersSoleTest = newValue } }
    }
    private var _infersSoleTest = true  // guarded by `lock`

    /// Whether a scope ever opened with these registries: only then does the
    /// harness's release end a test's recording.
    var hasOpenedScope: Bool {
        get { lock.withLock { _hasOpenedScope } }
        set { lock.withLock { _hasOpenedScope = newValue } }
    }
    private var _hasOpenedScope = false  // guarded by `lock`

    /// Objects `assertNoLeaks` reported as leaks, by name (nil: none yet).
    private var _reportedLeaks: Set<String>?  // guarded by `lock`
    func noteLeaksReported(_ names: [String]) {
        lock.withLock { _reportedLeaks = (_reportedLeaks ?? Set<String>()).union(names) }
    }
    var reportedLeaks: Set<String> { lock.withLock { _reportedLeaks ?? Set<String>() } }

    /// Whether its test ended. Read without a lock on every routed call.
    var hasEnded: Bool { ended.load() != 0 }
    private let ended = PublishedCount()
    /// Called once its registrations are leftovers, so a call that finds it
    /// ended reaches them that way.
    func markEnded() { ended.store(1) }
    /// Its harness opened a scope again: its test runs again.
    func markRunning() { ended.store(0) }

    init(recorder: Recorder, posts: Harness.PostThread = .caller) {
        recorderID = ObjectIdentifier(recorder)
        self.recorder = recorder
        self.posts = posts
    }

    /// Records loops over `Observers.observations`; made on first use, as most
    /// tests never make one.
    var observations: InstrumentedObservations {
        lock.withLock {
            if let made = _observations { return made }
            let made = InstrumentedObservations(recorder: recorder)
            _observations = made
            return made
        }
    }
    private var _observations: InstrumentedObservations?  // guarded by `lock`

    /// Records `Observers.withObservationTracking` for the scope; made on
    /// first use. Nil before the Observation framework's systems (where the
    /// interface never asks). Held as the protocol: the class needs those
    /// systems, and this one is declared for every system the package supports.
    var observationTracker: (any ObservationTrackingBackend)? {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return nil }
        return lock.withLock {
            if let made = _observationTracker { return made }
            let made = InstrumentedObservationTracking(recorder: recorder)
            made.scope = self
            _observationTracker = made
            return made
        }
    }
    private var _observationTracker: (any ObservationTrackingBackend)?  // guarded by `lock`

    /// The router bound to this scope: an object that stores
    /// `Observers.center` talks to this test until it ends, and never pins it.
    var center: any NotificationCenterProtocol {
        lock.withLock {
            if let router { return router }
            let made = RoutingCenter(boundTo: self)
            router = made
            return made
        }
    }
    private var router: RoutingCenter?  // guarded by `lock`; made on first use

    /// The scope's center if it was made (the router asks without making one).
    var routedCenterIfMade: InstrumentedNotificationCenter? { scopeCenter.load() }

    /// The harness was released, so its test ended: its registrations stay in
    /// place, as the app's would, and nothing records any more.
    func finishRecording() {
        // Inside an order check's body, the check reads this run's recording after the body returns.
        recorder.stopRecording(keepingEvents: OrderCheck.order != nil)
    }

    /// This test's recording: what tells which objects the test has seen.
    var recording: Recorder { recorder }

    /// A post nothing ties to one test, reaching this running test's
    /// registrations as the default center would: delivered unrecorded, and
    /// noted (`escaped-test-scope`) when it reached one of them.
    func receiveUntold(
        _ notification: Notification, on center: InstrumentedNotificationCenter, from how: ExecutionContext,
        running: Int, shared: Bool, location: CodeLocation
    ) {
        center.postUnrecorded(notification) {
            self.noteUntold(
                name: notification.name.rawValue, from: how, running: running, shared: shared, location: location)
        }
    }

    /// Records that work nothing ties to a test reached this one; `shared`:
    /// several running tests have used an object it touches.
    func noteUntold(name: String, from how: ExecutionContext, running: Int, shared: Bool, location: CodeLocation) {
        recorder.record(
            Event(
                kind: .scopeEscape, flags: shared ? .sharedObject : .none, registry: defaultCenter.store.registryID,
                channel: recorder.intern(name),
                registration: UInt32(how.rawValue) | UInt32(min(running, 0xFF_FFFF)) << 8),
            at: location)
    }

    private static let serials = Lock()
    nonisolated(unsafe) private static var lastSerial = 0
    private static func nextSerial() -> Int {
        serials.withLock {
            lastSerial += 1
            return lastSerial
        }
    }

    /// Posts on the scope's center without retaining it (it is made by then
    /// in a test that registered through the scope; made here otherwise).
    func postOnDefaultCenter(_ notification: Notification, object: Any?, location: CodeLocation) {
        let posted = scopeCenter.withLoaded { $0.post(notification, object: object, location: location) }
        if !posted { defaultCenter.post(notification, object: object, location: location) }
    }

    /// How reports name the center `Observers.center` routes a test's work to.
    static let routedCenterName = "Observers.center"

    /// Named "Observers.center" in reports.
    var defaultCenter: InstrumentedNotificationCenter {
        if let center = scopeCenter.load() { return center }
        // Made once: a center is a registry in the test's report.
        return lock.withLock {
            if let center = scopeCenter.load() { return center }
            let center = InstrumentedNotificationCenter(
                recorder: recorder, name: HarnessRegistries.routedCenterName,
                order: OrderCheck.order ?? .registration, posts: posts)
            scopeCenter.store(center)
            return center
        }
    }

    func observerList(name: String, hold: Hold, dedupe: Bool) -> any ObserverListBackend {
        InstrumentedObserverList(
            recorder: recorder, name: name, hold: hold, dedupe: dedupe, order: OrderCheck.order ?? .registration)
    }

    func observedProperty(_ property: String, of owner: AnyObject, location: CodeLocation)
        -> any ObservedPropertyBackend
    {
        InstrumentedObservedProperty(
            recorder: recorder, property: property, owner: owner, order: OrderCheck.order ?? .registration,
            location: location)
    }

    func delegateSlot(name: String, of owner: AnyObject, protocol: Any.Type, hold: Hold, location: CodeLocation)
        -> any DelegateSlotBackend
    {
        InstrumentedDelegateSlot(
            recorder: recorder, name: name, owner: owner, protocol: `protocol`, hold: hold,
            location: location)
    }
}

// Typed messages nothing ties to one test reach a running test's typed
// observers the same way: delivered unrecorded, noted where they arrive.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension HarnessRegistries {
    @MainActor
    func receiveUntold<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: AnyObject?, running: Int, shared: Bool, location: CodeLocation
    ) {
        let how = ExecutionContext.describeCurrent()
        _ = messageRegistry?.postMainActorUnrecorded(message, subject: subject) {
            self.noteUntold(
                name: MessageRegistry.channel(Message.self), from: how, running: running, shared: shared,
                location: location)
        }
    }

    func receiveUntold<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: AnyObject?, running: Int, shared: Bool, location: CodeLocation
    ) {
        let how = ExecutionContext.describeCurrent()
        _ = messageRegistry?.postAsyncUnrecorded(message, subject: subject) {
            self.noteUntold(
                name: MessageRegistry.channel(Message.self), from: how, running: running, shared: shared,
                location: location)
        }
    }

    /// This test's typed-message registry, if it was made.
    private var messageRegistry: MessageRegistry? { routedCenterIfMade?.messageRegistryIfMade }
}
