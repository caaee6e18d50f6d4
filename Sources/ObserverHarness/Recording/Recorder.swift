/// The thread-safe event log behind a harness.
///
/// One lock guards the log and its tables; each `record` takes it once. Events
/// get their sequence number (their index), time and thread inside the lock, so
/// sequence order, time order and each thread's program order agree.
final class Recorder: @unchecked Sendable {
    private let lock = Lock()
    /// A `var` only so a finished test lets its events go (``stopRecording()``).
    @exclusivity(unchecked) private var storage = EventStorage()
    // Everything below is guarded by `lock`, which already orders every
    // access: the runtime's exclusivity checks on the hot paths buy nothing.
    @exclusivity(unchecked) private var strings = StringTable()
    // The tables below start as shared prototypes, and get their room when
    // first written: most tests under the trait record nothing at all.
    @exclusivity(unchecked) private var objects = Recorder.noObjects
    /// Weak references to the app objects not yet known to be gone. A dead
    /// object's entry is dropped, which also frees the weak reference's side
    /// table (kept for every id ever seen, they cost ~60 bytes per object).
    @exclusivity(unchecked) private var liveObjects: [UInt32: WeakReference]
    /// App objects loaded from weak references under the lock, released
    /// once it is let go (``holdUntilUnlockLocked(_:)``).
    /// The first in a field of its own: the common case (one watched sender
    /// read at a registry call) allocates nothing.
    @exclusivity(unchecked) private var heldUntilUnlock: AnyObject?
    @exclusivity(unchecked) private var moreHeldUntilUnlock: [AnyObject] = []
    @exclusivity(unchecked) private var objectIDs: [ObjectIdentifier: UInt32]
    @exclusivity(unchecked) private var deallocated = ObjectBits()
    /// Each class's unqualified name, as its string id, found once per class
    /// rather than per object (a name over 15 bytes is a heap string each time).
    @exclusivity(unchecked) private var typeNames = [ObjectIdentifier: UInt32]()
    @exclusivity(unchecked) private var registries = Recorder.noRegistries
    /// The sites given as text (and, once one is, every site), by id: a
    /// site whose text is in the catalog has no entry here until then, only
    /// its number in `siteNumbers`.
    @exclusivity(unchecked) private var sites = Recorder.noSites
    @exclusivity(unchecked) private var siteLocations = Recorder.noSiteLocations
    /// How many site ids there are, id 0 (no site) included.
    @exclusivity(unchecked) private var siteCount = 1
    /// This recording's site id for each ``SiteCatalog`` number (0: not yet seen here).
    @exclusivity(unchecked) private var siteIDsByNumber = SiteIDsByNumber()
    /// Per site id, its catalog number, for a site whose text a recording
    /// reads from the catalog (`Recording.notFromCatalog` for the others);
    /// empty until one is. See ``materializeSitesLocked()``.
    @exclusivity(unchecked) private var siteNumbers: [UInt32] = []
    /// Site ids by text, built only once a site comes as text (a scenario
    /// step) or outside the catalog, and kept up to date from then on: until
    /// then every site here came from the catalog, whose texts are distinct.
    @exclusivity(unchecked) private var siteTextIDs: [CallSite: UInt32]?
    @exclusivity(unchecked) private var lastSite: (key: SiteKey?, id: UInt32) = (nil, 0)
    @exclusivity(unchecked) private var nextRegistration: UInt32 = 1
    /// The time of the latest event stamped from the clock. Lock-guarded.
    @exclusivity(unchecked) private var lastTime: UInt64 = 0
    /// Senders and observed objects named by active registrations, with how
    /// many name each: their deallocation is checked at every registry
    /// operation, so it is recorded before the removal that follows it.
    /// Each watched id's count and its place in `watchedIDs`, the list each
    /// operation sweeps (read by index: a debug build iterates a dictionary
    /// through unspecialised generic code, on every operation).
    @exclusivity(unchecked) private var watchedSenders = [UInt32: (count: Int, index: Int)]()
    @exclusivity(unchecked) private var watchedIDs: [UInt32] = []
    /// Set when the harness's test ended: registries keep delivering, and
    /// nothing more is appended. Lock-guarded.
    @exclusivity(unchecked) private var stopped = false
    /// Whether any delivery ran off its registration's isolation (so work
    /// outside deliveries may be a handler's handed-on work).
    @exclusivity(unchecked) private var offIsolationDeliveries = false
    /// Which `hop` kinds each such delivery has recorded (1: on, 2: off).
    @exclusivity(unchecked) private var hopMarks = [UInt32: UInt8]()
    /// Async deliveries and loops still under way (has its own lock).
    let asyncActivity = AsyncActivity()
    /// The objects tracked as registration tokens (``tokenID(for:kind:site:)``).
    private var registrationTokens = Set<UInt32>()
    /// Each registration token's owner, once found (see ``recordTokenOwner(_:of:)``).
    @exclusivity(unchecked) private var tokenOwners = [UInt32: UInt32]()
    /// Who held each block token, decided as it goes (see ``TokenHolderLedger``).
    @exclusivity(unchecked) private var tokenHolders = TokenHolderLedger()
    /// Gone holders a check stopped waiting for (``stopWaitingForDyingHolders()``).
    @exclusivity(unchecked) private var notAwaitedHolders = Set<UInt32>()
    /// Tokens dropped as the next token was stored in their place, by the
    /// token that replaced them: they share its owner.
    @exclusivity(unchecked) private var overwrittenTokens = [UInt32: [UInt32]]()
    /// Objects the app said it released, in order.
    @exclusivity(unchecked) private var releasedObjects: [UInt32] = []
    /// Released objects a going registry held strongly (``keepIfReleased(_:)``).
    @exclusivity(unchecked) private var keptReleased: [AnyObject] = []
    /// The registries recording here, so a leak check can detach registrations.
    @exclusivity(unchecked) private var registriesHere: [WeakRegistry] = []
    /// How many registries were alive at the last pruning of `registriesHere`.
    @exclusivity(unchecked) private var registriesAtLastPrune = 0
    /// The reference chain last recorded for each released object (see
    /// ``ReferenceChains``): a search that finds the same says nothing new.
    private var referenceChains = [UInt32: String]()

    /// Id 0 of each table: no object, no registry, no site.
    private static let noObjects = [ObjectInfo(typeName: "", label: nil)]
    private static let noRegistries = [RegistryInfo(name: "", kind: .subject)]
    private static let noSites = [CallSite(file: "", line: 0)]
    private static let noSiteLocations: [CodeLocation?] = [nil]
    /// Empty tables with room for a test's objects (``makeRoomForObjectsLocked()``).
    // Empty, and never written: each recorder writes its own copy.
    nonisolated(unsafe) private static let roomForObjects = [UInt32: WeakReference](minimumCapacity: 16)
    private static let roomForObjectIDs = [ObjectIdentifier: UInt32](minimumCapacity: 16)
    private static let roomForTypeNames = [ObjectIdentifier: UInt32](minimumCapacity: 8)

