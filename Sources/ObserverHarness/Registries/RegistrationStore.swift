/// One registration in an instrumented registry, all but its handler: what
/// the store's lists hold. Not generic, so those lists are of one concrete
/// type: a debug build (what `swift test` runs) looks a generic class's list
/// types up at run time on every add, removal and post.
///
/// Mutable state is guarded by the recorder's lock (the store reads and writes
/// it only inside `recorder.withLock`).
class RegistrationCore: @unchecked Sendable {
    final let id: UInt32
    final let observerID: UInt32
    final let hold: Hold
    final let channel: UInt32
    final let anyChannel: Bool
    final let senderID: UInt32
    final let tokenForm: Bool
    final let site: UInt32
    private let strongObserver: AnyObject?
    // Set once, in `init`: the runtime's exclusivity check on each delivery's load buys nothing.
    @exclusivity(unchecked) private weak var weakObserver: AnyObject?
    /// False for block registrations that name no observer object.
    final let hasObserverObject: Bool
    /// Where the registering code was isolated; deliveries are checked against it.
    final let isolation: RegistrationIsolation
    /// Where its handler runs when that is fixed (a block given a queue);
    /// nil when it runs on the posting thread.
    final let deliveryPlace: ExecutionPlace?
    // Lock-guarded, so the runtime's exclusivity check (read per delivery) is redundant.
    @exclusivity(unchecked) final var isActive = true
    /// Its index in the store's list while active (lock-guarded).
    @exclusivity(unchecked) final var position = 0
    /// Its weakly held observer was found gone and one skipped delivery was
    /// recorded: later posts pass it by (as Foundation prunes such entries)
    /// instead of recording a skip on every post forever. A removal still
    /// matches it. Lock-guarded.
    @exclusivity(unchecked) final var pruned = false

    init(
        id: UInt32, observer: AnyObject?, observerID: UInt32, hold: Hold, channel: UInt32,
        anyChannel: Bool, senderID: UInt32, tokenForm: Bool, site: UInt32,
        isolation: RegistrationIsolation, deliveryPlace: ExecutionPlace?
    ) {
        self.id = id
        self.isolation = isolation
        self.deliveryPlace = deliveryPlace
        self.observerID = observerID
        self.hold = hold
        self.channel = channel
        self.anyChannel = anyChannel
        self.senderID = senderID
        self.tokenForm = tokenForm
        self.site = site
        hasObserverObject = observer != nil
        strongObserver = hold == .strong ? observer : nil
        weakObserver = hold == .strong ? nil : observer
    }

    /// The observer if it is still alive (always, for a strong hold).
    final var observer: AnyObject? {
        // Not `??`: its autoclosure is a generic call per delivery in a debug build.
        if let strongObserver { return strongObserver }
        return weakObserver
    }

    /// The flags of a delivery made on `context`'s thread: whether it ran on
    /// the main actor, and whether that is off the registration's isolation.
    /// Only an isolated registration asks where it runs; for the others (the
    /// hot path) this is one comparison.
    @inline(__always)
    final func deliveryFlags(_ context: ThreadContext) -> EventFlags {
        // A pattern, not `!=`: the enum's `==` is a call in a debug build.
        if case .nonisolated = isolation { return .none }
        return isolatedDeliveryFlags(context)
    }

    private func isolatedDeliveryFlags(_ context: ThreadContext) -> EventFlags {
        isolation.deliveryFlags(at: deliveryPlace ?? context.modelledPlace ?? context.liveDeliveryPlace)
    }

    /// Whether it matches a post on `channel` from `sender` (0 = no sender).
    @inline(__always)
    final func matches(channel: UInt32, sender: UInt32) -> Bool {
        (anyChannel || self.channel == channel) && (senderID == 0 || senderID == sender)
    }
}

/// A registration with its handler: what a registry gets back and delivers to.
final class Registration<Handler>: RegistrationCore, @unchecked Sendable {
    let handler: Handler

    init(
        id: UInt32, observer: AnyObject?, observerID: UInt32, hold: Hold, channel: UInt32,
        anyChannel: Bool, senderID: UInt32, tokenForm: Bool, site: UInt32,
        isolation: RegistrationIsolation = .nonisolated, deliveryPlace: ExecutionPlace? = nil, handler: Handler
    ) {
        self.handler = handler
        super.init(
            id: id, observer: observer, observerID: observerID, hold: hold, channel: channel,
            anyChannel: anyChannel, senderID: senderID, tokenForm: tokenForm, site: site,
            isolation: isolation, deliveryPlace: deliveryPlace)
    }
}

