/// A subject's own observer list, the hand-written `addObserver` / `notify`
/// pattern, instrumented.
///
/// ```swift
/// let observers = harness.observerList(of: UserInfoObserver.self, hold: .weak)
/// observers.add(profileScreen)
/// observers.notify { $0.userInfoDidChange(user) }
/// ```
///
/// `hold` says how the list keeps observers (``Hold``); `dedupe` makes a second
/// identical `add` a no-op, as some hand-written lists do.
public final class ObserverList<Observer: AnyObject>: @unchecked Sendable {
    let store: RegistrationStore<Void>
    private let hold: Hold
    private let dedupe: Bool

    init(recorder: Recorder, name: String, hold: Hold, dedupe: Bool, order: DeliveryOrder) {
        store = RegistrationStore(recorder: recorder,
                                  info: RegistryInfo(name: name, kind: .subject, dedupe: dedupe), order: order)
        self.hold = hold
        self.dedupe = dedupe
    }

    /// Adds `observer` on `channel`; `hold` overrides the list's default.
    public func add(_ observer: Observer, channel: String = "", hold: Hold? = nil,
                    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                    line: UInt = #line, column: UInt = #column) {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let id = store.recorder.objectID(for: observer, site: location)
        _ = store.add(observer: observer, observerID: id, hold: hold ?? self.hold, channel: channel, senderID: 0,
                      tokenForm: false, dedupe: dedupe, site: .location(location), handler: ())
    }

    /// Removes `observer` from `channel`, or from every channel when `nil`.
    public func remove(_ observer: Observer, channel: String? = nil,
                       fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                       line: UInt = #line, column: UInt = #column) {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        store.remove(observerID: store.recorder.objectIDForRemoval(of: observer), channel: channel, senderID: 0,
                     site: .location(location))
    }

    /// Calls `body` on every live observer of `channel`. An `unowned` observer
    /// that has deallocated is recorded as a delivery to a dead object and skipped.
    public func notify(channel: String = "",
                       fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                       line: UInt = #line, column: UInt = #column, _ body: (Observer) -> Void) {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        store.post(channel: channel, senderID: 0, site: .location(location)) { _, observer, _ in
            if let observer { body(unsafeDowncast(observer, to: Observer.self)) }
        }
    }

    /// How many registrations are active.
    public var count: Int { store.activeCount }
}