    init() {
        liveObjects = Dictionary()
        objectIDs = Dictionary()
    }

    /// A test's recording names a handful of objects: room for them at the
    /// first, instead of each table growing from one entry (a new allocation
    /// and a rehash or copy at every doubling). Lock held.
    @inline(__always)
    private func makeRoomForObjectsLocked() {
        guard objects.count == 1 else { return }
        objects.reserveCapacity(16)
        // Copies of empty tables made once with their room: `reserveCapacity`
        // and `init(minimumCapacity:)` are unspecialised generic calls, which
        // look the storage type up at run time; the copy a first write makes is not.
        if liveObjects.count == 0 { liveObjects = Self.roomForObjects }
        if objectIDs.count == 0 { objectIDs = Self.roomForObjectIDs }
    }

    // MARK: Recording events

    /// Appends an event, stamping time, thread and (if unset) the cause from
    /// the handler running on this thread. Returns its sequence number.
    @discardableResult
    func record(_ event: Event) -> UInt32 {
        let context = ThreadContext.current
        lock.lock()
        defer { unlock() }
        return appendLocked(event, context: context)
    }

    /// Like ``record(_:)``, interning the caller's source location in the same
    /// critical section (the common case for user-facing calls).
    @discardableResult
    func record(_ event: Event, at location: CodeLocation) -> UInt32 {
        let context = ThreadContext.current
        lock.lock()
        defer { unlock() }
        var event = event
        event.site = siteID(locked: location)
        return appendLocked(event, context: context)
    }

    /// Records nothing more from here on: the test that owns this recording
    /// ended, and its registries may outlive it in long-lived objects. What
    /// only an analysis would read goes now, not when the last of them goes:
    /// the events (their chunks back to the pool for the next test, once no
    /// recording taken earlier reads them) and the released objects kept for
    /// a leak report, which the app had let go.
    /// `keepingEvents`: an order check still reads them (it names each
    /// receiver from the run's recording once the body returned); they go
    /// with the recorder.
    func stopRecording(keepingEvents: Bool = false) {
        let finished = withLock {
            stopped = true
            if keepingEvents { return (EventStorage(), [AnyObject]()) }
            defer { (storage, keptReleased) = (EventStorage(), []) }
            return (storage, keptReleased)
        }
        // Let go outside the lock: a kept object's deinit may call back in.
        withExtendedLifetime(finished) {}
    }

    /// Runs `body` with `sequence` as this thread's current frame, so events
    /// the body records name it as their cause.
    @inline(__always)
    func withFrame<T>(_ sequence: UInt32, context: ThreadContext = .current, _ body: () throws -> T) rethrows -> T {
        let savedRecorder = context.frameRecorder
        let savedSequence = context.frameSequence
        context.frameRecorder = ObjectIdentifier(self)
        context.frameSequence = sequence
        defer {
            context.frameRecorder = savedRecorder
            context.frameSequence = savedSequence
        }
        return try body()
    }

    /// The event whose handler is running on this thread, if it is ours.
    var currentFrame: UInt32 {
        let context = ThreadContext.current
        return context.frameRecorder == ObjectIdentifier(self) ? context.frameSequence : Event.none
    }

    /// Like ``record(_:at:)``, from a call that says where it runs (its
    /// `#isolation`), so work a handler handed to an actor is judged exactly.
    @discardableResult
    func record(_ event: Event, at location: CodeLocation, callerIsolation: (any Actor)?) -> UInt32 {
        let context = ThreadContext.current
        lock.lock()
        defer { unlock() }
        var event = event
        event.site = siteID(locked: location)
        return appendLocked(event, context: context, caller: .known(callerIsolation))
    }

