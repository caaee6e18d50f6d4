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
/// the list's lock is released, so an observer may add or remove during `notify`.
public final class ObserverList<Observer>: @unchecked Sendable {
    @usableFromInline
    struct Entry {
        @usableFromInline var observer: HeldObserver<Observer>
        @usableFromInline var channel: String

        @inlinable init(observer: HeldObserver<Observer>, channel: String) {
            self.observer = observer
            self.channel = channel
        }
    }

    @usableFromInline let hold: Hold
    @usableFromInline let dedupe: Bool
    private let backend: (any ObserverListBackend)?
    @usableFromInline let isInstrumented: Bool
    @usableFromInline let lock = NSLock()
    @usableFromInline var entries: [Entry] = []  // guarded by `lock`

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
        let entry = Entry(observer: HeldObserver(observer, object: object, hold: hold ?? self.hold), channel: channel)
        lock.locked {
            entries.removeAll { !$0.observer.isAlive }
            if dedupe,
                entries.contains(where: { $0.channel == channel && $0.observer.identity == entry.observer.identity })
            {
                return
            }
            entries.append(entry)
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
        lock.locked {
            entries.removeAll {
                !$0.observer.isAlive || ($0.observer.identity == identity && (channel == nil || $0.channel == channel))
            }
        }
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
        let snapshot = lock.locked { entries }
        // Read each entry in place: copying one would copy its weak reference.
        snapshot.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].channel == channel {
                entries[index].observer.pin()?.call(body)
            }
        }
    }

    /// How many registrations are active (live observers, on any channel).
    public var count: Int {
        if let backend { return backend.count }
        return lock.locked { entries.reduce(0) { $0 + ($1.observer.isAlive ? 1 : 0) } }
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
