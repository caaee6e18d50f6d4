import Foundation

/// One observer as a plain registry holds it, whatever its static type: a
/// class, or an existential such as `any ThemeObserver` (which Swift cannot
/// declare `weak` generically).
///
/// A weak reference says whether the observer is alive. Beside it sits an
/// unretained copy of the observer's own bits, loaded back only while the weak
/// reference has been turned into a strong one, so a delivery costs what a
/// hand-written `weak var observer: (any ThemeObserver)?` costs, with no
/// dynamic cast. Types too large for the inline copy fall back to a cast.
///
/// Inlinable, like the registries' hot paths, so app code gets it specialised
/// for its own observer type instead of paying for generic metadata per call.
@usableFromInline
struct HeldObserver<Observer> {
    @usableFromInline typealias Bits = (UInt, UInt, UInt, UInt)
    @usableFromInline var strong: Observer?
    @usableFromInline weak var weakObject: AnyObject?
    @usableFromInline var bits: Bits = (0, 0, 0, 0)
    /// The observer's identity, for removal and dedupe.
    @usableFromInline let identity: ObjectIdentifier

    @inlinable static var fitsInline: Bool {
        MemoryLayout<Observer>.size <= MemoryLayout<Bits>.size
            && MemoryLayout<Observer>.alignment <= MemoryLayout<Bits>.alignment
    }

    /// `object` is `observer` as a class instance (see ``classInstance(_:for:)``).
    @inlinable init(_ observer: Observer, object: AnyObject, hold: Hold) {
        identity = ObjectIdentifier(object)
        guard hold != .strong else {
            strong = observer
            return
        }
        weakObject = object
        if Self.fitsInline {
            // A bitwise copy takes no reference; `load()` only reads it back while
            // `weakObject` has just proved the observer alive.
            withUnsafeMutableBytes(of: &bits) { target in
                withUnsafeBytes(of: observer) { target.copyMemory(from: $0) }
            }
        }
    }

    /// The observer, or nil if it was held weakly and has deallocated.
    @inlinable func load() -> Observer? {
        if let strong { return strong }
        guard let object = weakObject else { return nil }
        guard Self.fitsInline else { return object as? Observer }
        // Copies of the bits alone: copying `self` would copy its weak reference.
        var bits = bits
        let observer = withUnsafeBytes(of: &bits) { $0.load(as: Observer.self) }
        withExtendedLifetime(object) {}
        return observer
    }

    @inlinable var isAlive: Bool { strong != nil || weakObject != nil }

    /// ``isAlive`` under a lock: a weakly held observer found alive goes to
    /// `held`, let go after unlocking, so its deinit (which may use the
    /// registry) never runs under the lock.
    @inlinable func isAlive(keeping held: inout [AnyObject]) -> Bool {
        if strong != nil { return true }
        guard let object = weakObject else { return false }
        held.append(object)
        return true
    }

    /// The observer, kept alive for a call; nil if it has deallocated. Costs
    /// what loading a `weak var` costs: one strong load, no copy of the value.
    @inlinable func pin() -> PinnedObserver<Observer>? {
        if let strong { return PinnedObserver(object: nil, bits: bits, observer: strong) }
        guard let object = weakObject else { return nil }
        guard Self.fitsInline else {
            return (object as? Observer).map { PinnedObserver(object: nil, bits: bits, observer: $0) }
        }
        return PinnedObserver(object: object, bits: bits, observer: nil)
    }
}

/// An observer held alive (by `object`, or as `observer`) for the length of a call.
@usableFromInline
struct PinnedObserver<Observer> {
    @usableFromInline let object: AnyObject?
    @usableFromInline let bits: HeldObserver<Observer>.Bits
    @usableFromInline let observer: Observer?

    @inlinable init(object: AnyObject?, bits: HeldObserver<Observer>.Bits, observer: Observer?) {
        self.object = object
        self.bits = bits
        self.observer = observer
    }

    /// Calls `body` with the observer, lent from the bits rather than copied
    /// (a copy would retain it again; `object` already keeps it alive).
    @inlinable func call<Result>(_ body: (Observer) throws -> Result) rethrows -> Result {
        if let observer { return try body(observer) }
        return try withExtendedLifetime(object) {
            try withUnsafeBytes(of: bits) { try body($0.baseAddress!.assumingMemoryBound(to: Observer.self).pointee) }
        }
    }
}

/// `value` as the class instance it is, or a precondition failure: observers
/// and delegates are objects (a value has no identity to remove or hold weakly).
@inlinable
func classInstance<Value>(_ value: Value, for registry: String) -> AnyObject {
    // A class type's value is the reference itself: no trip through the
    // runtime's dynamic cast (thousands of instructions per add and remove).
    if Value.self is AnyClass { return unsafeBitCast(value, to: AnyObject.self) }
    precondition(
        type(of: value as Any) is AnyClass,
        "\(registry) holds objects; \(type(of: value as Any)) is a value type")
    return value as AnyObject
}

extension NSLock {
    /// `withLock`, which Apple platforms only offer from their 2023 releases.
    @inlinable func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