/// The registration list and delivery loop every instrumented registry shares:
/// add, remove, and deliver one post synchronously and depth-first, with a
/// pluggable delivery order. A registration added during a delivery misses
/// it. One removed during it receives nothing more (the scenario model's
/// rule), unless the store delivers from a snapshot, as the plain
/// `ObserverList` and Linux Foundation's center do: then the post goes on to
/// everyone registered when it started.
///
/// Add, remove and the duplicate check cost O(1) amortised: registrations
/// are found through their observer (by a scan while the list is short),
/// and removal leaves a hole in the list that the next compaction closes.
final class RegistrationStore<Handler>: DetachableRegistry, @unchecked Sendable {
    let recorder: Recorder
    let registryID: UInt32
    let name: String
    let kind: RegistryKind
    let order: DeliveryOrder
    /// A registration removed during a post still receives that post.
    let deliversFromSnapshot: Bool
    // Guarded by the recorder's lock (which also makes the runtime's
    // exclusivity checks redundant on these per-post paths).
    /// Active registrations in registration order; nil where one ended.
    @exclusivity(unchecked) private var registrations: [RegistrationCore?] = []
    /// The active registrations of each observer id, in registration order,
    /// made once the list grows past ``observerTableThreshold``: a short list
    /// (a test's few registrations) is scanned instead, which saves a table
    /// and an array for each observer.
    @exclusivity(unchecked) private var byObserver: [UInt32: [RegistrationCore]]?
    private static var observerTableThreshold: Int { 16 }
    @exclusivity(unchecked) private var activeRegistrations = 0
    /// `registrations.count` at which the holes are closed: twice the active
    /// count at the last compaction, so each add pays O(1) for it.
    @exclusivity(unchecked) private var compactionThreshold = 16
    private var multiReceiverPosts = 0
    @exclusivity(unchecked) private var lastChannel: (name: String, id: UInt32)?
    /// Set by a replay that was cut short, on the replay's own thread: the
    /// deliveries in progress stop. Live registries never set it.
    @exclusivity(unchecked) var halted = false
    /// Set by a replay: called on the replay's thread once per receiver a
    /// delivery loop reaches, whatever its observer's state (alive, dead,
    /// weak and gone, or removed earlier in the post), so the replay charges
    /// each as work. Live registries never set it.
    @exclusivity(unchecked) var onDeliveryAttempt: (() -> Void)?
    /// Registrations a leak check detached (lock-guarded): the app removing
    /// one afterwards removes what it registered, not nothing.
    private var detachedIDs = Set<UInt32>()

    deinit {
        // Going, a registry frees the observers its strong registrations
        // still hold: one the app released would take with it the leak
        // analysis reports. The recorder keeps those, so a test that analyses
        // after its registry went (a list made in the test body) finds what
        // it would have found before. A delegate slot holds its delegate
        // outside this list: its own deinit keeps it.
        guard kind != .delegate else { return }
        var held: [AnyObject] = []
        // By index: a debug build runs `for … in` through unspecialised generic code (every test's registries go).
        var index = 0
        while index < registrations.count {
            if let registration = registrations[index], registration.isActive, registration.hold == .strong,
                let observer = registration.observer
            {
                held.append(observer)
            }
            index += 1
        }
        if !held.isEmpty { recorder.keepIfReleased(held) }
    }

    init(recorder: Recorder, info: RegistryInfo, order: DeliveryOrder) {
        self.recorder = recorder
        self.registryID = recorder.addRegistry(info)
        self.name = info.name
        self.kind = info.kind
        self.order = order
        deliversFromSnapshot = info.snapshotDelivery
        recorder.addRegistryForLeakChecks(self)
    }

    /// This store's registration type, read once: a debug build would look
    /// the generic type up at run time at each use.
    private let registrationType = Registration<Handler>.self

    /// `registration` as the `Registration<Handler>` it is: only `add` and
    /// `setDelegateLocked` make this store's registrations.
    @inline(__always)
    private func typed(_ registration: RegistrationCore) -> Registration<Handler> {
        unsafeDowncast(registration, to: registrationType)
    }

    // MARK: The list (lock held)

    /// An active registration of `observerID` for the same channel and sender.
    private func activeDuplicateLocked(
        _ observerID: UInt32, _ channelID: UInt32, _ anyChannel: Bool, _ senderID: UInt32
    ) -> RegistrationCore? {
        firstRegistrationLocked(of: observerID) {
            $0.channel == channelID && $0.anyChannel == anyChannel && $0.senderID == senderID
        }
    }

    /// The first active registration of `observerID` that `matches`.
    private func firstRegistrationLocked(
        of observerID: UInt32, where matches: (RegistrationCore) -> Bool
    ) -> RegistrationCore? {
        // By index, not `first(where:)`: a debug build runs that as unspecialised generic code.
        if let byObserver {
            guard let ofObserver = byObserver[observerID] else { return nil }
            var index = 0
            while index < ofObserver.count {
                if matches(ofObserver[index]) { return ofObserver[index] }
                index += 1
            }
            return nil
        }
        var index = 0
        while index < registrations.count {
            if let registration = registrations[index], registration.observerID == observerID,
                matches(registration)
            {
                return registration
            }
            index += 1
        }
        return nil
    }

