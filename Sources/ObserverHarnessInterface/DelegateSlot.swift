import Foundation

/// An object's delegate: the `weak var delegate` of the delegation pattern,
/// with typed calls.
///
/// ```swift
/// @MainActor protocol ProductCellDelegate: AnyObject {
///     func productCellDidTapAddToCart(_ cell: ProductCell)
/// }
///
/// final class ProductCell {
///     private(set) lazy var delegate = DelegateSlot<any ProductCellDelegate>(of: self)
///     func tapAddToCart() { delegate.call { $0.productCellDidTapAddToCart(self) } }
/// }
/// cell.delegate.set(screen)
/// ```
///
/// In the app it is a plain slot that records nothing; made inside
/// `withObserverHarness` (or by `harness.delegateSlot(of:as:)`) it is the
/// harness's instrumented one, which records who was set, replaced and called
/// (at the caller's line), and whether the delegate was alive.
///
/// A delegate is an object: declare the protocol `AnyObject`, as a `weak var
/// delegate` requires. The generic parameter cannot say so (`any P` is not
/// itself a class), so setting a value (a struct conforming to a protocol
/// that is not class-bound) stops the program with a precondition failure,
/// with or without a harness.
public final class DelegateSlot<Delegate>: @unchecked Sendable {
    @usableFromInline let hold: Hold
    private let backend: (any DelegateSlotBackend)?
    @usableFromInline let isInstrumented: Bool
    @usableFromInline let lock = NSLock()
    @usableFromInline var current: HeldObserver<Delegate>?  // guarded by `lock`

    /// `owner`'s delegate slot, weak unless `hold` says otherwise; `name` is how
    /// reports name it when it is instrumented.
    public init(
        of owner: AnyObject, as type: Delegate.Type = Delegate.self, hold: Hold = .weak,
        name: String = "delegate",
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        self.hold = hold
        backend = RegistryScope.provider?.delegateSlot(
            name: name, of: owner, protocol: Delegate.self, hold: hold,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        isInstrumented = backend != nil
    }

    /// An instrumented slot (the harness makes these).
    package init(backend: any DelegateSlotBackend, hold: Hold) {
        self.hold = hold
        self.backend = backend
        isInstrumented = true
    }

    /// The delegate, if set and alive.
    public var delegate: Delegate? {
        if let backend { return backend.delegate.map { $0 as! Delegate } }
        return lock.locked { current?.load() }
    }

    /// Assigns the delegate (`nil` clears it). `isolation` records the
    /// caller's actor for the harness.
    public func set(
        _ delegate: Delegate?,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column, isolation: (any Actor)? = #isolation
    ) {
        let object = delegate.map { classInstance($0, for: "DelegateSlot") }
        if let backend {
            backend.set(
                object,
                location: CodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column,
                    isolation: isolation))
            return
        }
        let held = delegate.flatMap { delegate in object.map { HeldObserver(delegate, object: $0, hold: hold) } }
        // The previous delegate may go with its last reference here, and its
        // deinit may use this slot: it is let go after unlocking.
        let previous = lock.locked { () -> HeldObserver<Delegate>? in
            defer { current = held }
            return current
        }
        withExtendedLifetime(previous) {}
    }

    /// Calls the delegate, if it is set and alive: `body` gets it and its result
    /// is returned; nil when there was no delegate to call.
    ///
    /// ```swift
    /// let shouldSelect = delegate.call { $0.tableView(self, shouldSelectRowAt: index) } ?? true
    /// ```
    @inlinable @discardableResult
    public func call<Result>(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column,
        _ body: (Delegate) -> Result
    ) -> Result? {
        if isInstrumented {
            return instrumentedCall(
                location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
                body)
        }
        // Pinned under the lock: copying `current` out would copy its weak reference.
        return lock.locked { current?.pin() }?.call(body)
    }

    /// The earlier form, which named the delegate method by hand: the harness
    /// now names the call by the delegate protocol, and findings point at the caller's line.
    @available(*, deprecated, message: "drop the method name: call(_:) records the call at the caller's line")
    @discardableResult
    public func call<Result>(
        _ method: String,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column,
        _ body: (Delegate) -> Result
    ) -> Result? {
        call(fileID: fileID, filePath: filePath, line: line, column: column, body)
    }

    @usableFromInline
    func instrumentedCall<Result>(location: CodeLocation, _ body: (Delegate) -> Result) -> Result? {
        var result: Result?
        // The backend hands back only the object `set` gave it, which was a `Delegate`.
        backend?.call(location: location) { result = body($0 as! Delegate) }
        return result
    }
}
