/// Records how objects observe each other, and finds the misuse.
///
/// A harness owns one recording. Get instrumented registries from it, use them
/// as you would Foundation's, then analyse:
///
/// ```swift
/// let harness = Harness()
/// let center = harness.notificationCenter()
/// let token = center.addObserver(forName: .cartDidChange, object: nil, queue: nil) { _ in
///     badge.refresh()
/// }
/// center.post(name: .cartDidChange, object: cart)
/// let report = harness.analyze()
/// ```
///
/// Each harness is independent: tests running in parallel do not share state.
public final class Harness: Sendable {
    let recorder: Recorder
    /// What `withObserverHarness` puts in place of the production registries.
    let registries: HarnessRegistries
    /// Names shown in reports.
    public let name: String

    /// Which thread its notification centers make the posts of the code under test on.
    let posts: PostThread

    /// A harness named `name` in reports. With `posts: .background` every
    /// post to its notification centers is made from a background thread
    /// (see ``PostThread``):
    ///
    /// ```swift
    /// let harness = Harness(posts: .background)
    /// ```
    public init(name: String = "harness", posts: PostThread = .caller) {
        self.name = name
        self.posts = posts
        recorder = Recorder()
        registries = HarnessRegistries(recorder: recorder, posts: posts)
        registries.owner = self
    }

    deinit {
        // Its test ended: registrations long-lived objects made stay in place,
        // and nothing more is recorded here.
        ScopeRouter.shared.harnessEnded(registries)
    }

    /// Whether this harness's test may be given work nothing else ties to a
    /// test when it is the only test running (XCTest runs one at a time). The
    /// `.observerHarness` trait turns it off: its tests may run in parallel,
    /// and a verdict must not depend on which tests run beside it.
    package var assumesOneTestAtATime: Bool {
        get { registries.infersSoleTest }
        set { registries.infersSoleTest = newValue }
    }

    /// The notification center `Observers.center` reaches inside
    /// `withObserverHarness(self)`: the same one every time.
    public var defaultCenter: InstrumentedNotificationCenter { registries.defaultCenter }

    // MARK: Registries

    /// A NotificationCenter drop-in that records and delivers by itself.
    public func notificationCenter(_ name: String = "center", order: DeliveryOrder = .registration)
        -> InstrumentedNotificationCenter
    {
        InstrumentedNotificationCenter(recorder: recorder, name: name, order: order, posts: posts)
    }

    /// A subject's own observer list (`addObserver` / `notify`), instrumented.
    /// `Observer` is typically the observer protocol:
    ///
    /// ```swift
    /// let observers = harness.observerList(of: (any ThemeObserver).self, hold: .weak)
    /// let store = ThemeStore(observers: observers)
    /// ```
    public func observerList<Observer>(
        _ name: String = "subject", of type: Observer.Type = Observer.self, hold: Hold = .strong,
        dedupe: Bool = false, order: DeliveryOrder = .registration
    ) -> ObserverList<Observer> {
        ObserverList(
            backend: InstrumentedObserverList(recorder: recorder, name: name, hold: hold, dedupe: dedupe, order: order),
            hold: hold, dedupe: dedupe)
    }

