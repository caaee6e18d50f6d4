/// The harness's side of an ``ObserverList``: records every add, remove and
/// delivery, and delivers in the harness's ``DeliveryOrder``. Like the plain
/// list, a post goes to everyone registered when it started, whatever its
/// handlers remove meanwhile.
final class InstrumentedObserverList: ObserverListBackend, @unchecked Sendable {
    let store: RegistrationStore<Void>
    private let dedupe: Bool
    /// The recorder's id of each observer this list has seen, by address, so
    /// a repeated `add` (a de-duplicating store's subscribe, again and again)
    /// skips the recorder's object table. An entry counts only while its
    /// object is alive: a new object at a dead one's address misses, and the
    /// recorder gives it a new id as before. Guarded by `knownLock`.
    @exclusivity(unchecked) private var known = [ObjectIdentifier: KnownObserver]()
    /// `known.count` at which entries whose object died are dropped: twice
    /// the entries kept at the last sweep, so each add pays O(1) for it.
    @exclusivity(unchecked) private var knownSweepThreshold = 16
    /// The last add's site and its id in the recording. Guarded by `knownLock`.
    @exclusivity(unchecked) private var lastAddSite: (key: SiteKey, id: UInt32)?
    private let knownLock = Lock()

    init(recorder: Recorder, name: String, hold: Hold, dedupe: Bool, order: DeliveryOrder) {
        store = RegistrationStore(
            recorder: recorder,
            info: RegistryInfo(
                name: name, kind: .subject, dedupe: dedupe, snapshotDelivery: true, declaredHold: hold),
            order: order)
        self.dedupe = dedupe
    }

    func add(_ observer: AnyObject, channel: String, hold: Hold, location: CodeLocation) {
        ScopeWarnings.checkForeignChange(
            of: store.name, kind: "observer list", recordedBy: store.recorder, at: location)
        let siteKey = SiteKey(location)
        // One trip under the lock: the observer's entry and the registration
        // it last made here, and the site if it is the last add's (an add in
        // a loop repeats its site).
        knownLock.lock()
        let found = known[ObjectIdentifier(observer)]
        let existing = found?.registration
        var siteID: UInt32 = 0
        if siteKey.file != nil, let last = lastAddSite, last.key.file == siteKey.file, last.key.line == siteKey.line,
            last.key.column == siteKey.column
        {
            siteID = last.id
        }
        knownLock.unlock()
        if siteID == 0, siteKey.file != nil {
            siteID = store.recorder.siteID(location)
            knownLock.lock()
            lastAddSite = (siteKey, siteID)
            knownLock.unlock()
        }
        let site: SiteReference = siteID != 0 ? .interned(siteID) : .location(location)
        let isolation = RegistrationIsolation(location.isolation)
        // An entry made for an object that died (whose address `observer`
        // may now have) is not this observer's. `object` never changes: read
        // outside the lock.
        let entry: KnownObserver
        if let found, found.object === observer {
            // A de-duplicating list's repeated add, the common case: the
            // registration it repeats is known, not looked up.
            if dedupe, let existing,
                store.addRepeating(existing, hold: hold, channel: channel, site: site, isolation: isolation)
            {
                return
            }
            entry = found
        } else {
            entry = newEntry(for: observer, location: location)
        }
        let result = store.add(
            observer: observer, observerID: entry.id, hold: hold, channel: channel, senderID: 0, tokenForm: false,
            dedupe: dedupe, site: site, isolation: isolation, handler: ())
        // Only one that holds its observer weakly is kept: one holding it
        // strongly would keep a removed (or detached) observer alive.
        if dedupe, case .added(let registration) = result, registration.hold != .strong {
            knownLock.lock()
            entry.registration = registration
            knownLock.unlock()
        }
    }

    /// A new entry in `known` for `observer`, with its id from the recorder
    /// (which tracks a new object, and records the death of one it knew at
    /// the same address).
    private func newEntry(for observer: AnyObject, location: CodeLocation) -> KnownObserver {
        let entry = KnownObserver(observer, id: store.recorder.objectID(for: observer, site: location))
        var alive: [AnyObject] = []
        knownLock.lock()
        if known.count >= knownSweepThreshold { sweepKnownLocked(keepingAlive: &alive) }
        known.updateValue(entry, forKey: ObjectIdentifier(observer))
        knownLock.unlock()
        withExtendedLifetime(alive) {}
        return entry
    }

    /// Drops the entries of dead observers. The live ones, loaded from weak
    /// references, go to `alive` for the caller to release after the lock:
    /// a deinit run under it could come back to this list.
    private func sweepKnownLocked(keepingAlive alive: inout [AnyObject]) {
        known = known.filter { _, entry in
            guard let object = entry.object else { return false }
            alive.append(object)
            return true
        }
        knownSweepThreshold = max(16, 2 * known.count)
    }

    func remove(_ observer: AnyObject, channel: String?, location: CodeLocation) {
        store.remove(
            observerID: store.recorder.objectIDForRemoval(of: observer), channel: channel, senderID: 0,
            site: .location(location))
    }

    func removeAll(channel: String?, location: CodeLocation) {
        store.removeAll(channel: channel, site: .location(location))
    }

    /// An `unowned` observer that has deallocated is recorded as a delivery to
    /// a dead object and skipped.
    func notify(channel: String, location: CodeLocation, _ body: (AnyObject) -> Void) {
        store.post(channel: channel, senderID: 0, site: .location(location)) { _, observer, _ in
            // Never nil here (the store calls only live observers), but no trap if it were.
            guard let observer else { return }
            body(observer)
        }
    }

    func observers(channel: String) -> [AnyObject] { store.currentObservers(channel: channel) }

    var count: Int { store.liveCount() }
}

/// An observer's recorder id, with a weak reference that says whether the
/// object it was found for is still the one at its address. A class, so a
/// lookup reads the weak reference in place instead of copying it.
private final class KnownObserver {
    // Set once, then only read: the runtime's exclusivity checks buy nothing.
    @exclusivity(unchecked) weak var object: AnyObject?
    let id: UInt32
    /// Its last registration added here (a de-duplicating list's only one
    /// per channel), whether or not it is still active, unless that holds
    /// the observer strongly. Guarded by the list's `knownLock`.
    @exclusivity(unchecked) var registration: Registration<Void>?

    init(_ object: AnyObject, id: UInt32) {
        self.object = object
        self.id = id
    }
}
