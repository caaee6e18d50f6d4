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
    @usableFromInline
    struct Entry {
        @usableFromInline var observer: HeldObserver<Observer>
        @usableFromInline var channel: String
        /// Removed, or found dead: skipped until the next compaction drops it.
        @usableFromInline var isRemoved = false
        /// The position of the previous entry with the same identity, or -1:
        /// the chain `positions` starts, so removal and the duplicate check
        /// visit only this observer's entries.
        @usableFromInline var previousWithSameIdentity: Int

        @inlinable init(observer: HeldObserver<Observer>, channel: String, previousWithSameIdentity: Int) {
            self.observer = observer
            self.channel = channel
            self.previousWithSameIdentity = previousWithSameIdentity
        }
    }

    @usableFromInline let hold: Hold
    @usableFromInline let dedupe: Bool
    private let backend: (any ObserverListBackend)?
    @usableFromInline let isInstrumented: Bool
    @usableFromInline let lock = NSLock()
    // All guarded by `lock`.
    @usableFromInline var entries: [Entry] = []
    /// Each identity's last entry, heading its chain through `entries`.
    @usableFromInline var positions: [ObjectIdentifier: Int] = [:]
    /// Entries not yet removed (some may have died since).
    @usableFromInline var activeEntries = 0
    /// `entries.count` at which removed and dead entries are dropped: twice
    /// the active entries at the last compaction, so each add pays O(1) for it.
    @usableFromInline var compactionThreshold = 16

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
        let object = classInstance(observer, for: "ObserverList")
        if isInstrumented {
            return instrumentedAdd(
                object, channel: channel, hold: hold ?? self.hold,
                location: CodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column,
                    isolation: isolation))
        }
        let held = HeldObserver(observer, object: object, hold: hold ?? self.hold)
        lock.locked {
            if entries.count >= compactionThreshold { compact() }
            let identity = held.identity
            let last = positions[identity] ?? -1
            if dedupe, hasLiveEntry(identity: identity, channel: channel, from: last) { return }
            positions[identity] = entries.count
            entries.append(Entry(observer: held, channel: channel, previousWithSameIdentity: last))
            activeEntries += 1
        }
    }

    /// Removes `observer` from `channel`, or from every channel when `nil`.
    @inlinable
    public func remove(
        _ observer: Observer, channel: String? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let object = classInstance(observer, for: "ObserverList")
        if isInstrumented {
            return instrumentedRemove(
                object, channel: channel,
                location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        }
        let identity = ObjectIdentifier(object)
        // Strongly held observers are let go after unlocking: a deinit may use the list.
        var released: [Observer] = []
        lock.locked {
            var position = positions[identity] ?? -1
            while position >= 0 {
                if !entries[position].isRemoved, channel == nil || entries[position].channel == channel {
                    if let strong = markRemoved(at: position) { released.append(strong) }
                }
                position = entries[position].previousWithSameIdentity
            }
        }
        withExtendedLifetime(released) {}
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
        let snapshot = lock.locked { entries }
        // Read each entry in place: copying one would copy its weak reference.
        snapshot.withUnsafeBufferPointer { entries in
            for index in entries.indices where !entries[index].isRemoved && entries[index].channel == channel {
                entries[index].observer.pin()?.call(body)
            }
        }
    }

    /// How many registrations are active (live observers, on any channel).
    public var count: Int {
        if let backend { return backend.count }
        return lock.locked {
            entries.reduce(0) { $0 + (!$1.isRemoved && $1.observer.isAlive ? 1 : 0) }
        }
    }

    // MARK: The plain list's bookkeeping (lock held)

    /// Whether `identity` has a live entry on `channel`, walking its chain
    /// from `position`. A dead entry found on the way is marked removed: its
    /// identity may now be another object's, which is then no duplicate.
    @inlinable
    func hasLiveEntry(identity: ObjectIdentifier, channel: String, from position: Int) -> Bool {
        var position = position
        while position >= 0 {
            if !entries[position].isRemoved {
                if !entries[position].observer.isAlive {
                    _ = markRemoved(at: position)
                } else if entries[position].channel == channel {
                    return true
                }
            }
            position = entries[position].previousWithSameIdentity
        }
        return false
    }

    /// Returns a strongly held observer, which the list no longer keeps.
    @inlinable
    func markRemoved(at position: Int) -> Observer? {
        entries[position].isRemoved = true
        activeEntries -= 1
        defer { entries[position].observer.strong = nil }
        return entries[position].observer.strong
    }

    /// Drops removed and dead entries and rebuilds the identity chains.
    @inlinable
    func compact() {
        var kept: [Entry] = []
        kept.reserveCapacity(activeEntries)
        positions.removeAll(keepingCapacity: true)
        entries.withUnsafeBufferPointer { old in
            for index in old.indices where !old[index].isRemoved && old[index].observer.isAlive {
                let identity = old[index].observer.identity
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
        backend?.notify(channel: channel, location: location) { body($0 as! Observer) }
    }
}