    /// A KVO-like observed property of `owner`, notifying on every set, instrumented.
    public func observedProperty<Value>(
        _ property: String, of owner: AnyObject, initialValue: Value, order: DeliveryOrder = .registration,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ObservedProperty<Value> {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        return ObservedProperty(
            backend: InstrumentedObservedProperty(
                recorder: recorder, property: property,
                owner: owner, order: order, location: location),
            initialValue: initialValue)
    }

    /// `owner`'s delegate slot, weak unless `hold` says otherwise, instrumented.
    public func delegateSlot<Delegate>(
        of owner: AnyObject, as type: Delegate.Type = Delegate.self, hold: Hold = .weak,
        name: String = "delegate",
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> DelegateSlot<Delegate> {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        return DelegateSlot(
            backend: InstrumentedDelegateSlot(
                recorder: recorder, name: name, owner: owner,
                protocol: Delegate.self, hold: hold, location: location),
            hold: hold)
    }

    // MARK: Objects

    /// Names an object in reports (`label`), and starts watching its lifetime
    /// and the tasks it keeps: an async loop running in one of them works for
    /// it (`async-observer-outlives-owner`). A tracked object is also who owns
    /// the block registrations whose tokens it keeps: found by looking into it
    /// while it lives, and noted when its deinit lets the tokens go, so
    /// analysing after the test let it go still names it.
    @discardableResult
    public func track(
        _ object: AnyObject, label: String? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> ObjectID {
        let id = recorder.trackedObjectID(
            for: object, label: label,
            site: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        watchHeldTasks(of: object, id: id)
        return ObjectID(rawValue: id)
    }

    /// Says the app has dropped its own reference to `object`: from here on it
    /// should deallocate, and a registration keeping it alive is a finding.
    public func noteReleased(
        _ object: AnyObject,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        // Tracked as `track` does: its deinit, about to come, names the tokens it holds.
        let id = recorder.trackedObjectID(for: object, label: nil, site: location)
        watchHeldTasks(of: object, id: id)
        recorder.asyncActivity.ownerReleased(id)
        recorder.recordRelease(id, at: location)
    }

    /// Records what a handler did to shared state, so one post that makes two
    /// receivers perform the same action shows as `broadcast-as-command`.
    /// It also tells `delivery-off-isolation` where the handler's work ran:
    /// `isolation` (the caller's `#isolation`, filled in for you) says whether
    /// work a handler handed to an actor (`Task { await self?.ingest(x) }`)
    /// ran on that actor.
    ///
    /// ```swift
    /// center.addObserver(forName: .addToCart, object: nil, queue: nil) { _ in
    ///     cart.count += 1
    ///     harness.noteAction(.increment("cart.count"))
    /// }
    /// ```
    public func noteAction(
        _ action: StateAction,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column, isolation: (any Actor)? = #isolation
    ) {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let (kind, key, value) = action.parts
        recorder.record(
            Event(
                kind: kind, channel: recorder.intern(key),
                registration: value.map { recorder.intern($0) } ?? 0), at: location, callerIsolation: isolation)
    }

    // MARK: Results

    /// Everything recorded so far. Deallocations of tracked objects are
    /// checked first, so the snapshot knows who is gone, and so is which
    /// tracked object holds each live registration token (its owner). A
    /// released object still alive is checked against its own block
    /// registrations (see `LeakPinning`).
    public func recording() -> Recording {
        // Nothing recorded (most tests of a suite under the trait): no object to sweep or search.
        if let empty = recorder.snapshotIfEmpty() { return empty }
        let deadline = TokenOwners.Deadline()
        TokenOwners.waitForDyingHolders(in: recorder, until: deadline)
        recorder.sweepDeallocations()
        searchHeldTasks()
        TokenOwners.record(in: recorder)
        ReferenceChains.record(in: recorder)
        LeakPinning.pin(in: recorder)
        // A holder whose deinit began on another thread after the wait above
        // was skipped by the search: the snapshot is taken only once no
        // holder is dying (checked under the same lock), so its tokens'
        // owners are the ones its deinit leaves.
        while true {
            if let snapshot = recorder.snapshot(unlessHolderDying: !deadline.hasPassed) { return snapshot }
            TokenOwners.waitForDyingHolders(in: recorder, until: deadline)
            recorder.sweepDeallocations()
            TokenOwners.record(in: recorder)
        }
    }

    /// The number of events recorded so far.
    public var eventCount: Int { recorder.eventCount }

    /// The memory the recording takes so far (for `harness-bench`).
    package var memoryFootprint: MemoryFootprint { recorder.memoryFootprint }
}

/// An object's identity within one recording: never an address.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public var description: String { "#\(rawValue)" }
}

/// A handler's action on shared state, for ``Harness/noteAction(_:fileID:filePath:line:column:isolation:)``.
public enum StateAction: Sendable, Hashable {
    /// Adds one to a counter: not idempotent.
    case increment(String)
    /// Writes a value (any text, typically JSON): idempotent for equal values.
    case set(String, value: String)
    /// Appends a value to a list: not idempotent.
    case append(String, value: String)
    /// Reads a key; its value is part of the outcome order checks compare.
    case read(String)

    var parts: (EventKind, String, String?) {
        switch self {
        case .increment(let key): (.increment, key, nil)
        case .set(let key, let value): (.stateSet, key, value)
        case .append(let key, let value): (.append, key, value)
        case .read(let key): (.read, key, nil)
        }
    }
}
