import Foundation

/// A subject's list of observers: the hand-written `addObserver` / `notify`
/// pattern, generic over the observer protocol.
///
/// ```swift
/// protocol ThemeObserver: AnyObject { func themeDidChange(_ theme: Theme) }
///
/// final class ThemeStore {
///     private let observers = ObserverList<any ThemeObserver>(hold: .weak)
///     func addObserver(_ observer: any ThemeObserver) { observers.add(observer) }
///     func removeObserver(_ observer: any ThemeObserver) { observers.remove(observer) }
///     func apply(_ theme: Theme) { observers.notify { $0.themeDidChange(theme) } }
/// }
/// ```
///
/// In the app it is a plain, thread-safe list that records nothing. Made inside
/// `withObserverHarness` (or by `harness.observerList(of:)`) it is the
/// harness's instrumented list, which records every add, remove and delivery.
/// `hold` says how it keeps observers (``Hold``); `dedupe` makes a second
/// identical `add` a no-op, as some hand-written lists do. `channel`s split one
/// list into named streams. Observers are called on the notifying thread, after
/// the list's lock is released, so an observer may add or remove during `notify`:
/// each `notify` calls the observers registered when it started (one removed
/// meanwhile is still called, if alive; one added is not), here and under the
/// harness alike. `add`, `remove` and the duplicate check cost O(1) amortised;
/// observers that died in a weak list are dropped lazily.
public final class ObserverList<Observer>: @unchecked Sendable {
    @usableFromInline let hold: Hold
    @usableFromInline let dedupe: Bool
    private let backend: (any ObserverListBackend)?
    @usableFromInline let isInstrumented: Bool
    @usableFromInline let lock = NSLock()
    // All guarded by `lock`.
    @usableFromInline var entries: [ObserverListEntry] = []
    /// Each identity's last entry, heading its chain through `entries`.
    @usableFromInline var positions: [ObjectIdentifier: Int] = [:]
    /// Entries not yet removed (some may have died since).
    @usableFromInline var activeEntries = 0
    /// `entries.count` at which removed and dead entries are dropped: twice
    /// the active entries at the last compaction, so each add pays O(1) for it.
    @usableFromInline var compactionThreshold = 16
    /// Whether `Observer` is a class-bound existential (`any P` where
    /// `P: AnyObject`), whose first word is the object: learnt from the first
    /// observer given, so later ones skip the runtime's casts. Guarded by `lock`.
    @usableFromInline var observerIsClassExistential: Bool?

    /// A list; `name` is how reports name it when it is instrumented.
    public init(
        _ name: String = "observers", of type: Observer.Type = Observer.self, hold: Hold = .strong,
        dedupe: Bool = false
    ) {
        self.hold = hold
        self.dedupe = dedupe
        backend = RegistryScope.provider?.observerList(name: name, hold: hold, dedupe: dedupe)
        isInstrumented = backend != nil
    }

    /// An instrumented list (the harness makes these).
    package init(backend: any ObserverListBackend, hold: Hold, dedupe: Bool) {
        self.hold = hold
        self.dedupe = dedupe
        self.backend = backend
        isInstrumented = true
    }

    // The plain paths are inlinable so app code gets them specialised for its
    // observer type; the instrumented paths are not, and need not be.

