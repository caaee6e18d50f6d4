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
/// `withDependencies`, so parallel tests never see each other's registries. It
/// reaches:
/// - code called synchronously inside the scope, and `async` code it awaits;
/// - `Task { … }` started inside it (child tasks inherit task-local values).
///
/// It does not reach work that leaves the task:
/// - blocks sent through `DispatchQueue.async`, `OperationQueue`, a timer or a
///   run loop: they run with the production registries;
/// - `Task.detached { … }`.
///
/// Registries are resolved when read: an object that stores `Observers.center`
/// or makes an ``ObserverList`` keeps the registries in place when it did so.
/// Create the objects under test inside the scope, or inject the registries.
public enum Observers {
    /// Stands in for `NotificationCenter.default`: Foundation's default center
    /// in the app, the harness's center inside `withObserverHarness`.
    public static var center: any NotificationCenterProtocol {
        if let scope = RegistryScope.provider { return scope.center }
        return NotificationCenter.default
    }
}

/// What a test puts in place of the production registries (the harness does).
package protocol RegistryProvider: Sendable {
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
    @TaskLocal package static var provider: (any RegistryProvider)?
}

// The instrumented side of each registry. Observers travel as `AnyObject`; the
// generic front ends cast them back (only on this path: the production path
// keeps each observer's static type).

package protocol ObserverListBackend: AnyObject, Sendable {
    func add(_ observer: AnyObject, channel: String, hold: Hold, location: CodeLocation)
    func remove(_ observer: AnyObject, channel: String?, location: CodeLocation)
    func notify(channel: String, location: CodeLocation, _ body: (AnyObject) -> Void)
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
