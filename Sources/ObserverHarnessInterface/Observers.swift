import Foundation

/// The registries app code uses when nothing is injected.
///
/// In the app, ``center`` is `NotificationCenter.default`, and new
/// ``ObserverList``s, ``ObservedProperty``s and ``DelegateSlot``s are plain
/// implementations that record nothing. Inside a test's
/// `withObserverHarness(harness) { … }` they are the harness's instrumented
/// registries instead, for that scope only:
///
/// ```swift
/// // app code: one line changed from `NotificationCenter.default.post(…)`
/// Observers.center.post(name: .cartDidChange, object: cart)
/// ```
///
/// The scope is a task-local value, as with swift-dependencies'
/// `withDependencies`, so parallel tests never see each other's registries.
/// Work that leaves the scope's task — a `DispatchQueue` block, an
/// `OperationQueue`, a `Thread`, a timer, `Task.detached` — still talks to the
/// same center, as in the app, and is recorded in the test it is tied to (the
/// center an object stored when the test made it, a sender only that test has
/// used); work tied to no test reaches every running test, judged by none.
/// Carry the scope across such a hop with ``withEscapedScope(_:)``.
///
/// Storing `Observers.center` is safe: under a harness it is one router that
/// finds the test at each call, and never pins a finished test's harness.
///
/// ``ObserverList``s, ``ObservedProperty``s and ``DelegateSlot``s belong to
/// the object that makes them: one made inside the scope is instrumented,
/// one made outside it is plain.
public enum Observers {
    /// Stands in for `NotificationCenter.default`: Foundation's default center
    /// in the app, the harness's router inside `withObserverHarness`.
    public static var center: any NotificationCenterProtocol {
        if let scope = RegistryScope.provider { return scope.center }
        return RegistryScope.processCenter ?? NotificationCenter.default
    }

    /// Carries the current registry scope across work that leaves the task:
    /// call ``EscapedObserverScope/yield(_:)`` in the escaping work, and it
    /// runs with the scope that was in place here. In the app, with no scope,
    /// it only runs the work.
    ///
    /// ```swift
    /// Observers.withEscapedScope { escaped in
    ///     DispatchQueue.global().async {
    ///         escaped.yield { Observers.center.post(name: .scanFinished, object: nil) }
    ///     }
    /// }
    /// ```
    public static func withEscapedScope<Result>(_ body: (EscapedObserverScope) throws -> Result) rethrows -> Result {
        try body(EscapedObserverScope(provider: RegistryScope.provider))
    }

    /// The `async` form of ``withEscapedScope(_:)``.
    public static func withEscapedScope<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (EscapedObserverScope) async throws -> Result
    ) async rethrows -> Result {
        try await body(EscapedObserverScope(provider: RegistryScope.provider))
    }
}

/// The registry scope of the place it was made, for work that runs elsewhere
/// (see ``Observers/withEscapedScope(_:)``).
public struct EscapedObserverScope: Sendable {
    let provider: (any RegistryProvider)?

    /// Runs `operation` with the captured scope in place.
    public func yield<Result>(_ operation: () throws -> Result) rethrows -> Result {
        try RegistryScope.withProvider(provider, operation: operation)
    }

    /// The `async` form of ``yield(_:)``.
    public func yield<Result>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await RegistryScope.withProvider(provider, isolation: isolation, operation: operation)
    }
}

/// What a test puts in place of the production registries (the harness does).
/// A class: the router asks "which test's?" on every call, and a class cast
/// is cheap where an existential cast is not.
package protocol RegistryProvider: AnyObject, Sendable {
    var center: any NotificationCenterProtocol { get }
    func observerList(name: String, hold: Hold, dedupe: Bool) -> any ObserverListBackend
    func observedProperty(_ property: String, of owner: AnyObject, location: CodeLocation)
        -> any ObservedPropertyBackend
    func delegateSlot(name: String, of owner: AnyObject, protocol: Any.Type, hold: Hold, location: CodeLocation)
        -> any DelegateSlotBackend
}

package enum RegistryScope {
    /// The registries in place for the current task (or thread, outside tasks);
    /// nil means production.
    package static var provider: (any RegistryProvider)? { slot.provider }

    /// What the task-local holds: a struct, because each read copies the value
    /// through its type's value witness, and the runtime's generic one for an
    /// optional existential costs some 150 instructions (every post routed
    /// under a harness reads it); this struct's is a retain.
    package struct Slot: Sendable {
        let provider: (any RegistryProvider)?
    }

    @TaskLocal private static var slot = Slot(provider: nil)

    /// Runs `operation` with `provider` in place.
    package static func withProvider<Result>(
        _ provider: (any RegistryProvider)?, operation: () throws -> Result
    ) rethrows -> Result {
        try $slot.withValue(Slot(provider: provider), operation: operation)
    }

    /// The `async` form of ``withProvider(_:operation:)``.
    package static func withProvider<Result>(
        _ provider: (any RegistryProvider)?, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $slot.withValue(Slot(provider: provider), operation: operation, isolation: isolation)
    }

    private static let processLock = NSLock()
    nonisolated(unsafe) private static var installedProcessCenter: (any NotificationCenterProtocol)?

    /// What `Observers.center` is outside every scope once a harness has
    /// opened one in this process (its router); nil in the app. Set once.
    package static var processCenter: (any NotificationCenterProtocol)? {
        get { processLock.withLock { installedProcessCenter } }
        set { processLock.withLock { installedProcessCenter = newValue } }
    }
}

// The instrumented side of each registry. Observers travel as `AnyObject`; the
// generic front ends cast them back (only on this path: the production path
// keeps each observer's static type).

package protocol ObserverListBackend: AnyObject, Sendable {
    func add(_ observer: AnyObject, channel: String, hold: Hold, location: CodeLocation)
    func remove(_ observer: AnyObject, channel: String?, location: CodeLocation)
    /// Ends every registration on `channel` (every channel when nil).
    func removeAll(channel: String?, location: CodeLocation)
    func notify(channel: String, location: CodeLocation, _ body: (AnyObject) -> Void)
    /// The live observers a `notify` on `channel` would reach now, in
    /// registration order; records nothing.
    func observers(channel: String) -> [AnyObject]
    var count: Int { get }
}

package protocol ObservedPropertyBackend: AnyObject, Sendable {
    /// Records the set and delivers `change` (an `ObservedProperty<Value>.Change`).
    func didSet(_ change: Any, location: CodeLocation)
    func addObserver(
        _ observer: AnyObject, hold: Hold, location: CodeLocation,
        handler: @escaping (AnyObject, Any) -> Void)
    func removeObserver(_ observer: AnyObject, location: CodeLocation)
    /// Starts a block observation owned by `token`; returns what ends it:
    /// called with the caller's location by `invalidate`, with nil when the
    /// token deallocates.
    func observe(
        token: AnyObject, location: CodeLocation,
        handler: @escaping (Any) -> Void
    ) -> (@Sendable (CodeLocation?) -> Void)?
}

package protocol DelegateSlotBackend: AnyObject, Sendable {
    var delegate: AnyObject? { get }
    func set(_ delegate: AnyObject?, location: CodeLocation)
    func call(location: CodeLocation, _ body: (AnyObject) -> Void)
}