    /// The active registrations of `observerID`, in registration order.
    private func registrationsLocked(of observerID: UInt32) -> [RegistrationCore] {
        if let byObserver { return byObserver[observerID] ?? [] }
        var found: [RegistrationCore] = []
        var index = 0
        while index < registrations.count {
            if let registration = registrations[index], registration.observerID == observerID {
                found.append(registration)
            }
            index += 1
        }
        return found
    }

    private func appendLocked(_ registration: RegistrationCore) {
        if registrations.count >= compactionThreshold { compactLocked() }
        registration.position = registrations.count
        registrations.append(registration)
        activeRegistrations += 1
        if byObserver != nil {
            byObserver?[registration.observerID, default: []].append(registration)
        } else if registrations.count > Self.observerTableThreshold {
            var table = [UInt32: [RegistrationCore]]()
            for case let active? in registrations { table[active.observerID, default: []].append(active) }
            byObserver = table
        }
    }

    /// Takes `registration` out of the list (it stays in any post's snapshot).
    private func endLocked(_ registration: RegistrationCore) {
        registration.isActive = false
        recorder.unwatchSenderLocked(registration.senderID)
        registrations[registration.position] = nil
        activeRegistrations -= 1
        guard var others = byObserver?.removeValue(forKey: registration.observerID) else { return }
        // Most observers have one registration here: it was this one.
        if others.count == 1, others[0] === registration { return }
        others.removeAll { $0 === registration }
        if !others.isEmpty { byObserver?[registration.observerID] = others }
    }

    private func compactLocked() {
        // No holes (registrations only added since): nothing to close.
        guard activeRegistrations < registrations.count else {
            compactionThreshold = max(16, 2 * registrations.count)
            return
        }
        registrations.removeAll { $0 == nil }
        for (index, registration) in registrations.enumerated() { registration?.position = index }
        compactionThreshold = max(16, 2 * registrations.count)
    }

    /// The active registration `registrationID`, found through its observer
    /// (or, should a caller name another observer, by a scan).
    private func activeRegistrationLocked(
        _ registrationID: UInt32, observerID: UInt32, where accepts: (RegistrationCore) -> Bool = { _ in true }
    ) -> RegistrationCore? {
        guard registrationID != 0 else { return nil }
        // Through its observer's table when there is one; ids are unique, so
        // otherwise (or failing that) one scan by id finds it.
        if byObserver != nil, let found = firstRegistrationLocked(of: observerID, where: { $0.id == registrationID }) {
            return accepts(found) ? found : nil
        }
        var index = 0
        while index < registrations.count {
            if let registration = registrations[index], registration.id == registrationID {
                return accepts(registration) ? registration : nil
            }
            index += 1
        }
        return nil
    }

    /// What an `add` did.
    enum AddResult {
        case added(Registration<Handler>)
        /// A de-duplicating registry ignored the add; this is the existing one.
        case ignoredDuplicate(Registration<Handler>)
    }

    /// Registers `observer`; records `add`.
    /// `isolation` is the registering code's; `deliveryPlace` where the
    /// handler always runs, if not on the posting thread.
    func add(
        observer: AnyObject?, observerID: UInt32, hold: Hold, channel: String?, senderID: UInt32,
        tokenForm: Bool, dedupe: Bool, site: SiteReference, isolation: RegistrationIsolation = .nonisolated,
        deliveryPlace: ExecutionPlace? = nil, handler: Handler, extraFlags: EventFlags = .none
    ) -> AddResult {
        recorder.withLock {
            recorder.noticeDeallocationsLocked()
            let context = ThreadContext.current
            // Not `channel.map`: a generic call with a closure in a debug build.
            var channelID: UInt32 = 0
            if let channel { channelID = internChannelLocked(channel) }
            let siteID = recorder.siteIDLocked(site)
            // Raw bits: a debug build (what `swift test` runs) pays for each
            // generic `OptionSet` call on this per-add path.
            var bits = EventFlags(hold: hold).rawValue | extraFlags.rawValue | isolation.flags.rawValue
            if tokenForm { bits |= EventFlags.tokenForm.rawValue }
            if channel == nil { bits |= EventFlags.anyChannel.rawValue }
            let flags = EventFlags(rawValue: bits)
            if dedupe, let existing = activeDuplicateLocked(observerID, channelID, channel == nil, senderID) {
                appendIgnoredDuplicateLocked(existing, flags: bits, site: siteID, channel: channelID, context: context)
                return .ignoredDuplicate(typed(existing))
            }
            let registration = Registration(
                id: recorder.newRegistrationIDLocked(), observer: observer, observerID: observerID, hold: hold,
                channel: channelID, anyChannel: channel == nil, senderID: senderID, tokenForm: tokenForm,
                site: siteID, isolation: isolation, deliveryPlace: deliveryPlace, handler: handler)
            appendLocked(registration)
            recorder.watchSenderLocked(senderID)
            _ = recorder.appendLocked(
                Event(
                    kind: .add, flags: flags, site: siteID, registry: registryID,
                    channel: channelID, object: observerID, subject: senderID,
                    registration: registration.id), context: context)
            return .added(registration)
        }
    }