    /// Registries keep their own state under the recorder's lock so that a
    /// delivery checks its registration and records itself in one critical
    /// section. Never call other recorder methods from inside `body`.
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { unlock() }
        return try body()
    }

    /// Lets the lock go, then the app objects held under it (see
    /// ``holdUntilUnlockLocked(_:)``).
    @inline(__always)
    private func unlock() {
        // `moreHeldUntilUnlock` is empty whenever the first field is.
        if case .none = heldUntilUnlock { return lock.unlock() }
        let held = (heldUntilUnlock, moreHeldUntilUnlock)
        heldUntilUnlock = nil
        moreHeldUntilUnlock = []
        lock.unlock()
        withExtendedLifetime(held) {}
    }

    /// Keeps `object`, just loaded from a weak reference under the lock,
    /// until the lock is let go. Reading a weak reference takes a strong
    /// one; if the app lets its last reference go meanwhile, on another
    /// thread, releasing ours would run the object's deinit here, under the
    /// lock, and a deinit that removes an observer waits for this lock
    /// forever.
    @inline(__always)
    func holdUntilUnlockLocked(_ object: AnyObject) {
        if case .none = heldUntilUnlock { heldUntilUnlock = object } else { moreHeldUntilUnlock.append(object) }
    }

    /// Whether the weak reference `reference` is empty, read under the lock
    /// (a live object is held until the lock goes: ``holdUntilUnlockLocked(_:)``).
    @inline(__always)
    private func isGoneLocked(_ reference: WeakReference) -> Bool {
        guard let object = reference.object else { return true }
        holdUntilUnlockLocked(object)
        return false
    }

    /// ``isGoneLocked(_:)`` for the app object `id`: false when it has no
    /// weak reference here.
    @inline(__always)
    private func isGoneLocked(_ id: UInt32) -> Bool {
        guard let reference = liveObjects[id] else { return false }
        return isGoneLocked(reference)
    }

    /// Appends with the lock already held (inside ``withLock(_:)``).
    @inline(__always)
    func appendLocked(_ event: Event, context: ThreadContext, caller: CallerIsolation = .unknown) -> UInt32 {
        if stopped { return Event.none }
        var event = event
        event.thread = context.threadNumber
        if event.cause == Event.none {
            if context.frameRecorder == ObjectIdentifier(self) {
                event.cause = context.frameSequence
            } else if offIsolationDeliveries {
                noteHandedOnWorkLocked(context: context, caller: caller)
            }
        }
        event.time = monotonicNanoseconds()
        lastTime = event.time
        return UInt32(truncatingIfNeeded: storage.append(event))
    }

    /// Work outside any delivery of this recorder, inside a task a handler
    /// off its isolation started: the first such work on the registration's
    /// isolation, and the first off it, are each recorded as a `hop`.
    private func noteHandedOnWorkLocked(context: ThreadContext, caller: CallerIsolation) {
        guard let origin = HopOrigin.current, origin.recorderID == ObjectIdentifier(self),
            let left = origin.isLeft(callerIsolation: caller, context: context)
        else { return }
        appendHopLocked(origin, flags: left ? .offIsolation : .none, context: context)
    }

    /// A `hop` of `origin`'s delivery, once per delivery for work off the
    /// isolation and once for work handed on.
    private func appendHopLocked(_ origin: HopOrigin, flags: EventFlags, context: ThreadContext) {
        let bit: UInt8 = flags.contains(.offIsolation) ? 2 : 1
        let marks = hopMarks[origin.delivery] ?? 0
        guard marks & bit == 0 else { return }
        hopMarks.updateValue(marks | bit, forKey: origin.delivery)
        var hop = Event(kind: .hop, flags: flags, registration: origin.registration, cause: origin.delivery)
        hop.thread = context.threadNumber
        hop.time = monotonicNanoseconds()
        lastTime = hop.time
        _ = storage.append(hop)
    }

    /// The handler of `origin`'s delivery handed work on (a `Task`), or, live,
    /// may have (``EventFlags/unseenHandOff``).
    func recordHop(of origin: HopOrigin, flags: EventFlags) {
        let context = ThreadContext.current
        withLock { appendHopLocked(origin, flags: flags, context: context) }
    }

    /// A delivery off its registration's isolation is under way: from now on
    /// work outside deliveries is checked for a ``HopOrigin``. Lock held.
    func noteOffIsolationDeliveryLocked() { offIsolationDeliveries = true }

    /// Appends a delivery with the lock already held, without reading the
    /// clock: it carries the latest time recorded, which is its post's or
    /// later, so time order still agrees with sequence order. (A clock read
    /// is 24 ns here; a post to ten observers would pay it ten times.)
    @inline(__always)
    func appendDeliveryLocked(_ event: Event, context: ThreadContext) -> UInt32 {
        if stopped { return Event.none }
        var event = event
        event.thread = context.threadNumber
        event.time = lastTime
        return UInt32(truncatingIfNeeded: storage.append(event))
    }

    /// Interns a site with the lock already held.
    func siteIDLocked(_ site: SiteReference) -> UInt32 {
        switch site {
        case .location(let location): siteID(locked: location)
        case .interned(let id): id
        }
    }

    /// Whether `id` is known dead, with the lock already held.
    func isDeallocatedLocked(_ id: UInt32) -> Bool {
        if deallocated.contains(id) { return true }
        if isGoneLocked(id) {
            appendDeallocLocked(id, flags: .detectedLate)
            return true
        }
        return false
    }

    // MARK: Lifetimes noticed as they happen

    /// A registration naming `id` as its sender or observed object became active.
    func watchSenderLocked(_ id: UInt32) {
        guard id != 0 else { return }
        if let watched = watchedSenders[id] {
            watchedSenders.updateValue((watched.count + 1, watched.index), forKey: id)
        } else {
            watchedSenders.updateValue((1, watchedIDs.count), forKey: id)
            watchedIDs.append(id)
        }
    }

    /// A registration naming `id` ended.
    func unwatchSenderLocked(_ id: UInt32) {
        guard id != 0, let watched = watchedSenders[id] else { return }
        guard watched.count == 1 else {
            watchedSenders.updateValue((watched.count - 1, watched.index), forKey: id)
            return
        }
        stopWatchingLocked(id, at: watched.index)
    }

    /// Takes `id` out of the sweep: the last id fills its place.
    private func stopWatchingLocked(_ id: UInt32, at index: Int) {
        watchedSenders[id] = nil
        let last = watchedIDs.removeLast()
        guard last != id else { return }
        watchedIDs[index] = last
        if let moved = watchedSenders[last] { watchedSenders[last] = (moved.count, index) }
    }

    /// How many senders every registry operation sweeps (a replay charges looking through them).
    var watchedSenderCount: Int { withLock { watchedIDs.count } }

    /// Records the deallocation of any watched sender that is gone. Called at
    /// the start of every registry operation; free when nothing is watched.
    @inline(__always)
    func noticeDeallocationsLocked() {
        // `count`, not `isEmpty`: a debug build asks the generic `Collection` for that, at every registry call.
        if watchedIDs.count != 0 { sweepWatchedLocked() }
    }

    private func sweepWatchedLocked() {
        var gone: [UInt32] = []
        var index = 0
        while index < watchedIDs.count {
            let id = watchedIDs[index]
            // Recorded already (objects the harness owns record their own), or gone now.
            if deallocated.contains(id) || isGoneLocked(id) { gone.append(id) }
            index += 1
        }
        guard gone.count != 0 else { return }
        // In id order: the recording must not depend on the list's order.
        let ordered = inIDOrder(gone)
        index = 0
        while index < ordered.count {
            let id = ordered[index]
            if let watched = watchedSenders[id] { stopWatchingLocked(id, at: watched.index) }
            appendDeallocLocked(id, flags: .detectedLate)
            index += 1
        }
    }

    // MARK: Cycles

    /// Whether a post (or set, or delegate call) on `channel` of `registry`
    /// made now would be nested more than `bound` levels inside posts on the
    /// same channel from the same sender (any call of the same delegate
    /// slot): walks this thread's chain of frames. Lock held.
    func reentersPastBoundLocked(
        registry: UInt32, channel: UInt32, senderID: UInt32, bound: Int, context: ThreadContext
    ) -> Bool {
        guard context.frameRecorder == ObjectIdentifier(self) else { return false }
        var cause = context.frameSequence
        var sameChannel = 0
        while cause != Event.none, Int(cause) < storage.count {
            let event = storage[Int(cause)]
            switch event.kind {
            case .post, .propertySet, .delegateCall:
                // A delegate call's channel is its call site; its slot is the channel.
                if event.registry == registry,
                    event.kind == .delegateCall || (event.channel == channel && event.subject == senderID)
                {
                    sameChannel += 1
                    if sameChannel >= bound { return true }
                }
            default: break
            }
            cause = event.cause
        }
        return false
    }

    func newRegistrationIDLocked() -> UInt32 {
        defer { nextRegistration += 1 }
        return nextRegistration
    }

    func internLocked(_ string: String) -> UInt32 { strings.intern(string) }

    // MARK: Tables

    func intern(_ string: String) -> UInt32 {
        withLock { strings.intern(string) }
    }

    func addRegistry(_ info: RegistryInfo) -> UInt32 {
        withLock {
            registries.append(info)
            return UInt32(registries.count - 1)
        }
    }

    func siteID(_ location: CodeLocation) -> UInt32 {
        withLock { siteID(locked: location) }
    }

    func siteID(_ site: CallSite) -> UInt32 {
        withLock { siteIDLocked(text: site, location: nil) }
    }

    /// A new site, appended without hashing its text: a scenario numbers
    /// its distinct sites once when parsed, so each replay's recorder need
    /// not intern them again.
    func appendSite(_ site: CallSite) -> UInt32 {
        withLock { appendOwnSiteLocked(site, location: nil) }
    }

    /// Adds a site with its text here: the catalog's sites before it get
    /// their placeholders first, so `sites` is indexed by id.
    private func appendOwnSiteLocked(_ site: CallSite, location: CodeLocation?) -> UInt32 {
        padOwnSitesLocked()
        sites.append(site)
        siteLocations.append(location)
        siteCount += 1
        return UInt32(siteCount - 1)
    }

    private func siteID(locked location: CodeLocation) -> UInt32 {
        // StaticString's pointer identifies the file cheaply; a rare
        // non-pointer StaticString goes by text instead.
        let key = SiteKey(location)
        // Calls in a loop repeat their site: compare before anything else.
        // Field by field: `==` on an optional is a generic call in a debug build.
        if key.file != nil, let last = lastSite.key, key.file == last.file, key.line == last.line,
            key.column == last.column
        {
            return lastSite.id
        }
        let id: UInt32
        if let number = SiteCatalog.shared.number(for: key, location) {
            id = siteIDLocked(catalogNumber: number)
            lastSite = (key, id)
        } else {
            // The table keeps where, not who: it must not keep the caller's actor alive.
            var stored = location
            stored.isolation = nil
            id = siteIDLocked(text: location.callSite, location: stored)
        }
        return id
    }

    private func siteIDLocked(catalogNumber number: UInt32) -> UInt32 {
        let known = siteIDsByNumber[number]
        if known != 0 { return known }
        let id: UInt32
        if siteTextIDs != nil {
            let entry = SiteCatalog.shared.entry(number)
            id = siteIDLocked(text: entry.site, location: entry.location)
        } else {
            // Its text stays in the catalog: a recording reads it from there,
            // and nothing is added to `sites` (an entry with a string to copy).
            id = UInt32(siteCount)
            siteCount += 1
            if siteNumbers.count == 0 { siteNumbers.reserveCapacity(16) }
            while siteNumbers.count < Int(id) { siteNumbers.append(Recording.notFromCatalog) }
            siteNumbers.append(number)
        }
        siteIDsByNumber.set(id, for: number)
        return id
    }

    /// Gives every catalog site so far its placeholder in `sites`, so the
    /// lists are indexed by id again.
    private func padOwnSitesLocked() {
        while sites.count < siteCount {
            sites.append(Self.catalogSite)
            siteLocations.append(nil)
        }
    }

    /// What `sites` holds for a site whose text is in the catalog.
    private static let catalogSite = CallSite(file: "", line: 0)

    /// Copies in the text and location of the sites whose text is in the
    /// catalog: once a site comes as text, sites are indexed by text here.
    private func materializeSitesLocked() {
        padOwnSitesLocked()
        var index = 0
        while index < siteNumbers.count {
            let number = siteNumbers[index]
            if number != Recording.notFromCatalog {
                let entry = SiteCatalog.shared.entry(number)
                sites[index] = entry.site
                siteLocations[index] = entry.location
            }
            index += 1
        }
        siteNumbers = []
    }

    /// A site by its text: one already here (from either source) keeps its id.
    private func siteIDLocked(text site: CallSite, location: CodeLocation?) -> UInt32 {
        if siteTextIDs == nil {
            materializeSitesLocked()
            var index = [CallSite: UInt32]()
            for id in sites.indices.dropFirst() where index[sites[id]] == nil { index[sites[id]] = UInt32(id) }
            siteTextIDs = index
        }
        if let existing = siteTextIDs?[site] {
            if siteLocations[Int(existing)] == nil, let location { siteLocations[Int(existing)] = location }
            return existing
        }
        let id = appendOwnSiteLocked(site, location: location)
        siteTextIDs?[site] = id
        return id
    }

    /// The id of `object`, tracking it (and recording `track`) on first sight.
    ///
    /// Ids are never reused: a new object at a freed object's address gets a
    /// new id, and the old one is recorded as deallocated.
    func objectID(for object: AnyObject, label: String? = nil, site: CodeLocation? = nil) -> UInt32 {
        objectID(for: object, at: ObjectIdentifier(object), label: label, site: site)
    }

    /// Starts tracking a registration token the harness just made: its
    /// `track` event says which kind, which is how reports and the owner
    /// search know it is one. The tracked objects gone by now are recorded
    /// first, so every holder left was alive when the token was made.
    func tokenID(for token: AnyObject, kind: TokenKind, site: CodeLocation?) -> UInt32 {
        var alive: [AnyObject] = []
        lock.lock()
        _ = sweepTrackedHoldersLocked(keepingAlive: &alive)
        let madeAt = storage.count
        let id = objectIDLocked(for: token, at: ObjectIdentifier(token), label: nil, site: site, token: kind)
        if kind == .block { tokenHolders.tokenMade(id, at: madeAt) }
        unlock()
        // Released here, outside the lock: the last reference may be ours by now.
        withExtendedLifetime(alive) {}
        return id
    }

    /// ``objectID(for:label:site:)`` for an object the test tracks itself
    /// (`Harness.track`): one that may hold block-registration tokens.
    func trackedObjectID(for object: AnyObject, label: String?, site: CodeLocation) -> UInt32 {
        let id = objectID(for: object, label: label, site: site)
        var alive: [AnyObject] = []
        withLock {
            _ = sweepTrackedHoldersLocked(keepingAlive: &alive)
            if !deallocated.contains(id) { tokenHolders.track(id) }
        }
        withExtendedLifetime(alive) {}
        return id
    }

    // MARK: Token holders noticed as tokens go

    /// The tracked objects gone since they were last looked at, their
    /// deallocation recorded. The live ones are added to `alive`, to be
    /// released by the caller once the lock is let go: a deinit must never
    /// run under it.
    private func sweepTrackedHoldersLocked(keepingAlive alive: inout [AnyObject], atTokenEnd: Bool = false)
        -> [UInt32]
    {
        guard !tokenHolders.tracked.isEmpty, tokenHolders.isLooking else { return [] }
        var gone: [UInt32] = []
        for id in tokenHolders.tracked {
            if let object = liveObjects[id]?.object {
                alive.append(object)
            } else {
                gone.append(id)
            }
        }
        guard !gone.isEmpty else { return [] }
        // In id order: the recording must not depend on hash order.
        gone = inIDOrder(gone)
        tokenHolders.noteGone(
            gone, at: storage.count, thread: ThreadContext.current.threadNumber, atTokenEnd: atTokenEnd)
        for id in gone { appendDeallocLocked(id, flags: .detectedLate) }
        return gone
    }

    /// A block token object was freed.
    func tokenFreedLocked(_ token: UInt32) {
        tokenHolders.tokenFreed(token)
    }

    /// Appends the drop of a block token whose registration is still active
    /// (its last reference went), deciding who held it (``TokenHolderLedger``).
    /// A token dropped as this thread's very next event after another block
    /// registration was overwritten by that registration's token
    /// (`token = center.addObserver(…)` run again): it shares that token's
    /// owner, whenever that is found.
    func appendTokenDropLocked(
        _ event: Event, token: UInt32, context: ThreadContext, keepingAlive alive: inout [AnyObject]
    ) {
        defer { tokenHolders.tokenFreed(token) }
        if tokenOwners[token] == nil, let replacement = replacingTokenLocked(of: token, context: context) {
            overwrittenTokens[replacement, default: []].append(token)
            if let holder = tokenOwners[replacement] { recordTokenOwnerLocked(holder, of: token, context: context) }
            _ = appendLocked(event, context: context)
            tokenHolders.forgetLast()
            return
        }
        appendTokenEndLocked(event, token: token, ending: .dropped, context: context, keepingAlive: &alive)
    }

    /// Appends `event`, the end of `token`'s active registration (its drop
    /// or its removal), giving the token its holder if it has none yet and
    /// the ledger can tell (see ``TokenHolderLedger``).
    func appendTokenEndLocked(
        _ event: Event, token: UInt32, ending: TokenHolderLedger.Ending, context: ThreadContext,
        keepingAlive alive: inout [AnyObject]
    ) {
        let thread = context.threadNumber
        if tokenOwners[token] == nil, tokenHolders.isLooking {
            let gone = sweepTrackedHoldersLocked(keepingAlive: &alive, atTokenEnd: true)
            if let holder = tokenHolders.holder(
                of: token, ending: ending, gone: gone, thread: thread, end: storage.count,
                quiet: { threadQuietLocked(thread, since: $0) })
            {
                recordTokenOwnerLocked(holder, of: token, context: context)
            }
        }
        _ = appendLocked(event, context: context)
        tokenHolders.noteEnded(token, ending: ending, holder: tokenOwners[token], thread: thread, end: storage.count)
    }

    /// Whether no event was recorded on `thread` from event count `start` on
    /// (read up to ``TokenHolderLedger/deathsReadLimit`` events back).
    private func threadQuietLocked(_ thread: UInt16, since start: Int) -> Bool {
        guard start >= 0, storage.count - start <= TokenHolderLedger.deathsReadLimit else { return false }
        var index = start
        while index < storage.count {
            if storage[index].thread == thread { return false }
            index += 1
        }
        return true
    }

    /// The token whose block registration is the event just before, made on
    /// this thread: the one stored where `token` was.
    private func replacingTokenLocked(of token: UInt32, context: ThreadContext) -> UInt32? {
        guard storage.count > 0 else { return nil }
        let last = storage[storage.count - 1]
        guard last.kind == .add, last.flags.contains(.tokenForm), last.thread == context.threadNumber,
            last.object != token, registrationTokens.contains(last.object)
        else { return nil }
        return last.object
    }

    /// ``objectID(for:label:site:)`` with the address given, so tests can
    /// reuse an address without depending on the allocator.
    func objectID(
        for object: AnyObject, at key: ObjectIdentifier, label: String? = nil,
        site: CodeLocation? = nil, token: TokenKind? = nil
    ) -> UInt32 {
        lock.lock()
        let id = objectIDLocked(for: object, at: key, label: label, site: site, token: token)
        unlock()
        return id
    }

    private func objectIDLocked(
        for object: AnyObject, at key: ObjectIdentifier, label: String?, site: CodeLocation?, token: TokenKind?
    ) -> UInt32 {
        if let id = objectIDs[key] {
            if liveObjects[id]?.object === object {
                if let label, objects[Int(id)].label == nil { objects[Int(id)].label = label }
                return id
            }
            // The address was reused: the object we knew there is gone.
            appendDeallocLocked(id, flags: .detectedLate)
        }
        makeRoomForObjectsLocked()
        let id = UInt32(objects.count)
        let typeName = typeNameLocked(of: object)
        objects.append(ObjectInfo(typeName: typeName.name, label: label))
        liveObjects.updateValue(WeakReference(object), forKey: id)
        objectIDs.updateValue(id, forKey: key)
        // `if let`, not `map` and `?? []`: generic calls in a debug build, per object tracked.
        var trackSite: UInt32 = 0
        if let site { trackSite = siteID(locked: site) }
        var trackFlags = EventFlags.none
        if let token {
            registrationTokens.insert(id)
            trackFlags = EventFlags(token: token)
        }
        _ = appendLocked(
            Event(kind: .track, flags: trackFlags, site: trackSite, channel: typeName.id, object: id),
            context: ThreadContext.current)
        return id
    }

    private func typeNameLocked(of object: AnyObject) -> (name: String, id: UInt32) {
        let type = ObjectIdentifier(Swift.type(of: object))
        if let id = typeNames[type] { return (strings[id], id) }
        // Room for a test's few classes at the first: growing from one entry rehashes at each doubling.
        if typeNames.count == 0 { typeNames = Self.roomForTypeNames }
        let name = _typeName(Swift.type(of: object), qualified: false)
        let id = strings.intern(name)
        typeNames.updateValue(id, forKey: type)
        return (name, id)
    }

    /// The id of the box of a value given as a notification's `object:`:
    /// named after the value and its Swift type, and marked as a value so
    /// rules can tell it from an object. A box already known (a small cached
    /// number boxes to one shared object) keeps its id.
    func valueObjectID(for box: AnyObject, typeName: String, label: String, site: SiteReference) -> UInt32 {
        let key = ObjectIdentifier(box)
        lock.lock()
        defer { unlock() }
        if let id = objectIDs[key] {
            if liveObjects[id]?.object === box { return id }
            appendDeallocLocked(id, flags: .detectedLate)
        }
        makeRoomForObjectsLocked()
        let id = UInt32(objects.count)
        objects.append(ObjectInfo(typeName: typeName, label: label))
        liveObjects.updateValue(WeakReference(box), forKey: id)
        objectIDs.updateValue(id, forKey: key)
        _ = appendLocked(
            Event(
                kind: .track, flags: .boxedValue, site: siteIDLocked(site),
                channel: strings.intern(typeName), object: id),
            context: ThreadContext.current)
        return id
    }

    /// The id of `object` if it is known here, without tracking it.
    func knownObjectID(for object: AnyObject) -> UInt32? {
        withLock { knownObjectIDLocked(for: object) }
    }

    /// The id of `string` if it was interned here, without interning it.
    func knownStringID(_ string: String) -> UInt32? {
        withLock { knownStringIDLocked(string) }
    }

    func knownStringIDLocked(_ string: String) -> UInt32? { strings.id(of: string) }

    /// The string interned as `id`. Lock held.
    func stringLocked(_ id: UInt32) -> String { strings[id] }

    /// ``knownObjectID(for:)`` with the lock held.
    func knownObjectIDLocked(for object: AnyObject) -> UInt32? {
        guard let id = objectIDs[ObjectIdentifier(object)], liveObjects[id]?.object === object else { return nil }
        return id
    }

    /// The id last known at `object`'s address, alive or not. Lock held.
    func addressObjectIDLocked(for object: AnyObject) -> UInt32? { objectIDs[ObjectIdentifier(object)] }

    /// The id to remove `object`'s registrations by. Swift empties weak
    /// references before `deinit` runs, so an observer removing itself in its
    /// deinit looks gone; a removal still means the object we knew at this
    /// address (as Foundation's address-keyed removal does).
    func objectIDForRemoval(of object: AnyObject) -> UInt32 {
        let existing = withLock { addressObjectIDLocked(for: object) }
        return existing ?? objectID(for: object)
    }

    /// Adds an object the harness itself created and whose deinit it observes
    /// (scenario objects): no weak reference, exact deallocation.
    func trackOwnedObject(typeName: String, label: String, site: UInt32) -> UInt32 {
        lock.lock()
        makeRoomForObjectsLocked()
        let id = UInt32(objects.count)
        objects.append(ObjectInfo(typeName: typeName, label: label))
        _ = appendLocked(
            Event(kind: .track, site: site, channel: strings.intern(typeName), object: id),
            context: ThreadContext.current)
        unlock()
        return id
    }

    /// Records that `id` deallocated, once.
    func recordDealloc(_ id: UInt32, flags: EventFlags = .none, site: UInt32 = 0) {
        withLock { appendDeallocLocked(id, flags: flags, site: site) }
    }

    /// Whether the object `id` is known to be deallocated; checks the weak
    /// reference of app objects and records the deallocation when it is new.
    func isDeallocated(_ id: UInt32) -> Bool {
        withLock { isDeallocatedLocked(id) }
    }

    private func appendDeallocLocked(_ id: UInt32, flags: EventFlags, site: UInt32 = 0) {
        guard deallocated.insert(id) else { return }
        // The address keeps naming this id until another object is tracked
        // there: an observer whose death a delivery noticed first (on another
        // thread) may still remove itself in its deinit, and that removal
        // must find its registrations, not track the dying object anew.
        liveObjects.removeValue(forKey: id)
        _ = appendLocked(Event(kind: .dealloc, flags: flags, site: site, object: id), context: ThreadContext.current)
    }

    /// Records late deallocations for every app object whose weak reference
    /// is now empty (done before analysis).
    func sweepDeallocations() {
        withLock {
            var gone: [UInt32] = []
            for (id, reference) in liveObjects where isGoneLocked(reference) { gone.append(id) }
            // In id order: the recording must not depend on hash order.
            let ordered = inIDOrder(gone)
            var index = 0
            while index < ordered.count {
                appendDeallocLocked(ordered[index], flags: .detectedLate)
                index += 1
            }
        }
    }

    /// The app objects still alive, in id order, held strongly for the caller.
    /// Release the result outside any registry call: a deinit may run then.
    func liveObjectsNow() -> [(id: UInt32, object: AnyObject)] {
        withLock {
            var live = LiveObjects()
            collectLiveLocked(into: &live)
            return live.inIDOrder()
        }
    }

    /// What a search for registration tokens' owners reads (``TokenOwners``),
    /// in one pass under the lock: the live tracked objects, and which are
    /// tokens with no owner recorded. Nil when no such token lives (most
    /// tests: their tokens are gone, or their owners known, by the check);
    /// a search never overrides an owner, so owned tokens need none.
    func tokenOwnerSearch() -> TokenOwnerSearchInput? {
        withLock {
            guard hasUnownedLiveTokenLocked() else { return nil }
            // In hash order: which holder is searched first changes nothing.
            var input = TokenOwnerSearchInput()
            for (id, reference) in liveObjects {
                guard let object = reference.object else { continue }
                if !registrationTokens.contains(id) {
                    input.holderIDs.append(id)
                    input.holders.append(object)
                } else {
                    input.tokens.append(object)
                    if tokenOwners[id] == nil {
                        input.unownedTokenKeys.append(ObjectIdentifier(object))
                        input.unownedTokenIDs.append(id)
                    }
                }
                input.known.insert(ObjectIdentifier(object))
            }
            return input
        }
    }

    /// Every tracked object still alive, held strongly: they are the
    /// caller's to return, so none is released under the lock.
    private func collectLiveLocked(into live: inout LiveObjects) {
        for (id, reference) in liveObjects {
            guard let object = reference.object else { continue }
            live.ids.append(id)
            live.objects.append(object)
        }
    }

    /// The app object `id`, held strongly for the caller if it is alive.
    /// Release it outside any registry call: a deinit may run then.
    func liveObject(_ id: UInt32) -> AnyObject? {
        withLock { liveObjects[id]?.object }
    }

    /// Whether a tracked object may be in its deinit on another thread right
    /// now, about to let a token with no holder known go (and the ledger to
    /// name it the token's holder): see ``dyingHoldersLocked()``.
    func mayHaveTokenHolderDying() -> Bool {
        withLock { !dyingHoldersLocked().isEmpty }
    }

    /// The tracked objects that may be in their deinit, while a block token
    /// with no holder known is alive: those gone (their weak reference
    /// empty, or their deallocation recorded by a check) that the ledger has
    /// not seen go, and the one whose deinit is removing its tokens; none
    /// past ``stopWaitingForDyingHolders()``.
    private func dyingHoldersLocked() -> [UInt32] {
        guard tokenHolders.isLooking, !tokenHolders.tracked.isEmpty || tokenHolders.holderStillRemoving != nil
        else { return [] }
        guard hasUnownedLiveTokenLocked() else { return [] }
        var dying = tokenHolders.tracked.filter { deallocated.contains($0) || isGoneLocked($0) }
        if let removing = tokenHolders.holderStillRemoving { dying.insert(removing) }
        return dying.filter { !notAwaitedHolders.contains($0) }
    }

    /// Whether a block token with no owner recorded is still alive.
    private func hasUnownedLiveTokenLocked() -> Bool {
        for id in registrationTokens where tokenOwners[id] == nil && liveObjects[id] != nil && !isGoneLocked(id) {
            return true
        }
        return false
    }

    /// A check waited long enough: the holders dying now are not waited for
    /// again (their tokens' holders are found as they go, if ever).
    func stopWaitingForDyingHolders() {
        withLock { notAwaitedHolders.formUnion(dyingHoldersLocked()) }
    }

    /// Whether a check stopped waiting for a dying holder (its deadline passed).
    var stoppedWaitingForDyingHolders: Bool { withLock { !notAwaitedHolders.isEmpty } }

    /// Records, once per token, that `holder` keeps the registration token
    /// `token` (a `retain` event): the owner of a block registration.
    func recordTokenOwner(_ holder: UInt32, of token: UInt32) {
        withLock { recordTokenOwnerLocked(holder, of: token, context: ThreadContext.current) }
    }

    /// Records `holder` as `token`'s owner, and as the owner of the tokens
    /// `token` overwrote.
    private func recordTokenOwnerLocked(_ holder: UInt32, of token: UInt32, context: ThreadContext) {
        var pending = [token]
        while let next = pending.popLast() {
            guard tokenOwners[next] == nil else { continue }
            tokenOwners.updateValue(holder, forKey: next)
            _ = appendLocked(
                Event(kind: .retain, flags: .tokenOwner, object: next, subject: holder), context: context)
            pending += overwrittenTokens[next] ?? []
        }
    }

    /// The tokens `owner` holds, as found so far.
    func tokens(ownedBy owner: UInt32) -> [UInt32] {
        withLock { tokenOwners.filter { $0.value == owner }.keys.sorted() }
    }

    /// Records that the app dropped its reference to `id` (`appRelease`).
    func recordRelease(_ id: UInt32, at location: CodeLocation) {
        record(Event(kind: .appRelease, object: id), at: location)
        withLock { releasedObjects.append(id) }
    }

    /// Keeps, until the recorder ends, those of `objects` the app released:
    /// a registry going frees them, after its registration held them past
    /// their release (see `RegistrationStore.deinit`).
    func keepIfReleased(_ objects: [AnyObject]) {
        withLock {
            // A finished test's leak is reported by no one: the app's objects go.
            guard !stopped else { return }
            for object in objects {
                guard let id = knownObjectIDLocked(for: object), releasedObjects.contains(id) else { continue }
                keptReleased.append(object)
            }
        }
    }

    /// Objects the app released that are still alive, in id order.
    func releasedButAlive() -> [UInt32] {
        withLock {
            releasedObjects.isEmpty
                ? [] : Set(releasedObjects).filter { liveObjects[$0] != nil && !isGoneLocked($0) }.sorted()
        }
    }

    /// Whether the app object `id` is still alive (false once its weak reference is empty).
    func isAlive(_ id: UInt32) -> Bool {
        withLock { liveObjects[id] != nil && !isGoneLocked(id) }
    }

    /// Records that the harness found `token`'s registration to be what kept
    /// `object` alive (`retain`, flagged ``EventFlags/pinnedLeak``).
    func recordPinnedLeak(of object: UInt32, byToken token: UInt32) {
        record(Event(kind: .retain, flags: .pinnedLeak, object: object, subject: token))
    }

    /// Records the chain of strong references that keeps the released
    /// `object` alive (`retain`, flagged ``EventFlags/referenceChain``): from
    /// the known object `rootObject` or the registration `rootRegistration`,
    /// through `links` (the first one follows the root's own text).
    func recordReferenceChain(of object: UInt32, rootObject: UInt32, rootRegistration: UInt32, links: [String]) {
        recordChainEvent(
            Event(
                kind: .retain, flags: .referenceChain, object: object, subject: rootObject,
                registration: rootRegistration),
            text: links.joined(separator: "\n"))
    }

    /// Records that no chain from what the harness knows reaches the
    /// released `object`, and what was searched.
    func recordReferenceChainNotFound(of object: UInt32, searched: String) {
        recordChainEvent(
            Event(kind: .retain, flags: [.referenceChain, .referenceChainNotFound], object: object), text: searched)
    }

    private func recordChainEvent(_ event: Event, text: String) {
        let key = "\(event.subject) \(event.registration) \(event.flags.rawValue) \(text)"
        guard withLock({ referenceChains.updateValue(key, forKey: event.object) != key }) else { return }
        var event = event
        event.channel = intern(text)
        record(event)
    }

    func addRegistryForLeakChecks(_ registry: any DetachableRegistry) {
        withLock {
            // Swept only when the list has doubled: amortised O(1) per registry made.
            if registriesHere.count >= max(2 * registriesAtLastPrune, 16) {
                registriesHere.removeAll { $0.registry == nil }
                registriesAtLastPrune = registriesHere.count
            }
            registriesHere.append(WeakRegistry(registry: registry))
        }
    }

    /// The registries still alive, for a leak check.
    func registriesForLeakChecks() -> [any DetachableRegistry] {
        withLock { registriesHere.compactMap(\.registry) }
    }

    /// `label` or `Type#id`.
    func objectName(_ id: UInt32) -> String {
        withLock { objects[Int(id)].displayName(id: id) }
    }

    // MARK: Snapshots

    /// Everything recorded so far, as an immutable value.
    func snapshot() -> Recording {
        withLock { snapshotLocked() }
    }

    /// ``snapshot()``, or nil when `unlessHolderDying` and a tracked object
    /// is dying with a token whose holder is not known yet (decided under
    /// the lock the deinit's removals take).
    func snapshot(unlessHolderDying: Bool) -> Recording? {
        withLock {
            if unlessHolderDying && !dyingHoldersLocked().isEmpty { return nil }
            return snapshotLocked()
        }
    }

    /// ``snapshot()`` while nothing is recorded, else nil: every object,
    /// token and task holder a check looks at is tracked with an event.
    func snapshotIfEmpty() -> Recording? {
        withLock { storage.count == 0 ? snapshotLocked() : nil }
    }

    private func snapshotLocked() -> Recording {
        Recording(
            events: EventLog(storage: storage, count: storage.count),
            strings: strings.strings, objects: objects, registries: registries,
            sites: sites, siteLocations: siteLocations, siteNumbers: siteNumbers)
    }

    var eventCount: Int { withLock { storage.count } }

    /// What the recording holds in memory: the event chunks allocated so far
    /// (exact) and its tables (estimated from capacities; string bytes that
    /// Swift stores inline are not counted twice).
    var memoryFootprint: MemoryFootprint {
        withLock {
            let eventBytes = storage.chunks.count * EventStorage.chunkSize * MemoryLayout<Event>.stride
            var tableBytes = strings.strings.capacity * MemoryLayout<String>.stride * 2  // array + index
            tableBytes += strings.strings.reduce(0) { $0 + ($1.utf8.count > 15 ? $1.utf8.count : 0) }
            tableBytes += objects.capacity * MemoryLayout<ObjectInfo>.stride
            tableBytes += liveObjects.capacity * (MemoryLayout<UInt32>.stride + MemoryLayout<WeakReference>.stride)
            tableBytes += objectIDs.capacity * (MemoryLayout<ObjectIdentifier>.stride + MemoryLayout<UInt32>.stride)
            tableBytes += deallocated.byteCount
            tableBytes += sites.capacity * (MemoryLayout<CallSite>.stride + MemoryLayout<CodeLocation?>.stride)
            tableBytes += siteNumbers.capacity * MemoryLayout<UInt32>.stride
            tableBytes += siteIDsByNumber.byteCount
            return MemoryFootprint(events: storage.count, eventBytes: eventBytes, tableBytes: tableBytes)
        }
    }
}