    /// Adds `observer` on `channel`; `hold` overrides the list's own.
    /// `isolation` records the caller's actor for the harness.
    @inlinable
    public func add(
        _ observer: Observer, channel: String = "", hold: Hold? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column, isolation: (any Actor)? = #isolation
    ) {
        if isInstrumented {
            return instrumentedAdd(
                object(of: observer), channel: channel, hold: hold ?? self.hold,
                location: CodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column,
                    isolation: isolation))
        }
        // No closures and no copies of entries on this path: a debug build
        // (what `swift test` runs) pays for each.
        // Observers read from weak references are let go after unlocking (see
        // `ObserverListEntry.isAlive(keeping:)`).
        var held: [AnyObject] = []
        lock.lock()
        defer {
            lock.unlock()
            withExtendedLifetime(held) {}
        }
        let object = objectLocked(of: observer)
        let identity = ObjectIdentifier(object)
        if entries.count >= compactionThreshold { compact(keeping: &held) }
        let last = positions[identity] ?? -1
        if dedupe, last >= 0, hasLiveEntry(channel: channel, from: last, keeping: &held) { return }
        positions[identity] = entries.count
        entries.append(
            ObserverListEntry(
                observer, object: object, hold: hold ?? self.hold, channel: channel, previousWithSameIdentity: last))
        activeEntries += 1
    }

    /// Removes `observer` from `channel`, or from every channel when `nil`.
    @inlinable
    public func remove(
        _ observer: Observer, channel: String? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        if isInstrumented {
            return instrumentedRemove(
                object(of: observer), channel: channel,
                location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        }
        // Strongly held observers are let go after unlocking: a deinit may use the list.
        var released: [AnyObject] = []
        lock.lock()
        let identity = ObjectIdentifier(objectLocked(of: observer))
        if let last = positions[identity] {
            entries.withUnsafeMutableBufferPointer { entries in
                var position = last
                while position >= 0 {
                    if !entries[position].isRemoved, channel == nil || entries[position].channel == channel {
                        entries[position].isRemoved = true
                        if let strong = entries[position].strongObject { released.append(strong) }
                        entries[position].strongObject = nil
                        activeEntries -= 1
                    }
                    position = entries[position].previousWithSameIdentity
                }
            }
        }
        lock.unlock()
        withExtendedLifetime(released) {}
    }

    /// Removes every observer from `channel`, or from every channel when
    /// `nil`: what a subject does when it shuts down, or a screen when it
    /// leaves. A `notify` already running still calls those it started with.
    /// Under the harness, each registration ended is recorded as removed here.
    public func removeAll(
        channel: String? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        if let backend {
            return backend.removeAll(
                channel: channel,
                location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        }
        // Strongly held observers (and the old entries) are let go after
        // unlocking: a deinit may use the list.
        var released: [AnyObject] = []
        var old: [ObserverListEntry] = []
        lock.lock()
        if let channel {
            entries.withUnsafeMutableBufferPointer { entries in
                for index in entries.indices where !entries[index].isRemoved && entries[index].channel == channel {
                    entries[index].isRemoved = true
                    if let strong = entries[index].strongObject { released.append(strong) }
                    entries[index].strongObject = nil
                    activeEntries -= 1
                }
            }
        } else {
            swap(&old, &entries)
            positions.removeAll()
            activeEntries = 0
            compactionThreshold = 16
        }
        lock.unlock()
        withExtendedLifetime((released, old)) {}
    }

    /// Calls `body` on every live observer of `channel`, in the order they were added.
    @inlinable
    public func notify(
        channel: String = "",
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column, _ body: (Observer) -> Void
    ) {
        if isInstrumented {
            return instrumentedNotify(
                channel: channel,
                location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
                body)
        }
        // Who is called is fixed when the post starts: an observer removed by
        // a handler meanwhile is still called, one added is not.
        withSnapshot { Self.forEachLive(in: $0, channel: channel, body) }
    }

    /// Runs `body` on a copy of the entries taken under the lock, then takes
    /// the lock once more before letting the copy go: once it goes, `remove`
    /// may write those entries in place, and the lock orders `body`'s reads
    /// before that write where ThreadSanitizer can see it (the copy's
    /// uniqueness check alone is not an order it knows).
    @inlinable
    func withSnapshot<T>(_ body: ([ObserverListEntry]) -> T) -> T {
        let snapshot = lock.locked { entries }
        let result = body(snapshot)
        lock.lock()
        lock.unlock()
        withExtendedLifetime(snapshot) {}
        return result
    }

    /// Calls `body` on each live, unremoved observer of `channel` in
    /// `snapshot`, in order: whom `notify` calls, and what `observers` lists.
    @inlinable
    static func forEachLive(in snapshot: [ObserverListEntry], channel: String, _ body: (Observer) -> Void) {
        // Read each entry in place: copying one would copy its weak reference.
        snapshot.withUnsafeBufferPointer { entries in
            for index in entries.indices where !entries[index].isRemoved && entries[index].channel == channel {
                // Kept alive for the call: a weak entry's observer may otherwise go during it.
                guard let object = entries[index].strongObject ?? entries[index].weakObject else { continue }
                if ObserverListEntry.fitsInline(Observer.self) {
                    // The observer lent from its bits, which `object` keeps valid.
                    withUnsafeBytes(of: entries[index].bits) {
                        body($0.baseAddress!.assumingMemoryBound(to: Observer.self).pointee)
                    }
                } else if let observer = object as? Observer {
                    body(observer)
                }
                withExtendedLifetime(object) {}
            }
        }
    }

    /// The observers `notify(channel:)` would call now, in the order it calls
    /// them in the app: those added on `channel`, not removed, and alive (an
    /// observer added twice appears twice). A copy: the list may change
    /// afterwards. Under the harness it is read without being recorded, in
    /// registration order (a harness exploring other delivery orders may call
    /// them in another).
    ///
    /// ```swift
    /// var themeObservers: [any ThemeObserver] { observers.observers() }
    /// ```
    public func observers(channel: String = "") -> [Observer] {
        if let backend {
            // The backend holds only objects `add` took as `Observer`s.
            return backend.observers(channel: channel).compactMap { $0 as? Observer }
        }
        var result: [Observer] = []
        withSnapshot { Self.forEachLive(in: $0, channel: channel) { result.append($0) } }
        return result
    }

    /// How many registrations are active (live observers, on any channel).
    public var count: Int {
        if let backend { return backend.count }
        // Counted from a copy, outside the lock: a weak read takes a strong
        // reference, which must not be the last one let go under the lock.
        return withSnapshot { entries in
            var count = 0
            for entry in entries where !entry.isRemoved && entry.isAlive { count += 1 }
            return count
        }
    }

    /// `observer` as the class instance it is (see ``classInstance(_:for:)``).
    @inlinable
    func object(of observer: Observer) -> AnyObject {
        lock.lock()
        defer { lock.unlock() }
        return objectLocked(of: observer)
    }

    /// ``object(of:)`` with the lock held.
    @inlinable
    func objectLocked(of observer: Observer) -> AnyObject {
        let isClassExistential = observerIsClassExistential
        if isClassExistential == true {
            return withUnsafeBytes(of: observer) { $0.load(as: AnyObject.self) }
        }
        let object = classInstance(observer, for: "ObserverList")
        if isClassExistential == nil {
            // Opaque existentials take at least 32 bytes; a class-bound one is
            // the reference and up to two witness tables.
            let learnt =
                MemoryLayout<Observer>.size <= 24 && MemoryLayout<Observer>.size > 8
                && type(of: observer as Any) != Observer.self
                && withUnsafeBytes(of: observer) { $0.load(as: UnsafeRawPointer.self) }
                    == UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            observerIsClassExistential = learnt
        }
        return object
    }

    // MARK: The plain list's bookkeeping (lock held)

    /// Whether a live entry on `channel` is in the identity chain from
    /// `position`. A dead one is not: its identity may now be another
    /// object's, which is then no duplicate.
    @inlinable
    func hasLiveEntry(channel: String, from position: Int, keeping held: inout [AnyObject]) -> Bool {
        entries.withUnsafeBufferPointer { entries in
            var position = position
            while position >= 0 {
                if !entries[position].isRemoved, entries[position].channel == channel,
                    entries[position].isAlive(keeping: &held)
                {
                    return true
                }
                position = entries[position].previousWithSameIdentity
            }
            return false
        }
    }

    /// Drops removed and dead entries and rebuilds the identity chains; the
    /// live weakly held observers go to `held`, let go after unlocking.
    @inlinable
    func compact(keeping held: inout [AnyObject]) {
        var kept: [ObserverListEntry] = []
        kept.reserveCapacity(activeEntries)
        positions.removeAll(keepingCapacity: true)
        entries.withUnsafeBufferPointer { old in
            for index in old.indices where !old[index].isRemoved && old[index].isAlive(keeping: &held) {
                let identity = old[index].identity
                var entry = old[index]
                entry.previousWithSameIdentity = positions[identity] ?? -1
                positions[identity] = kept.count
                kept.append(entry)
            }
        }
        entries = kept
        activeEntries = kept.count
        compactionThreshold = max(16, 2 * kept.count)
    }

    @usableFromInline
    func instrumentedAdd(_ object: AnyObject, channel: String, hold: Hold, location: CodeLocation) {
        backend?.add(object, channel: channel, hold: hold, location: location)
    }

    @usableFromInline
    func instrumentedRemove(_ object: AnyObject, channel: String?, location: CodeLocation) {
        backend?.remove(object, channel: channel, location: location)
    }

    @usableFromInline
    func instrumentedNotify(channel: String, location: CodeLocation, _ body: (Observer) -> Void) {
        // The backend hands back only objects added through `add`, which took an `Observer`.
        guard lock.locked({ observerIsClassExistential }) == true, ObserverListEntry.fitsInline(Observer.self)
        else {
            backend?.notify(channel: channel, location: location) { body($0 as! Observer) }
            return
        }
        // A class-bound existential is the object followed by its class's
        // witness tables: the runtime's cast (thousands of instructions in a
        // debug build) runs once per class in a row, and the next object of
        // that class gets the same tables after its own reference.
        var lastClass: ObjectIdentifier?
        var bits: ObserverListEntry.Bits = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bits) { slot in
            let observer = slot.baseAddress!.assumingMemoryBound(to: Observer.self)
            let objectWord = slot.baseAddress!.assumingMemoryBound(to: UInt.self)
            backend?.notify(channel: channel, location: location) { object in
                let objectClass = ObjectIdentifier(type(of: object))
                if objectClass != lastClass {
                    withUnsafeBytes(of: object as! Observer) { slot.copyMemory(from: $0) }
                    lastClass = objectClass
                }
                // Unretained, as in the plain list: `object`, which the backend
                // holds for this call, keeps it valid.
                objectWord.pointee = unsafeBitCast(object, to: UInt.self)
                body(observer.pointee)
            }
        }
    }
}