    /// An `add` to a de-duplicating registry that the caller knows repeats
    /// `existing` (the same observer, which named no sender), as long as
    /// `existing` is still active on `channel`: then records what `add`
    /// records for an ignored duplicate and returns true, without looking
    /// the observer's registrations up. False: nothing recorded, `add` it.
    func addRepeating(
        _ existing: Registration<Handler>, hold: Hold, channel: String, site: SiteReference,
        isolation: RegistrationIsolation
    ) -> Bool {
        recorder.withLock {
            guard existing.isActive, !existing.anyChannel, existing.senderID == 0 else { return false }
            recorder.noticeDeallocationsLocked()
            let context = ThreadContext.current
            let channelID = internChannelLocked(channel)
            guard existing.channel == channelID else { return false }
            let bits = EventFlags(hold: hold).rawValue | isolation.flags.rawValue
            appendIgnoredDuplicateLocked(
                existing, flags: bits, site: recorder.siteIDLocked(site), channel: channelID, context: context)
            return true
        }
    }

    /// Records an `add` ignored as a duplicate of `existing`.
    private func appendIgnoredDuplicateLocked(
        _ existing: RegistrationCore, flags: UInt8, site: UInt32, channel: UInt32, context: ThreadContext
    ) {
        _ = recorder.appendLocked(
            Event(
                kind: .add, flags: EventFlags(rawValue: flags | EventFlags.ignoredDuplicate.rawValue), site: site,
                registry: registryID, channel: channel, object: existing.observerID, subject: existing.senderID,
                registration: existing.id), context: context)
    }

    /// Removes one registration by its token; records `remove` (matched or not).
    /// A `channel` or `senderID` given must match the registration's own, as
    /// Foundation's `removeObserver(token, name:object:)` requires.
    @discardableResult
    func remove(
        registrationID: UInt32, observerID: UInt32, channel: String? = nil, senderID: UInt32 = 0,
        site: SiteReference
    ) -> Bool {
        // The registration may hold the last strong reference to its observer,
        // whose deinit records through this lock: it is let go after unlocking.
        var ended: RegistrationCore?
        // Tracked objects looked at for the token's owner: released after the lock.
        var alive: [AnyObject] = []
        defer { withExtendedLifetime((ended, alive)) {} }
        return recorder.withLock {
            recorder.noticeDeallocationsLocked()
            let context = ThreadContext.current
            let siteID = recorder.siteIDLocked(site)
            let channelID = channel.map { recorder.internLocked($0) } ?? 0
            let found = activeRegistrationLocked(registrationID, observerID: observerID) {
                (channel == nil || ($0.channel == channelID && !$0.anyChannel))
                    && (senderID == 0 || $0.senderID == senderID)
            }
            if let found {
                endLocked(found)
                ended = found
            }
            let matched = found != nil || detachedIDs.remove(registrationID) != nil
            let event = Event(
                kind: .remove, flags: .byToken, site: siteID, registry: registryID,
                channel: channelID, object: observerID, subject: senderID,
                registration: matched ? registrationID : 0)
            if found?.tokenForm == true {
                // Removed in its holder's deinit, the token says who held it.
                recorder.appendTokenEndLocked(
                    event, token: observerID, ending: .removed, context: context, keepingAlive: &alive)
            } else {
                _ = recorder.appendLocked(event, context: context)
            }
            return found != nil
        }
    }