/// How much memory a recording takes (``Harness/memoryFootprint``).
package struct MemoryFootprint: Sendable {
    /// Events recorded.
    package var events: Int
    /// Bytes of event storage allocated (whole chunks).
    package var eventBytes: Int
    /// Estimated bytes of the string, object, registry and site tables.
    package var tableBytes: Int
    /// Everything, per recorded event.
    package var bytesPerEvent: Double { events == 0 ? 0 : Double(eventBytes + tableBytes) / Double(events) }
}

/// `ids` in increasing order: a handful (what a test's sweeps find) by
/// insertion, as the standard library's sort is unspecialised generic calls
/// in a debug build (what `swift test` makes).
private func inIDOrder(_ ids: [UInt32]) -> [UInt32] {
    guard ids.count > 1 else { return ids }
    guard ids.count <= 16 else { return ids.sorted() }
    // Sorted in place, by index: no positions to map back (a generic `map` in a debug build).
    var sorted = ids
    var next = 1
    while next < sorted.count {
        let id = sorted[next]
        var slot = next
        while slot > 0, sorted[slot - 1] > id {
            sorted[slot] = sorted[slot - 1]
            slot -= 1
        }
        sorted[slot] = id
        next += 1
    }
    return sorted
}

/// The positions of `ids`, ordered by id: an insertion sort for the few a
/// test has (a debug build sorts by a closure through unspecialised generic
/// code), a sort for more.
private func positionsInIDOrder(_ ids: [UInt32]) -> [Int] {
    guard ids.count <= 16 else { return ids.indices.sorted { ids[$0] < ids[$1] } }
    var order: [Int] = []
    var next = 0
    while next < ids.count {
        var slot = order.count
        order.append(next)
        while slot > 0, ids[order[slot - 1]] > ids[next] {
            order[slot] = order[slot - 1]
            slot -= 1
        }
        order[slot] = next
        next += 1
    }
    return order
}

