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
/// a `Thread`, a timer) reaches the same center as it would in the app: with
/// one scope open it is this harness's, and with several the harness reports
/// it as `escaped-test-scope` (see the ScopeBoundaries article).
public func withObserverHarness<Result>(_ harness: Harness, operation: () throws -> Result) rethrows -> Result {
    ScopeRouter.shared.enter(harness.registries)
    defer { ScopeRouter.shared.exit(harness.registries) }
    return try RegistryScope.$provider.withValue(harness.registries, operation: operation)
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
    return try await RegistryScope.$provider.withValue(
        harness.registries, operation: operation, isolation: isolation)
}

/// What `withObserverHarness` puts in place: one notification center for the
/// scope (as there is one default center), and new instrumented registries.
final class HarnessRegistries: RegistryProvider, @unchecked Sendable {
    private let recorder: Recorder
    /// Made in this order: how the router lists scopes, deterministically.
    let serial = HarnessRegistries.nextSerial()
    private let lock = Lock()
    private var scopeCenter: InstrumentedNotificationCenter?  // guarded by `lock`; made on first use
    /// The harness these registries belong to, for `Harness.current`; weak, as
    /// the harness holds its registries.
    private weak var _owner: Harness?  // guarded by `lock`

    var owner: Harness? {
        get { lock.withLock { _owner } }
        set { lock.withLock { _owner = newValue } }
    }

    private let posts: Harness.PostThread

    init(recorder: Recorder, posts: Harness.PostThread = .caller) {
        self.recorder = recorder
        self.posts = posts
        tracking = InstrumentedObservationTracking(recorder: recorder)
        observationTracker = tracking
        observations = InstrumentedObservations(recorder: recorder)
        tracking.scope = self
    }

    /// Records loops over `Observers.observations`.
    let observations: InstrumentedObservations

    /// Records `Observers.withObservationTracking` for the scope.
    let observationTracker: any ObservationTrackingBackend
    private let tracking: InstrumentedObservationTracking

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
    var routedCenterIfMade: InstrumentedNotificationCenter? { lock.withLock { scopeCenter } }

    /// What the scope's center still has registered.
    var routedRegistrationCount: Int { routedCenterIfMade?.registrationCount ?? 0 }

    /// The harness was released, so its test ended: its registrations stay in
    /// place, as the app's would, and nothing records any more.
    func finishRecording() {
        recorder.stopRecording()
    }

    /// Records that `work` reached this scope from outside its task.
    func recordEscape(
        _ work: RoutingCenter.Work, name: Notification.Name?, openScopes: Int, location: CodeLocation
    ) {
        let how = ExecutionContext.describeCurrent()
        recorder.record(
            Event(
                kind: .scopeEscape, flags: work == .registration ? .escapedRegistration : [],
                registry: defaultCenter.store.registryID, channel: recorder.intern(name?.rawValue ?? ""),
                registration: UInt32(how.rawValue) | UInt32(min(openScopes, 0xFF_FFFF)) << 8),
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

    /// Named "Observers.center" in reports.
    var defaultCenter: InstrumentedNotificationCenter {
        lock.withLock {
            if let scopeCenter { return scopeCenter }
            let center = InstrumentedNotificationCenter(
                recorder: recorder, name: "Observers.center",
                order: .registration, posts: posts)
            scopeCenter = center
            return center
        }
    }

    func observerList(name: String, hold: Hold, dedupe: Bool) -> any ObserverListBackend {
        InstrumentedObserverList(recorder: recorder, name: name, hold: hold, dedupe: dedupe, order: .registration)
    }

    func observedProperty(_ property: String, of owner: AnyObject, location: CodeLocation)
        -> any ObservedPropertyBackend
    {
        InstrumentedObservedProperty(
            recorder: recorder, property: property, owner: owner, order: .registration,
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