    /// Removes `observerID`'s registrations that `matching` accepts (by
    /// observer, never block-form ones); records one `remove` per registration
    /// ended, or one that matched nothing.
    @discardableResult
    func remove(
        observerID: UInt32, channel: String?, senderID: UInt32, site: SiteReference,
        includingTokenForm: Bool = false
    ) -> Int {
        // Let go after unlocking: a removed registration may hold the last
        // strong reference to an observer whose deinit records through the lock.
        var ended: [RegistrationCore] = []
        defer { withExtendedLifetime(ended) {} }
        return recorder.withLock {
            recorder.noticeDeallocationsLocked()
            let context = ThreadContext.current
            let siteID = recorder.siteIDLocked(site)
            let channelID = channel.map { recorder.internLocked($0) } ?? 0
            // Not `[]` and `insert`: a debug build makes an option set through generic `SetAlgebra` code.
            let flags = channel == nil ? EventFlags.allChannels : EventFlags.none
            var removed = 0
            for registration in registrationsLocked(of: observerID) {
                guard includingTokenForm || !registration.tokenForm,
                    channel == nil || (registration.channel == channelID && !registration.anyChannel),
                    senderID == 0 || registration.senderID == senderID
                else { continue }
                endLocked(registration)
                ended.append(registration)
                removed += 1
                _ = recorder.appendLocked(
                    Event(
                        kind: .remove, flags: flags, site: siteID, registry: registryID,
                        channel: channelID, object: observerID, subject: senderID,
                        registration: registration.id), context: context)
            }
            if removed == 0 {
                _ = recorder.appendLocked(
                    Event(
                        kind: .remove, flags: flags, site: siteID, registry: registryID,
                        channel: channelID, object: observerID, subject: senderID,
                        registration: 0), context: context)
            }
            return removed
        }
    }

    /// Removes every active registration on `channel` (every channel when
    /// nil), dead observers' included; records one `remove` per registration
    /// ended and none when there was none (emptying an empty list is no
    /// misuse). `ObserverList.removeAll`.
    @discardableResult
    func removeAll(channel: String?, site: SiteReference) -> Int {
        var ended: [RegistrationCore] = []
        defer { withExtendedLifetime(ended) {} }
        return recorder.withLock {
            recorder.noticeDeallocationsLocked()
            let context = ThreadContext.current
            let siteID = recorder.siteIDLocked(site)
            let channelID = channel.map { recorder.internLocked($0) } ?? 0
            let flags = channel == nil ? EventFlags.allChannels : EventFlags.none
            var index = 0
            while index < registrations.count {
                defer { index += 1 }
                guard let registration = registrations[index], registration.isActive, !registration.tokenForm,
                    channel == nil || (registration.channel == channelID && !registration.anyChannel)
                else { continue }
                endLocked(registration)
                ended.append(registration)
                _ = recorder.appendLocked(
                    Event(
                        kind: .remove, flags: flags, site: siteID, registry: registryID,
                        channel: channelID, object: registration.observerID, subject: registration.senderID,
                        registration: registration.id), context: context)
            }
            return ended.count
        }
    }

    /// Records that the last reference to a block-form token went away while
    /// its registration was still active. `ending` it (a typed-message token,
    /// which Foundation removes as it goes) takes the registration out too.
    func tokenDropped(registrationID: UInt32, observerID: UInt32, ending: Bool = false) {
        var ended: RegistrationCore?
        // Tracked objects looked at for the token's owner: released after the lock.
        var alive: [AnyObject] = []
        defer { withExtendedLifetime((ended, alive)) {} }
        recorder.withLock {
            // A sender or observed object that died before the drop is recorded first, as at any registry call.
            recorder.noticeDeallocationsLocked()
            guard let registration = activeRegistrationLocked(registrationID, observerID: observerID) else {
                recorder.tokenFreedLocked(observerID)
                return
            }
            let event = Event(
                kind: .tokenDropped, registry: registryID, object: observerID, registration: registrationID)
            if registration.tokenForm {
                recorder.appendTokenDropLocked(
                    event, token: observerID, context: ThreadContext.current, keepingAlive: &alive)
            } else {
                _ = recorder.appendLocked(event, context: ThreadContext.current)
            }
            if ending {
                endLocked(registration)
                ended = registration
            }
        }
    }

    var activeCount: Int { recorder.withLock { activeRegistrations } }

    /// Delivers a post to the registrations that match it without recording
    /// anything: a finished test's registrations reached by a later test's
    /// post, as the default center would reach them. Matches as `post` does;
    /// a sender this recording never saw matches only unfiltered registrations.
    /// Returns how many registrations it delivered to; `beforeFirst` runs
    /// once, before the first delivery (so what it records precedes what the
    /// handlers do).
    @discardableResult
    func deliverUnrecorded(
        channel: String, sender: AnyObject?, beforeFirst: () -> Void = {},
        deliver: (Registration<Handler>, AnyObject?) -> Void
    ) -> Int {
        var delivered = 0
        var snapshot: [RegistrationCore?] = []
        var channelID: UInt32?
        var senderID: UInt32 = 0
        recorder.withLock {
            channelID = recorder.knownStringIDLocked(channel)
            if let sender { senderID = recorder.knownObjectIDLocked(for: sender) ?? UInt32.max }
            snapshot = registrations
        }
        for case let registration? in snapshot {
            guard registration.anyChannel || channelID.map({ registration.channel == $0 }) == true,
                registration.senderID == 0 || registration.senderID == senderID
            else { continue }
            // Removed during this post: called only where the platform's center calls it.
            let (active, observer) = recorder.withLock {
                ((registration.isActive || deliversFromSnapshot) && !registration.pruned, registration.observer)
            }
            guard active, !registration.hasObserverObject || observer != nil else { continue }
            if delivered == 0 { beforeFirst() }
            deliver(typed(registration), observer)
            delivered += 1
        }
        // As in `deliverSnapshot`: the last reads ordered before the list's next change.
        recorder.withLock {}
        return delivered
    }