/// A recording's site id for each ``SiteCatalog`` number it has met (0:
/// not met), in pages of 64 numbers. The catalog numbers every site the
/// process meets, so a test late in a long suite has its own sites numbered
/// in the tens of thousands; one array up to its largest number made every
/// test pay for all the sites before it. A test's sites fill a few pages:
/// the app code's, numbered early, and its own, numbered together.
struct SiteIDsByNumber {
    private static let pageShift = 6
    private static let pageSize = 1 << pageShift
    /// Per page of numbers up to the last page met, where its ids start in
    /// `ids`; -1: none yet. At most 1 024 entries: the catalog holds 65 536 numbers.
    private var pageStarts: [Int32] = []
    private var ids: [UInt32] = []

    subscript(number: UInt32) -> UInt32 {
        let page = Int(number) >> Self.pageShift
        guard page < pageStarts.count else { return 0 }
        let start = pageStarts[page]
        return start < 0 ? 0 : ids[Int(start) + (Int(number) & (Self.pageSize - 1))]
    }

    mutating func set(_ id: UInt32, for number: UInt32) {
        let page = Int(number) >> Self.pageShift
        // New arrays are made with `init(repeating:count:)`, which a debug build
        // (what `swift test` makes) has specialised: `+=` is a generic call there.
        if page >= pageStarts.count {
            var grown = [Int32](repeating: -1, count: page + 1)
            var index = 0
            while index < pageStarts.count {
                grown[index] = pageStarts[index]
                index += 1
            }
            pageStarts = grown
        }
        if pageStarts[page] < 0 {
            pageStarts[page] = Int32(ids.count)
            if ids.count == 0 {
                ids = [UInt32](repeating: 0, count: Self.pageSize)
            } else {
                ids += [UInt32](repeating: 0, count: Self.pageSize)
            }
        }
        ids[Int(pageStarts[page]) + (Int(number) & (Self.pageSize - 1))] = id
    }