/// One registration in a plain ``ObserverList``. Not generic, so a debug
/// build (what `swift test` runs) does not look up its type's metadata on
/// every access: the observer is kept as an object (strongly or weakly) plus
/// an unretained copy of its own bits, which a call reads back while the
/// object is held (see ``HeldObserver``, which does the same per type).
@usableFromInline
struct ObserverListEntry {
    @usableFromInline typealias Bits = (UInt, UInt, UInt, UInt)
    @usableFromInline var strongObject: AnyObject?
    @usableFromInline weak var weakObject: AnyObject?
    @usableFromInline var bits: Bits = (0, 0, 0, 0)
    @usableFromInline let identity: ObjectIdentifier
    @usableFromInline var channel: String
    /// Removed, or found dead: skipped until the next compaction drops it.
    @usableFromInline var isRemoved = false
    /// The position of the previous entry with the same identity, or -1:
    /// the chain the list's `positions` starts, so removal and the duplicate
    /// check visit only this observer's entries.
    @usableFromInline var previousWithSameIdentity: Int

    /// Whether an `Observer`'s bits fit beside the object; an observer that
    /// does not (an existential of a protocol that is not class-bound) is
    /// cast back from the object on each call.
    @inlinable static func fitsInline<Observer>(_ type: Observer.Type) -> Bool {
        MemoryLayout<Observer>.size <= MemoryLayout<Bits>.size
            && MemoryLayout<Observer>.alignment <= MemoryLayout<Bits>.alignment
    }