    /// The live observers of the active registrations a post on `channel`
    /// from no sender would reach now, in registration order, recording
    /// nothing (`ObserverList.observers(channel:)`).
    /// How many active registrations have a live observer, as the plain
    /// list counts them: one whose weak or unowned observer deallocated does
    /// not count. The observers are read under the lock and let go after it.
    func liveCount() -> Int {
        let (blocks, observers) = recorder.withLock { () -> (Int, [AnyObject?]) in
            var blocks = 0
            var observers: [AnyObject?] = []
            for registration in registrations {
                guard let registration, registration.isActive, !registration.pruned else { continue }
                if registration.hasObserverObject { observers.append(registration.observer) } else { blocks += 1 }
            }
            return (blocks, observers)
        }
        var live = blocks
        for observer in observers where observer != nil { live += 1 }
        return live
    }

    func currentObservers(channel: String) -> [AnyObject] {
        recorder.withLock {
            let channelID = recorder.knownStringIDLocked(channel)
            return registrations.compactMap { registration in
                guard let registration, registration.isActive, !registration.pruned,
                    registration.anyChannel || channelID.map({ registration.channel == $0 }) == true,
                    registration.senderID == 0
                else { return nil }
                return registration.observer
            }
        }
    }

    /// Whether `object` is the observer of an active registration here.
    func hasRegistrations(ofObject object: AnyObject) -> Bool {
        // By address, as a removal matches: an observer removing itself in its
        // deinit has already lost its weak references.
        recorder.withLock {
            guard let id = recorder.addressObjectIDLocked(for: object) else { return false }
            return firstRegistrationLocked(of: id) { _ in true } != nil
        }
    }

    /// The ids among `tokens` whose block registration here is still active.
    func activeTokens(among tokens: Set<UInt32>) -> [UInt32] {
        recorder.withLock {
            tokens.filter { token in
                firstRegistrationLocked(of: token) { $0.isActive && $0.tokenForm } != nil
            }.sorted()
        }
    }

    /// What the active registrations take — their channels, whether one takes
    /// every channel — and the addresses of their live observers: how a
    /// finished test's center is indexed for later posts and removals.
    func activeIndex() -> (names: Set<String>, everyChannel: Bool, observers: Set<ObjectIdentifier>) {
        recorder.withLock {
            var names = Set<String>()
            var everyChannel = false
            var observers = Set<ObjectIdentifier>()
            for case let registration? in registrations where registration.isActive {
                if registration.anyChannel {
                    everyChannel = true
                } else {
                    names.insert(recorder.stringLocked(registration.channel))
                }
                if registration.hasObserverObject, let observer = registration.observer {
                    observers.insert(ObjectIdentifier(observer))
                    recorder.holdUntilUnlockLocked(observer)  // its deinit must not run under the lock
                }
            }
            return (names, everyChannel, observers)
        }
    }

    func heldReferences() -> [HeldReferences] {
        recorder.withLock {
            registrations.compactMap { registration in
                guard let registration, registration.isActive else { return nil }
                let observer: [Any] = registration.hold == .strong ? [registration.observer as Any] : []
                return HeldReferences(registration: registration.id, values: observer + [typed(registration).handler])
            }
        }
    }

    func detachRegistrations(ofObserver observerID: UInt32) -> [AnyObject] {
        recorder.withLock {
            let detached = registrationsLocked(of: observerID)
            for registration in detached {
                endLocked(registration)
                detachedIDs.insert(registration.id)
            }
            return detached
        }
    }