    var byteCount: Int {
        pageStarts.capacity * MemoryLayout<Int32>.stride + ids.capacity * MemoryLayout<UInt32>.stride
    }
}

/// One bit per object id: whether its deallocation has been recorded.
private struct ObjectBits {
    private var words: [UInt64] = []

    func contains(_ id: UInt32) -> Bool {
        let word = Int(id >> 6)
        return word < words.count && words[word] & (1 << (UInt64(id) & 63)) != 0
    }

    /// Sets the bit; false when it was set already.
    mutating func insert(_ id: UInt32) -> Bool {
        let word = Int(id >> 6)
        if word >= words.count { words += [UInt64](repeating: 0, count: word + 1 - words.count) }
        let bit: UInt64 = 1 << (UInt64(id) & 63)
        defer { words[word] |= bit }
        return words[word] & bit == 0
    }

    var byteCount: Int { words.capacity * MemoryLayout<UInt64>.stride }
}

/// A registry that can let go of an observer's registrations (a leak check's last resort).
protocol DetachableRegistry: AnyObject {
    /// Ends `observerID`'s registrations without recording a removal, and
    /// returns them for the caller to release outside the recorder's lock.
    func detachRegistrations(ofObserver observerID: UInt32) -> [AnyObject]
    /// What its active registrations hold strongly (observers held
    /// strongly, handlers), for the reference-chain search.
    func heldReferences() -> [HeldReferences]
}

