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
struct HeldObserver<Observer> {
    private typealias Bits = (UInt, UInt, UInt, UInt)
    private var strong: Observer?
    private weak var weakObject: AnyObject?
    private var bits: Bits = (0, 0, 0, 0)
    /// The observer's identity, for removal and dedupe.
    let identity: ObjectIdentifier

    private static var fitsInline: Bool {
        MemoryLayout<Observer>.size <= MemoryLayout<Bits>.size
            && MemoryLayout<Observer>.alignment <= MemoryLayout<Bits>.alignment
    }

    /// `object` is `observer` as a class instance (see ``classInstance(_:)``).
    init(_ observer: Observer, object: AnyObject, hold: Hold) {
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
    func load() -> Observer? {
        if let strong { return strong }
        guard let object = weakObject else { return nil }
        guard Self.fitsInline else { return object as? Observer }
        return withExtendedLifetime(object) { withUnsafeBytes(of: bits) { $0.load(as: Observer.self) } }
    }

    /// Whether this is `object`, alive.
    func isAlive(_ object: ObjectIdentifier) -> Bool {
        identity == object && (strong != nil || weakObject != nil)
    }

    var isAlive: Bool { strong != nil || weakObject != nil }
}

/// `value` as the class instance it is, or a precondition failure: observers
/// and delegates are objects (a value has no identity to remove or hold weakly).
func classInstance<Value>(_ value: Value, for registry: String) -> AnyObject {
    precondition(type(of: value as Any) is AnyClass,
                 "\(registry) holds objects; \(type(of: value as Any)) is a value type")
    return value as AnyObject
}

extension NSLock {
    /// `withLock`, which Apple platforms only offer from their 2023 releases.
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