    /// Posts and delivers. Records the post event (`kind`: post, property set
    /// or delegate call), then one delivery event per receiver, running
    /// `deliver` for live ones with the delivery as the thread's frame.
    func post(
        kind: EventKind = .post, channel: String, senderID: UInt32, site: SiteReference,
        deliver: (Registration<Handler>, AnyObject?, UInt32) -> Void
    ) {
        let context = ThreadContext.current
        var channelID: UInt32 = 0
        var postSequence: UInt32 = 0
        // The list as it is now, so a registration added during this post
        // does not receive it. A copy-on-write reference, not a filtered
        // copy: allocating and retaining a receiver array was a third of a
        // post's cost. (A handler that changes the list pays for one copy.)
        var snapshot: [RegistrationCore?] = []
        var ordinal = -1
        var orderedReceivers: [RegistrationCore] = []
        var cut = false
        recorder.withLock {
            recorder.noticeDeallocationsLocked()
            channelID = internChannelLocked(channel)
            let siteID = recorder.siteIDLocked(site)
            if cutsCycleLocked(channel: channelID, senderID: senderID, site: siteID, context: context) {
                cut = true
                return
            }
            postSequence = recorder.appendLocked(
                Event(
                    kind: kind, site: siteID, registry: registryID,
                    channel: channelID, subject: senderID), context: context)
            snapshot = registrations
            // Only an order policy needs the post's ordinal among posts with
            // several receivers; registration order skips the count.
            if !order.isRegistrationOrder {
                // `pruned` is lock-guarded: the receivers are chosen here.
                orderedReceivers = snapshot.compactMap {
                    guard let registration = $0, registration.matches(channel: channelID, sender: senderID),
                        !registration.pruned
                    else { return nil }
                    return registration
                }
                if orderedReceivers.count > 1 {
                    ordinal = multiReceiverPosts
                    multiReceiverPosts += 1
                }
            }
        }
        if cut { return }
        context.enterDelivery()
        defer { context.deliveryDepth -= 1 }
        guard ordinal >= 0 else {
            deliverSnapshot(
                snapshot, postSequence: postSequence, channel: channelID, senderID: senderID, context: context,
                deliver: deliver)
            return
        }
        var receivers = orderedReceivers
        var orderContext = DeliveryContext(
            registry: name, channel: channel, receiverCount: receivers.count,
            postOrdinal: ordinal)
        orderContext.postSequence = postSequence
        orderContext.registrationIDs = receivers.map(\.id)
        orderContext.recorder = recorder
        let permutation = order.permutation(for: orderContext)
        receivers = permutation.map { receivers[$0] }
        deliverAll(
            receivers, postSequence: postSequence, channel: channelID, senderID: senderID,
            context: context, deliver: deliver)
    }

    /// Whether a post on `channel` from `senderID` now would nest past the
    /// cycle bound inside posts of the same channel and sender; if so records
    /// `cycleCut` at the post's site instead, and the post delivers nothing.
    /// A chain whose sender changes at each level (a change bubbling up a
    /// view hierarchy) ends by itself, and is not cut. Only deep nesting
    /// walks the frames: the common case is one comparison. Lock held.
    func cutsCycleLocked(channel: UInt32, senderID: UInt32, site: UInt32, context: ThreadContext) -> Bool {
        let bound = NotificationCycleRule.depthBound
        guard context.deliveryDepth >= bound,
            recorder.reentersPastBoundLocked(
                registry: registryID, channel: channel, senderID: senderID, bound: bound, context: context)
        else { return false }
        _ = recorder.appendLocked(
            Event(kind: .cycleCut, site: site, registry: registryID, channel: channel),
            context: context)
        return true
    }

    /// The channel's string id. Posts usually repeat the previous channel, and
    /// comparing a string to the same string is a pointer check, so the last
    /// one is kept rather than hashed again. Lock held.
    private func internChannelLocked(_ channel: String) -> UInt32 {
        if let last = lastChannel, last.name == channel { return last.id }
        let id = recorder.internLocked(channel)
        lastChannel = (channel, id)
        return id
    }

    /// Delivers to an explicit receiver list (the delegate slot's single one,
    /// or an order policy's permutation).
    func deliverAll(
        _ receivers: [RegistrationCore], postSequence: UInt32, channel: UInt32, senderID: UInt32,
        context: ThreadContext, deliver: (Registration<Handler>, AnyObject?, UInt32) -> Void
    ) {
        receivers.withUnsafeBufferPointer { buffer in
            // The entries' bits, borrowed, as ``deliverSnapshot``'s loop does:
            // `receivers` keeps them alive.
            let bytes = UnsafeRawBufferPointer(buffer)
            let stride = MemoryLayout<RegistrationCore>.stride
            for index in buffer.indices {
                if halted { break }
                let bits = bytes.load(fromByteOffset: index &* stride, as: UnsafeRawPointer.self)
                Unmanaged<RegistrationCore>.fromOpaque(bits)._withUnsafeGuaranteedRef { registration in
                    deliverOne(
                        registration, postSequence: postSequence, channel: channel, senderID: senderID,
                        context: context, deliver: deliver)
                }
            }
        }
    }