struct WeakRegistry {
    weak var registry: (any DetachableRegistry)?
}

/// A weak reference that also remembers which address it was made for.
struct WeakReference {
    weak var object: AnyObject?
    let key: ObjectIdentifier?

    init(_ object: AnyObject?) {
        self.object = object
        // `if let`, not `map`: a generic call in a debug build, per object tracked.
        if let object { key = ObjectIdentifier(object) } else { key = nil }
    }
}

/// Tracked objects and their ids, gathered in hash order.
private struct LiveObjects {
    var ids: [UInt32] = []
    var objects: [AnyObject] = []

    /// The pairs by id.
    func inIDOrder() -> [(id: UInt32, object: AnyObject)] {
        positionsInIDOrder(ids).map { (ids[$0], objects[$0]) }
    }
}

/// See ``Recorder/tokenOwnerSearch()``. Parallel arrays, not arrays of
/// pairs: a debug build handles a tuple element through generic code.
struct TokenOwnerSearchInput {
    /// The live tracked objects that are not tokens, and their ids.
    var holders: [AnyObject] = []
    var holderIDs: [UInt32] = []
    /// The live tokens, held so that none is let go under the recorder's
    /// lock (its deinit records through it).
    var tokens: [AnyObject] = []
    /// The live tokens with no owner recorded: their identities and ids.
    var unownedTokenKeys: [ObjectIdentifier] = []
    var unownedTokenIDs: [UInt32] = []
    /// Every live tracked object: a search stops at them.
    var known = Set<ObjectIdentifier>()
}
