import Foundation

/// A KVO-like observed property: a value that notifies its observers on every
/// set. `owner` is the object the property belongs to, so the harness can
/// catch an observation that outlives it.
///
/// ```swift
/// final class CoverView {
///     private(set) lazy var image = ObservedProperty("image", of: self, initialValue: Data?.none)
/// }
/// cover.image.addObserver(self) { observer, change in observer.hideSpinner() }  // unowned, like KVO
/// cover.image.set(downloaded)
/// cover.image.removeObserver(self)
/// ```
///
/// In the app it is a plain, thread-safe property that records nothing; made
/// inside `withObserverHarness` (or by `harness.observedProperty(_:of:initialValue:)`)
/// it is the harness's instrumented one. Observers are called on the setting
/// thread, after the property's lock is released.
public final class ObservedProperty<Value>: @unchecked Sendable {
    /// The old and new value of one set.
    public struct Change {
        public let oldValue: Value
        public let newValue: Value
    }

    private enum Handler {
        case observer(HeldObserver<AnyObject>, (AnyObject, Change) -> Void)
        case token(ObjectIdentifier, (Change) -> Void)
    }

    private let backend: (any ObservedPropertyBackend)?
    private let lock = NSLock()
    private var storage: Value  // guarded by `lock`
    private var handlers: [Handler] = []  // guarded by `lock`

    /// A property named `property` of `owner`.
    public init(
        _ property: String, of owner: AnyObject, initialValue: Value,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        storage = initialValue
        backend = RegistryScope.provider?.observedProperty(
            property, of: owner, location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// An instrumented property (the harness makes these).
    package init(backend: any ObservedPropertyBackend, initialValue: Value) {
        storage = initialValue
        self.backend = backend
    }

    /// The current value.
    public var value: Value { lock.locked { storage } }

    /// Sets the value and notifies every observer.
    public func set(
        _ newValue: Value,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let (change, snapshot) = lock.locked {
            defer { storage = newValue }
            return (Change(oldValue: storage, newValue: newValue), handlers)
        }
        if let backend {
            backend.didSet(
                change, location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
            return
        }
        for handler in snapshot {
            switch handler {
            case .observer(let observer, let handler):
                if let observer = observer.load() { handler(observer, change) }
            case .token(_, let handler):
                handler(change)
            }
        }
    }

    /// KVO's `addObserver(_:forKeyPath:)`: `observer` gets `handler(observer, change)`
    /// on every set until removed. It is held `unowned` by default, as KVO holds
    /// it: the harness reports a set after it deallocated (KVO's crash).
    /// `isolation` records the caller's actor for the harness.
    public func addObserver<Observer: AnyObject>(
        _ observer: Observer, hold: Hold = .unowned,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: (any Actor)? = #isolation,
        handler: @escaping (Observer, Change) -> Void
    ) {
        if let backend {
            backend.addObserver(
                observer, hold: hold,
                location: CodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column,
                    isolation: isolation)
            ) {
                // The backend hands back the observer added here, and the change `set` gave it.
                handler(unsafeDowncast($0, to: Observer.self), $1 as! Change)
            }
            return
        }
        let held = HeldObserver<AnyObject>(observer, object: observer, hold: hold)
        lock.locked {
            handlers.append(.observer(held) { handler(unsafeDowncast($0, to: Observer.self), $1) })
        }
    }

    /// KVO's `removeObserver(_:forKeyPath:)`.
    public func removeObserver(
        _ observer: AnyObject,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        if let backend {
            backend.removeObserver(
                observer,
                location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
            return
        }
        let identity = ObjectIdentifier(observer)
        // What goes (handlers and their captures, observers read from weak
        // references) is let go after unlocking: a deinit may use this property.
        var alive: [AnyObject] = []
        let before = lock.locked { () -> [Handler] in
            defer {
                handlers.removeAll {
                    guard case .observer(let held, _) = $0 else { return false }
                    return held.identity == identity || !held.isAlive(keeping: &alive)
                }
            }
            return handlers
        }
        withExtendedLifetime((before, alive)) {}
    }

    /// The block form (`observe(_:changeHandler:)`): like
    /// `NSKeyValueObservation`, the observation ends when the token is
    /// invalidated or deallocated, so keep it.
    ///
    /// ```swift
    /// observation = cover.image.observe { change in spinner.isHidden = change.newValue != nil }
    /// ```
    public func observe(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column, isolation: (any Actor)? = #isolation,
        _ handler: @escaping (Change) -> Void
    ) -> PropertyObservation {
        let token = PropertyObservation()
        let location = CodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column,
            isolation: isolation)
        if let backend {
            token.end = backend.observe(token: token, location: location) { handler($0 as! Change) }
            return token
        }
        let identity = ObjectIdentifier(token)
        lock.locked { handlers.append(.token(identity, handler)) }
        token.end = { [weak self] _ in
            guard let self else { return }
            // The handler may hold the last reference to what it captured, whose
            // deinit may use this property: the old list is let go after unlocking.
            let before = lock.locked { () -> [Handler] in
                defer { self.handlers.removeAll { if case .token(identity, _) = $0 { true } else { false } } }
                return self.handlers
            }
            withExtendedLifetime(before) {}
        }
        return token
    }
}

/// Ends a block observation of an ``ObservedProperty`` when invalidated or
/// deallocated.
///
/// ```swift
/// let observation = cover.image.observe { _ in … }
/// observation.invalidate()
/// ```
public final class PropertyObservation: @unchecked Sendable {
    // Set once before the token is returned; cleared (under no contention:
    // invalidate is the owner's call) when the observation ends.
    fileprivate var end: (@Sendable (CodeLocation?) -> Void)?

    /// Ends the observation.
    public func invalidate(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        end?(CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        end = nil
    }

    deinit { end?(nil) }
}