    /// Delivers to those in the post's snapshot of the list that match its
    /// channel and sender.
    ///
    /// The hot loop: registrations are borrowed from the list (the snapshot
    /// keeps them alive) rather than retained and released each, and
    /// deliveries carry the recorder's latest time instead of reading the
    /// clock. Each handler still runs in its own frame, restored after it, so
    /// a deinit between two deliveries is blamed on the frame around them.
    private func deliverSnapshot(
        _ snapshot: [RegistrationCore?], postSequence: UInt32, channel: UInt32, senderID: UInt32,
        context: ThreadContext, deliver: (Registration<Handler>, AnyObject?, UInt32) -> Void
    ) {
        // The snapshot shares the list's storage until the list changes; a
        // change under the lock after this post copies it or, once the post
        // let go, writes in place. Every read here is followed by taking the
        // lock (in `deliverOne`, or once at the end), so that order is one
        // ThreadSanitizer can see, not only the runtime's reference count.
        var readSinceLock = false
        snapshot.withUnsafeBufferPointer { buffer in
            // Each entry's bits, not the optional reference: loading a class
            // reference from memory retains it, and a release follows, two
            // atomic operations a delivery. The snapshot keeps every entry
            // alive while the post runs.
            let bytes = UnsafeRawBufferPointer(buffer)
            let stride = MemoryLayout<RegistrationCore?>.stride
            for index in buffer.indices {
                if halted { break }
                readSinceLock = true
                guard let bits = bytes.load(fromByteOffset: index &* stride, as: UnsafeRawPointer?.self) else {
                    continue
                }
                Unmanaged<RegistrationCore>.fromOpaque(bits)._withUnsafeGuaranteedRef { registration in
                    // `matches(channel:sender:)`, written out: a debug build calls it per receiver.
                    guard registration.anyChannel || registration.channel == channel,
                        registration.senderID == 0 || registration.senderID == senderID
                    else { return }
                    deliverOne(
                        registration, postSequence: postSequence, channel: channel, senderID: senderID,
                        context: context, deliver: deliver)
                    readSinceLock = false
                }
            }
        }
        if readSinceLock { recorder.withLock {} }
    }

    @inline(__always)
    private func deliverOne(
        _ registration: RegistrationCore, postSequence: UInt32, channel: UInt32,
        senderID: UInt32, context: ThreadContext,
        deliver: (Registration<Handler>, AnyObject?, UInt32) -> Void
    ) {
        var observer: AnyObject?
        var deliverySequence: UInt32 = 0
        var offIsolation = false
        let shouldRun: Bool = recorder.withLock {
            // Removed during an earlier delivery of this post: nothing more,
            // unless the registry delivers from a snapshot.
            guard registration.isActive || deliversFromSnapshot, !registration.pruned else { return false }
            // A block registration has no observer object: no weak load.
            guard registration.hasObserverObject else {
                let flags = registration.deliveryFlags(context)
                offIsolation = flags.rawValue & EventFlags.offIsolation.rawValue != 0
                if offIsolation { recorder.noteOffIsolationDeliveryLocked() }
                deliverySequence = recorder.appendDeliveryLocked(
                    Event(
                        kind: .deliver, flags: flags,
                        registry: registryID, channel: channel, object: registration.observerID,
                        subject: senderID, registration: registration.id, cause: postSequence), context: context)
                return true
            }
            observer = registration.observer
            let dead = observer == nil
            // Records the deallocation (found late) before the delivery that reveals it.
            if dead {
                _ = recorder.isDeallocatedLocked(registration.observerID)
                if registration.hold == .weak { registration.pruned = true }
            }
            let kind: EventKind = dead ? (registration.hold == .weak ? .deliverSkipped : .deliverToDead) : .deliver
            let flags = dead ? EventFlags.none : registration.deliveryFlags(context)
            // Raw bits, not `contains`: a generic `OptionSet` call per delivery in a debug build.
            offIsolation = flags.rawValue & EventFlags.offIsolation.rawValue != 0
            if offIsolation { recorder.noteOffIsolationDeliveryLocked() }
            deliverySequence = recorder.appendDeliveryLocked(
                Event(
                    kind: kind, flags: flags, registry: registryID, channel: channel, object: registration.observerID,
                    subject: senderID, registration: registration.id, cause: postSequence), context: context)
            return !dead
        }
        onDeliveryAttempt?()
        guard shouldRun else { return }
        guard offIsolation else {
            // `recorder.withFrame`, written out: a debug build calls the
            // generic function and its closure on every delivery. (`deliver`
            // does not throw, so the frame is restored on every path.)
            let savedRecorder = context.frameRecorder
            let savedSequence = context.frameSequence
            context.frameRecorder = ObjectIdentifier(recorder)
            context.frameSequence = deliverySequence
            deliver(typed(registration), observer, deliverySequence)
            context.frameRecorder = savedRecorder
            context.frameSequence = savedSequence
            return
        }
        // Off its isolation: follow what the handler hands on.
        recorder.runOffIsolation(
            delivery: deliverySequence, registration: registration.id, isolation: registration.isolation
        ) {
            let receiver = typed(registration)
            recorder.withFrame(deliverySequence, context: context) { deliver(receiver, observer, deliverySequence) }
        }
    }
}