    /// `object` is `observer` as a class instance (see ``classInstance(_:for:)``).
    @inlinable init<Observer>(
        _ observer: Observer, object: AnyObject, hold: Hold, channel: String, previousWithSameIdentity: Int
    ) {
        identity = ObjectIdentifier(object)
        self.channel = channel
        self.previousWithSameIdentity = previousWithSameIdentity
        if hold == .strong { strongObject = object } else { weakObject = object }
        if Self.fitsInline(Observer.self) {
            // A bitwise copy takes no reference: the object keeps it valid.
            withUnsafeMutableBytes(of: &bits) { target in
                withUnsafeBytes(of: observer) { target.copyMemory(from: $0) }
            }
        }
    }

    @inlinable var isAlive: Bool { strongObject != nil || weakObject != nil }

    /// ``isAlive`` under a lock: a weakly held observer found alive goes to
    /// `held`, for the caller to let go after unlocking. Reading a weak
    /// reference takes a strong one, and if the app let its last reference
    /// go meanwhile, releasing ours would run the observer's deinit under
    /// the lock, where a deinit that removes itself would wait forever.
    @inlinable func isAlive(keeping held: inout [AnyObject]) -> Bool {
        if strongObject != nil { return true }
        guard let object = weakObject else { return false }
        held.append(object)
        return true
    }
}
