/// One replay of a scenario under one schedule: real objects, real ARC,
/// recorded through the same recorder and registries as live code.
final class Replay {
    /// A handler nested deeper than this on one channel ends the branch.
    static let channelDepthBound = NotificationCycleRule.depthBound
    /// Bounds that keep a hostile scenario from running forever.
    static let frameDepthBound = 256
    /// Steps and effects executed, delivery attempts (to live and dead
    /// observers alike), values a loop takes, and one per 64 entries any
    /// step looks through (registrations, watched senders, held objects,
    /// tokens), per replay.
    static let workBound = 500_000
    /// Bytes of values copied, hashed or compared per unit of work.
    static let bytesPerUnit = 64
    /// Entries of a list or table looked through per unit of work.
    static let entriesPerUnit = 64
    /// Watched senders swept per unit of work: each is a hash lookup and a
    /// weak load, measured at about 16 times a registration's look.
    static let watchedSendersPerUnit = 4

    struct Result {
        let recording: Recording
        let trace: TraceIndex
        /// Every trace rule's findings in this replay.
        let findings: [Finding]
        let outcome: Outcome
        let decisions: [DecisionRecord]
        let concurrentSteps: [ConcurrentRecord]
        /// What the replay spent of ``workBound``.
        let work: Int
        /// The bound that cut this replay short, if one did.
        let limit: LimitCut?
    }

    /// A replay bound that stopped the replay: which, and at which top-level step.
    struct LimitCut: Equatable {
        enum Bound: Equatable {
            case work
            /// Handlers nested past ``frameDepthBound``, in this object's handler or method.
            case nesting(in: String)
        }

        let bound: Bound
        let step: Int
    }

    private let scenario: Scenario
    /// ``workBound``, unless the caller gives one (the fuzzer's sanitized build).
    private let workLimit: Int
    let recorder = Recorder()
    private let schedule: ScheduleState
    private var stores: [String: RegistrationStore<ReplayResponse>] = [:]
    /// Each notification center's typed messages: a registry of their own, made on first use.
    private var typedStores: [String: RegistrationStore<ReplayResponse>] = [:]
    private lazy var loops = ReplayLoops(recorder: recorder)
    private var slots: [String: ObjectSlot] = [:]
    private var tokens: [String: ScenarioToken] = [:]
    private var valueBoxes: [AnyObject] = []
    private var delegates: [DelegateKey: Registration<ReplayResponse>] = [:]
    /// `observable` registries, per observed object and property: the
    /// observers that ever tracked it, in arming order, and the trackings
    /// armed now, in arming order: each `observe` is one (one-shot: a firing
    /// disarms it).
    private var trackers: [TrackedProperty: [UInt32]] = [:]
    private var trackerSet: Set<TrackingKey> = []
    private var armedTrackings: [UInt32: [TrackedProperty: [ArmedTracking]]] = [:]
    private var state: [String: JSONValue] = [:]
    private var reads: [Outcome.Read: ValueSummary] = [:]
    /// Each key's value size (``ValueFingerprint/size``), kept as appends grow
    /// it, so a read is charged for the bytes it hashes without measuring first.
    private var stateSizes: [String: Int] = [:]
    /// How many reads each reader made at each step so far: a read's occurrence.
    private var readCounts: [ReaderPlace: Int] = [:]
    /// The recorder's id of each scenario site, by ``Step/siteNumber`` (0: not yet interned).
    private var siteIDs: [UInt32]
    /// Nesting per (registry, channel), by interned ids: names may hold any character.
    private var channelDepth: [ChannelKey: Int] = [:]
    /// Tasks handlers started (`hop` effects), run once their step ends.
    private var pendingHops: [PendingHop] = []
    private var frameDepth = 0
    private var work = 0
    private var currentStep = 0
    private var limit: LimitCut?
    private var aborted = false {
        // A delivery loop in progress stops too, instead of recording every
        // remaining receiver of every enclosing post.
        didSet {
            guard aborted else { return }
            for store in stores.values { store.halted = true }
            for store in typedStores.values { store.halted = true }
        }
    }
    private var failure: InputError?
    private let explored: Bool
    /// The key an explored order used both as a list and as a non-list, and how.
    private var clash: Outcome.Clash?
    private var running = true
    /// Every object the replay created, to break modelled cycles at the end.
    private var created: [WeakReference] = []

    private struct ObjectSlot {
        let id: UInt32
        /// The scenario's own strong reference, until `release`.
        var strong: ScenarioObject?
        weak var object: ScenarioObject?
    }

    private struct ChannelKey: Hashable {
        let registry: UInt32
        let channel: UInt32
    }

    private struct ReaderPlace: Hashable {
        let reader: String
        let position: ScenarioPosition
    }

    private struct DelegateKey: Hashable {
        let registry: String
        let owner: UInt32
    }

    /// Who is running: `self` and the payload of a handler or method.
    private struct Frame {
        let selfName: String
        let selfID: UInt32
        /// nil while the object runs its deinit: it can no longer be retained.
        let selfObject: ScenarioObject?
        let payload: JSONValue
        /// The object's methods, which its deinit can still call.
        var selfMethods: [String: Handler] = [:]
    }

    /// `explored`: a replay in an order the search chose, not the first: a
    /// key used both as a list and as a non-list there is that order's
    /// outcome (``Outcome/clash``), not an invalid scenario.
    init(_ scenario: Scenario, schedule: Schedule, workLimit: Int = Replay.workBound, explored: Bool = false) {
        self.scenario = scenario
        self.workLimit = workLimit
        self.explored = explored
        self.schedule = ScheduleState(schedule)
        siteIDs = Array(repeating: 0, count: scenario.siteCount)
        for name in scenario.registries.keys.sorted() {
            guard let declaration = scenario.registries[name] else { continue }
            let order = declaration.order == .registration ? DeliveryOrder.registration : self.schedule.deliveryOrder
            stores[name] = RegistrationStore(
                recorder: recorder,
                info: RegistryInfo(
                    name: name, kind: declaration.kind, dedupe: declaration.dedupe,
                    order: declaration.order, declaredHold: declaration.hold),
                order: order)
        }
        for store in stores.values { chargeDeliveryAttempts(of: store) }
    }

    /// Every receiver a delivery loop of `store` reaches is a unit of work,
    /// whether its handler runs or its observer is dead, gone or removed:
    /// posts to thousands of dead `unowned` observers must not run unbounded.
    private func chargeDeliveryAttempts(of store: RegistrationStore<ReplayResponse>) {
        store.onDeliveryAttempt = { [weak self] in self?.charge() }
    }

    /// Charges `units` of work; past ``workBound`` the replay is cut.
    private func charge(_ units: Int = 1) {
        work += units
        if work > workLimit, !aborted { cut(.work) }
    }

    /// Charges looking through `count` entries of a list or table.
    private func chargeLookThrough(_ count: Int) {
        charge(count / Self.entriesPerUnit)
    }

    /// Looking through a registry's registrations, and the recorder's
    /// watched senders each registry operation sweeps.
    private func chargeLookThrough(_ store: RegistrationStore<ReplayResponse>) {
        chargeLookThrough(store.activeCount)
        chargeWatchedSenders()
    }

    /// The recorder sweeps its watched senders at every registry operation.
    private func chargeWatchedSenders() {
        charge(recorder.watchedSenderCount / Self.watchedSendersPerUnit)
    }

    // MARK: Running

    func run() throws(InputError) -> Result {
        let context = ThreadContext.current
        let livePlace = context.modelledPlace
        defer {
            context.modelledPlace = livePlace
            tearDown()
        }
        for (index, step) in scenario.steps.enumerated() {
            if aborted { break }
            currentStep = index
            recorder.record(Event(kind: .step, registration: UInt32(index)))
            execute(step, frame: nil, topLevelIndex: index)
            runPendingHops()
        }
        if let failure { throw failure }
        let recording = recorder.snapshot()
        let trace = TraceIndex(recording)
        var findings = Analyzer.findings(in: trace)
        var outcome = Outcome(state: state, reads: reads, lifetime: Outcome.lifetime(of: findings))
        outcome.clash = clash
        if let limit { findings.append(limitFinding(limit, trace: trace)) }
        return Result(
            recording: recording, trace: trace, findings: findings, outcome: outcome,
            decisions: schedule.decisions, concurrentSteps: schedule.concurrentSteps, work: work,
            limit: limit)
    }

    /// Lets every object go once the replay is over (or has failed). Objects
    /// still alive then are not deallocations of the scenario, and the ones a
    /// modelled leak keeps alive (a `retain` cycle) are freed too: thousands
    /// of exploration replays must not each leak their objects.
    private func tearDown() {
        running = false
        tokens.removeAll()
        armedTrackings.removeAll()
        loops.removeAll()
        delegates.removeAll()
        slots.removeAll()
        stores.removeAll()
        typedStores.removeAll()
        for reference in created { (reference.object as? ScenarioObject)?.held.removeAll() }
        created.removeAll()
    }

    /// Called from a scenario object's deinit: runs its `deinit` method, then
    /// records the deallocation.
    func objectIsDeinitializing(name: String, id: UInt32, methods: [String: Handler]) {
        guard running else { return }
        // An observed model takes its registrar, and the onChanges it keeps, with
        // it: after its deinit, so an observer they alone kept goes after it.
        let registrar = armedTrackings.removeValue(forKey: id)
        defer { withExtendedLifetime(registrar) {} }
        if let body = methods["deinit"], !aborted {
            run(body, frame: Frame(selfName: name, selfID: id, selfObject: nil, payload: .null, selfMethods: methods))
        }
        recorder.recordDealloc(id)
    }

    // MARK: Steps

    private func execute(_ step: Step, frame: Frame?, topLevelIndex: Int? = nil) {
        guard !aborted else { return }
        work += 1
        if work > workLimit {
            cut(.work)
            return
        }
        let site = siteID(of: step)
        if frame == nil { ThreadContext.current.modelledPlace = place(step.isolation) }
        switch step.operation {
        case .create(let name, let type, let methods):
            let id = recorder.trackOwnedObject(typeName: type, label: name, site: site)
            let object = ScenarioObject(name: name, id: id, methods: methods, replay: self)
            created.append(WeakReference(object))
            slots[name] = ObjectSlot(id: id, strong: object, object: object)

        case .release(let name):
            release(name, frame: frame, site: site)

        case .retain(let holderName, let targetName, let tokenOwner):
            guard let holder = resolve(holderName, frame)?.object, let target = resolve(targetName, frame)
            else { return }
            guard let targetObject = target.object else { return }
            holder.held.append(targetObject)
            recorder.record(
                Event(
                    kind: .retain, flags: tokenOwner ? .tokenOwner : [], site: site, object: target.id,
                    subject: holder.id))

        case .observe(let observation):
            if scenario.registries[observation.registry]?.kind == .observable {
                armTracking(observation, frame: frame, site: site)
            } else {
                observe(observation, frame: frame, site: site)
            }

        case .remove(let removal):
            remove(removal, frame: frame, site: site)

        case .dropToken(let token):
            // The token's registration is looked for in its registry.
            if let store = tokens[token]?.store { chargeLookThrough(store) }
            tokens[token] = nil

        case .post(let registry, let channel, let sender, let payload, let senderValue, let typed):
            guard let store = typed ? typedStore(registry) : stores[registry] else { return }
            let senderID =
                senderValue.map { valueSenderID($0, site: site) }
                ?? sender.flatMap { resolve($0, frame)?.id } ?? 0
            deliver(store, kind: .post, channel: channel ?? "", senderID: senderID, site: site, payload: payload)

        case .set(let registry, let objectName, let property, let value):
            guard let store = stores[registry], let target = resolve(objectName, frame) else { return }
            let key = "\(objectName == "self" ? frame?.selfName ?? objectName : objectName).\(property)"
            guard let newValue = evaluate(value, frame: frame, at: step.position) else { return }
            if store.kind == .observable {
                // Every onChange runs first, in willSet: it still reads the old value.
                changeTracked(store, objectID: target.id, property: property, key: key, site: site)
                writeState(key, newValue, kind: .stateSet, position: step.position, site: site)
                return
            }
            let oldValue = state[key] ?? .null
            writeState(key, newValue, kind: .stateSet, position: step.position, site: site)
            let payload: JSONValue = .object(["old": oldValue, "new": newValue])
            deliver(store, kind: .propertySet, channel: property, senderID: target.id, site: site, payload: payload)

        case .setDelegate(let registry, let ownerName, let delegateName, let hold):
            setDelegate(
                registry: registry, ownerName: ownerName, delegateName: delegateName, hold: hold,
                frame: frame, site: site)

        case .callDelegate(let registry, let ownerName, let method, let payload):
            callDelegate(
                registry: registry, ownerName: ownerName, method: method, payload: payload,
                frame: frame, site: site)

        case .invoke(let objectName, let method, let payload):
            guard let target = resolve(objectName, frame) else { return }
            let sequence = recorder.record(
                Event(
                    kind: .invoke, site: site, channel: recorder.intern(method),
                    object: target.id))
            if let object = target.object, let body = object.methods[method] {
                recorder.withFrame(sequence) {
                    run(
                        body,
                        frame: Frame(
                            selfName: object.name, selfID: object.id, selfObject: object,
                            payload: payload))
                }
            } else if objectName == "self", let frame, frame.selfObject == nil, let body = frame.selfMethods[method] {
                // `deinit { stopObserving() }`: an object calls its own method from its deinit.
                recorder.withFrame(sequence) {
                    run(
                        body,
                        frame: Frame(
                            selfName: frame.selfName, selfID: frame.selfID, selfObject: nil,
                            payload: payload, selfMethods: frame.selfMethods))
                }
            }

        case .concurrently(let branches):
            let order = schedule.interleaving(step: topLevelIndex ?? 0, branchSizes: branches.map(\.count))
            var next = Array(repeating: 0, count: branches.count)
            for branch in order where branch >= 0 && branch < branches.count && next[branch] < branches[branch].count {
                execute(branches[branch][next[branch]], frame: frame)
                next[branch] += 1
            }

        case .state(let effect):
            applyState(effect, frame: frame, step: step, site: site)

        case .hop(let isolation, let handler):
            guard let frame else { return }
            // The task holds the delivery's origin, as a live `Task` inherits it.
            pendingHops.append(
                PendingHop(place: place(isolation), handler: handler, frame: frame, origin: HopOrigin.current))

        case .openLoop(let opening):
            guard let store = opening.typed ? typedStore(opening.registry) : stores[opening.registry] else { return }
            let owner = opening.owner.flatMap { resolve($0, frame) }
            let senderID = opening.sender.flatMap { resolve($0, frame)?.id } ?? 0
            loops.open(opening, store: store, owner: owner, senderID: senderID, site: site)

        case .runLoop(let loop, let count):
            // Each value taken is work, even when its body does not run (its owner is gone).
            let proceed = { () -> Bool in
                self.charge()
                return !self.aborted
            }
            loops.take(loop, count: count, site: site, proceed: proceed) { handler, payload, owner in
                let object = owner?.object
                run(
                    handler,
                    frame: Frame(
                        selfName: object?.name ?? "", selfID: owner?.id ?? 0, selfObject: object,
                        payload: payload))
            }

        case .cancelLoop(let loop):
            loops.cancel(loop, site: site)
        }
    }

    /// The typed-message registry beside a notification center.
    private func typedStore(_ registry: String) -> RegistrationStore<ReplayResponse>? {
        if let store = typedStores[registry] { return store }
        guard let declaration = scenario.registries[registry] else { return nil }
        let store = RegistrationStore<ReplayResponse>(
            recorder: recorder,
            info: RegistryInfo(
                name: registry, kind: declaration.kind, dedupe: declaration.dedupe,
                order: declaration.order),
            order: declaration.order == .registration ? DeliveryOrder.registration : schedule.deliveryOrder)
        typedStores[registry] = store
        chargeDeliveryAttempts(of: store)
        return store
    }

    private func release(_ name: String, frame: Frame?, site: UInt32) {
        // `self` is the object whose handler runs (the same object, not a
        // later one created under its name).
        if let slotName = name == "self" ? frame?.selfName : name, var slot = slots[slotName], slot.strong != nil,
            name != "self" || slot.id == frame?.selfID
        {
            recorder.record(Event(kind: .appRelease, site: site, object: slot.id))
            // The object may deinit here, and its deinit re-enters the replay
            // and reads `slots`: drop the last reference only after the write.
            withExtendedLifetime(slot.strong) {
                slot.strong = nil
                slots[slotName] = slot
            }
            return
        }
        // Inside a handler, `release` can also drop the handler object's own
        // reference (`self.x = nil`).
        guard let holder = frame?.selfObject, let target = resolve(name, frame) else { return }
        chargeLookThrough(holder.held.count)
        guard let index = holder.held.firstIndex(where: { $0.id == target.id }) else { return }
        holder.held.remove(at: index)
    }

    private func observe(_ observation: Observation, frame: Frame?, site: UInt32) {
        guard let store = observation.typed ? typedStore(observation.registry) : stores[observation.registry],
            let declaration = scenario.registries[observation.registry],
            let observer = resolve(observation.observer, frame), let object = observer.object
        else { return }
        let senderID =
            observation.senderValue.map { valueSenderID($0, site: site) }
            ?? observation.sender.flatMap { resolve($0, frame)?.id } ?? 0
        let response: ReplayResponse =
            switch observation.response {
            case .handler(let handler): .handler(handler)
            case .method(let method): .method(method)
            }
        // A de-duplicating registry looks through its registrations for the same one.
        if declaration.dedupe { chargeLookThrough(store.activeCount) }
        chargeWatchedSenders()
        // A typed observer's token, and a property observation's (KVO's
        // NSKeyValueObservation), end the registration when they go.
        let endsWithToken = observation.typed || (observation.token != nil && declaration.kind == .property)
        let result = store.add(
            observer: object, observerID: observer.id, hold: observation.hold ?? declaration.hold,
            channel: observation.channel, senderID: senderID,
            tokenForm: endsWithToken || (observation.token != nil && declaration.kind == .notificationCenter),
            dedupe: declaration.dedupe, site: .interned(site),
            isolation: ThreadContext.current.modelledPlace?.isolation ?? .nonisolated, handler: response,
            extraFlags: endsWithToken ? .endsWithToken : [])
        guard let token = observation.token else {
            // `_ = center.addObserver(of:for:using:)`: the token goes at once, and the observer with it.
            if observation.typed, case .added(let added) = result {
                store.tokenDropped(registrationID: added.id, observerID: observer.id, ending: true)
            }
            return
        }
        switch result {
        case .added(let added):
            // Rebinding a token name drops the previous token.
            tokens[token] = ScenarioToken(
                registrationID: added.id, observerID: observer.id, store: store,
                ending: endsWithToken)
        case .ignoredDuplicate(let existing):
            // A de-duplicating registry hands back the existing registration's
            // handle: share it, so dropping one name while another still
            // holds it is not the last reference going away.
            chargeLookThrough(tokens.count)
            tokens[token] =
                tokens.values.first { $0.registrationID == existing.id && $0.store === store }
                ?? ScenarioToken(registrationID: existing.id, observerID: observer.id, store: store)
        }
    }

    /// A `senderValue`, boxed as Foundation boxes a value given as `object:`
    /// (a small number shares one cached box; anything else gets a new one).
    /// The box is kept for the replay, so no later box takes its address.
    private func valueSenderID(_ value: JSONValue, site: UInt32) -> UInt32 {
        let (swiftValue, typeName): (Any, String) =
            switch value {
            case .string(let string): (string, "String")
            case .int(let int): (int, "Int")
            case .double(let double): (double, "Double")
            case .bool(let bool): (bool, "Bool")
            case .null, .array, .object: (value, "JSON value")
            }
        let box = swiftValue as AnyObject
        valueBoxes.append(box)
        let label = swiftValue is JSONValue ? value.serialized(.compact) : ValueDescription.of(swiftValue)
        return recorder.valueObjectID(
            for: box, typeName: typeName, label: ValueDescription.cut(label),
            site: .interned(site))
    }

    private func remove(_ removal: Removal, frame: Frame?, site: UInt32) {
        guard let store = stores[removal.registry] else { return }
        if let token = removal.token {
            let bound = tokens[token]
            chargeLookThrough(bound?.store ?? store)
            // A typed token belongs to the center's typed registry.
            (bound?.store ?? store).remove(
                registrationID: bound?.registrationID ?? 0, observerID: bound?.observerID ?? 0,
                site: .interned(site))
            return
        }
        guard let observerName = removal.observer, let observer = resolve(observerName, frame) else { return }
        let senderID =
            removal.senderValue.map { valueSenderID($0, site: site) }
            ?? removal.sender.flatMap { resolve($0, frame)?.id } ?? 0
        chargeLookThrough(store)
        store.remove(
            observerID: observer.id, channel: removal.channel, senderID: senderID, site: .interned(site),
            includingTokenForm: store.kind != .notificationCenter)
    }

    private func setDelegate(
        registry: String, ownerName: String, delegateName: String?, hold: Hold?,
        frame: Frame?, site: UInt32
    ) {
        guard let store = stores[registry], let declaration = scenario.registries[registry],
            let owner = resolve(ownerName, frame)
        else { return }
        let delegate = delegateName.flatMap { resolve($0, frame) }
        let key = DelegateKey(registry: registry, owner: owner.id)
        let hold = hold ?? declaration.hold
        // The slot may hold the previous delegate's last strong reference; its
        // deinit re-enters the recorder, so it is let go after unlocking.
        var previous: Registration<ReplayResponse>?
        defer { withExtendedLifetime(previous) {} }
        let isolation = ThreadContext.current.modelledPlace?.isolation ?? .nonisolated
        recorder.withLock {
            previous = store.setDelegateLocked(
                &delegates[key], to: delegate?.object, delegateID: delegate?.id ?? 0, ownerID: owner.id,
                hold: hold, site: site, isolation: isolation, handler: .method(""), context: ThreadContext.current)
        }
    }

    private func callDelegate(
        registry: String, ownerName: String, method: String, payload: JSONValue,
        frame: Frame?, site: UInt32
    ) {
        guard let store = stores[registry], let owner = resolve(ownerName, frame) else { return }
        let receiver = delegates[DelegateKey(registry: registry, owner: owner.id)]
        let channel = recorder.intern(method)
        guard enter(registryID: store.registryID, channelID: channel, site: site) else { return }
        defer { leave(registryID: store.registryID, channelID: channel) }
        let call = recorder.record(
            Event(
                kind: .delegateCall, site: site, registry: store.registryID, channel: channel,
                object: receiver?.observerID ?? 0, subject: owner.id))
        guard let receiver else { return }
        store.deliverAll(
            [receiver], postSequence: call, channel: channel, senderID: owner.id,
            context: ThreadContext.current
        ) { _, observer, _ in
            guard let delegate = observer as? ScenarioObject, let body = delegate.methods[method] else { return }
            run(
                body,
                frame: Frame(
                    selfName: delegate.name, selfID: delegate.id, selfObject: delegate,
                    payload: payload))
        }
    }

    /// Posts through a store, running each live receiver's response.
    private func deliver(
        _ store: RegistrationStore<ReplayResponse>, kind: EventKind, channel: String,
        senderID: UInt32, site: UInt32, payload: JSONValue
    ) {
        let channelID = recorder.intern(channel)
        // Looking through a large registry is work too, even for a post that
        // reaches no one: one unit per 64 registrations.
        chargeLookThrough(store)
        guard enter(registryID: store.registryID, channelID: channelID, site: site) else { return }
        defer { leave(registryID: store.registryID, channelID: channelID) }
        store.post(kind: kind, channel: channel, senderID: senderID, site: .interned(site)) {
            registration, observer, delivery in
            // The delivery was charged as an attempt (``chargeDeliveryAttempts(of:)``).
            if case .loop(let name) = registration.handler {
                loops.receive(name, payload: payload, delivery: delivery)
                return
            }
            guard !aborted, let object = observer as? ScenarioObject else { return }
            let body: Handler? =
                switch registration.handler {
                case .handler(let handler): handler
                case .method(let method): object.methods[method]
                case .loop: nil
                }
            guard let body else { return }
            run(body, frame: Frame(selfName: object.name, selfID: object.id, selfObject: object, payload: payload))
        }
    }

    /// Where a top-level step runs: its `"isolation"`, or nonisolated code
    /// on the main thread.
    private func place(_ isolation: StepIsolation?) -> ExecutionPlace {
        switch isolation {
        case nil: .mainThread
        case .mainActor: .mainActor
        case .background: .background
        case .actor(let name): .actor(recorder.intern(name))
        }
    }

    // MARK: Observation tracking

    /// What a `set` changes: one object's property, in one registry.
    private struct TrackedProperty: Hashable {
        let registry: String
        let object: UInt32
        let property: String
    }

    private struct TrackingKey: Hashable {
        let property: TrackedProperty
        let observer: UInt32
    }

    private struct ArmedTracking {
        let observerID: UInt32
        let registration: UInt32
        let isolation: RegistrationIsolation
        let response: ReplayResponse
        /// `hold` `strong`: the onChange captures its observer, and the model's
        /// registrar keeps the onChange until it fires (or the model goes).
        let strong: ScenarioObject?
        weak var observer: ScenarioObject?
    }

    /// `withObservationTracking` of `object.property`: armed until the next
    /// change. Each call is a registration of its own, however many the same
    /// observer already has.
    private func armTracking(_ observation: Observation, frame: Frame?, site: UInt32) {
        guard let store = stores[observation.registry], let declaration = scenario.registries[observation.registry],
            let observer = resolve(observation.observer, frame),
            let objectName = observation.sender, let target = resolve(objectName, frame),
            let property = observation.channel
        else { return }
        let tracked = TrackedProperty(registry: observation.registry, object: target.id, property: property)
        let hold = observation.hold ?? declaration.hold
        let isolation = ThreadContext.current.modelledPlace?.isolation ?? .nonisolated
        let name = "\(objectName == "self" ? frame?.selfName ?? objectName : objectName).\(property)"
        let registration = recorder.withLock { recorder.newRegistrationIDLocked() }
        recorder.record(
            Event(
                kind: .observationArm, flags: isolation.flags.union(EventFlags(hold: hold)), site: site,
                registry: store.registryID, channel: recorder.intern(name), object: observer.id,
                registration: registration))
        if trackerSet.insert(TrackingKey(property: tracked, observer: observer.id)).inserted {
            trackers[tracked, default: []].append(observer.id)
        }
        let response: ReplayResponse =
            switch observation.response {
            case .handler(let handler): .handler(handler)
            case .method(let method): .method(method)
            }
        armedTrackings[target.id, default: [:]][tracked, default: []].append(
            ArmedTracking(
                observerID: observer.id, registration: registration, isolation: isolation, response: response,
                strong: hold == .strong ? observer.object : nil, observer: observer.object))
    }

    /// `object.property` is about to change: every tracking of it armed now
    /// fires (and disarms) on this step's thread, in the order the schedule
    /// picks unless the registry promises registration order; an observer
    /// that tracked it before and has nothing armed records the missed change.
    private func changeTracked(
        _ store: RegistrationStore<ReplayResponse>, objectID: UInt32, property: String,
        key name: String, site: UInt32
    ) {
        let channel = recorder.intern(name)
        guard enter(registryID: store.registryID, channelID: channel, site: site) else { return }
        defer { leave(registryID: store.registryID, channelID: channel) }
        let tracked = TrackedProperty(registry: store.name, object: objectID, property: property)
        // The registrar takes this change's trackings before any onChange runs:
        // one armed during an onChange waits for the next change.
        let firing = armedTrackings[objectID]?.removeValue(forKey: tracked) ?? []
        let firingObservers = Set(firing.map(\.observerID))
        for observer in trackers[tracked] ?? [] where !firingObservers.contains(observer) {
            guard !aborted else { return }
            charge()
            recorder.record(
                Event(
                    kind: .observationChange, site: site, registry: store.registryID,
                    channel: channel, object: observer))
        }
        guard !firing.isEmpty else { return }
        let changes = firing.map { armed in
            recorder.record(
                Event(
                    kind: .observationChange, site: site, registry: store.registryID,
                    channel: channel, object: armed.observerID, registration: armed.registration))
        }
        var order = Array(firing.indices)
        if firing.count > 1, scenario.registries[store.name]?.order != .registration {
            var context = DeliveryContext(
                registry: store.name, channel: name, receiverCount: firing.count, postOrdinal: 0)
            context.postSequence = changes[0]
            context.registrationIDs = firing.map(\.registration)
            context.recorder = recorder
            order = schedule.deliveryOrder.permutation(for: context)
        }
        for index in order {
            guard !aborted else { return }
            charge()
            let armed = firing[index]
            let place = ThreadContext.current.modelledPlace ?? .mainThread
            let flags = armed.isolation.deliveryFlags(at: place)
            let fire = recorder.record(
                Event(
                    kind: .observationFire, flags: flags,
                    registry: store.registryID, channel: channel, object: armed.observerID,
                    registration: armed.registration, cause: changes[index]))
            // `[weak self]`: the onChange runs, and finds its observer gone.
            guard let object = armed.observer else { continue }
            let body: Handler? =
                switch armed.response {
                case .handler(let handler): handler
                case .method(let method): object.methods[method]
                case .loop: nil
                }
            guard let body else { continue }
            let runBody = {
                self.recorder.withFrame(fire) {
                    self.run(
                        body, frame: Frame(selfName: object.name, selfID: object.id, selfObject: object, payload: .null)
                    )
                }
            }
            // Off its isolation: what onChange hands on is followed, as a delivery's is.
            guard flags.contains(.offIsolation) else {
                runBody()
                continue
            }
            recorder.withLock { recorder.noteOffIsolationDeliveryLocked() }
            recorder.runOffIsolation(
                delivery: fire, registration: armed.registration, isolation: armed.isolation, runBody)
        }
    }

    // MARK: Depth bounds

    private func enter(registryID: UInt32, channelID: UInt32, site: UInt32) -> Bool {
        let key = ChannelKey(registry: registryID, channel: channelID)
        let depth = (channelDepth[key] ?? 0) + 1
        channelDepth[key] = depth
        if depth > Self.channelDepthBound {
            recorder.record(Event(kind: .cycleCut, site: site, registry: registryID, channel: channelID))
            aborted = true
            return false
        }
        return true
    }

    private func leave(registryID: UInt32, channelID: UInt32) {
        channelDepth[ChannelKey(registry: registryID, channel: channelID), default: 1] -= 1
    }

    /// Stops the replay at a bound that is not a cycle (reported as `exploration-limit`).
    private func cut(_ bound: LimitCut.Bound) {
        if limit == nil { limit = LimitCut(bound: bound, step: currentStep) }
        aborted = true
    }

    private func limitFinding(_ limit: LimitCut, trace: TraceIndex) -> Finding {
        let site = scenario.steps.indices.contains(limit.step) ? scenario.steps[limit.step].site : nil
        let later = scenario.steps.count - limit.step - 1
        let skipped = "the rest of step \(limit.step) and \(later) later step\(later == 1 ? "" : "s") were not run"
        let message =
            switch limit.bound {
            case .work:
                "The replay was cut at its bound of \(workLimit.grouped) units of work (steps, deliveries, "
                    + "registrations looked through and bytes of values copied or compared): \(skipped)."
            case .nesting(let name):
                "The replay was cut where handlers nested \(Self.frameDepthBound) deep (in \(name)'s handlers "
                    + "and methods): \(skipped)."
            }
        return ExplorationLimitRule().finding(
            message, step: limit.step, site: site,
            events: [trace.stepStart(limit.step) ?? 0])
    }

    /// A handler's `Task { … }`, waiting for the step that started it to end.
    private struct PendingHop {
        let place: ExecutionPlace
        let handler: Handler
        let frame: Frame
        let origin: HopOrigin?
    }

    /// Runs the hops the last top-level step started (and the ones they
    /// start), each where its task runs, in the order they were started.
    private func runPendingHops() {
        while !pendingHops.isEmpty, !aborted {
            let hop = pendingHops.removeFirst()
            ThreadContext.current.modelledPlace = hop.place
            HopOrigin.$current.withValue(hop.origin) { run(hop.handler, frame: hop.frame) }
        }
    }

    private func run(_ handler: Handler, frame: Frame) {
        frameDepth += 1
        defer { frameDepth -= 1 }
        if frameDepth > Self.frameDepthBound {
            cut(.nesting(in: frame.selfName))
            return
        }
        for effect in handler.effects {
            if aborted { return }
            execute(effect, frame: frame)
        }
    }

    // MARK: Shared state

    private func applyState(_ effect: StateEffect, frame: Frame?, step: Step, site: UInt32) {
        switch effect {
        case .increment(let key):
            let current = state[key] ?? .int(0)
            let next: JSONValue
            switch current {
            case .int(let value): next = value == .max ? .double(Double(value) + 1) : .int(value + 1)
            case .double(let value): next = .double(value + 1)
            case .null: next = .int(1)
            default:
                failOnState(
                    key, "\"increment\" of \"\(key)\", which holds \(current.serialized(.compact)), not a number",
                    at: step.position)
                return
            }
            state[key] = next
            stateSizes[key] = 20
            recorder.record(Event(kind: .increment, site: site, channel: recorder.intern(key)))
        case .set(let key, let expression):
            guard let value = evaluate(expression, frame: frame, at: step.position) else { return }
            writeState(key, value, kind: .stateSet, position: step.position, site: site)
        case .append(let key, let expression):
            guard let value = evaluate(expression, frame: frame, at: step.position) else { return }
            writeState(key, value, kind: .append, position: step.position, site: site)
        case .read(let key):
            let value = state[key] ?? .null
            // Hashing the value read is work in proportion to its size.
            work += (stateSizes[key] ?? 0) / Self.bytesPerUnit
            let summary = ValueSummary(value)
            let reader = ReaderPlace(reader: frame?.selfName ?? "scenario", position: step.position)
            let occurrence = readCounts[reader, default: 0]
            readCounts[reader] = occurrence + 1
            reads[Outcome.Read(reader: reader.reader, position: step.position, occurrence: occurrence, key: key)] =
                summary
            recorder.record(
                Event(
                    kind: .read, site: site, channel: recorder.intern(key),
                    registration: recorder.intern(summary.preview)))
        }
    }

    private func writeState(
        _ key: String, _ value: JSONValue, kind: EventKind, position: ScenarioPosition,
        site: UInt32
    ) {
        // Facts about the value there, not the value: holding it would make the append below copy the list.
        let (existingIsValue, existingIsList) = state[key].map { ($0 != .null, $0.arrayValue != nil) } ?? (false, false)
        let size = ValueFingerprint(value).size
        // Measuring and quoting the value written is work in proportion to its size.
        work += size / Self.bytesPerUnit
        if kind == .append {
            guard !existingIsValue || existingIsList else {
                failOnState(key, "\"append\" to \"\(key)\", which holds a non-list value", at: position)
                return
            }
            // Appended in place: the list leaves the state while it grows, so
            // it is not copied (no read keeps a version of it).
            var elements = state.removeValue(forKey: key)?.arrayValue ?? []
            elements.append(value)
            state[key] = .array(elements)
            stateSizes[key] = (elements.count == 1 ? 2 : stateSizes[key] ?? 2) + size + (elements.count > 1 ? 1 : 0)
        } else {
            if existingIsValue, value != .null, existingIsList != (value.arrayValue != nil) {
                failOnState(key, "\"\(key)\" is used both as a list and as a non-list value", at: position)
                return
            }
            state[key] = value
            stateSizes[key] = size
        }
        recorder.record(
            Event(
                kind: kind, site: site, channel: recorder.intern(key),
                registration: recorder.intern(ValuePreview.of(value))))
    }

    private func evaluate(_ expression: ValueExpression, frame: Frame?, at position: ScenarioPosition) -> JSONValue? {
        switch expression {
        case .literal(let value): return value
        case .payloadField(let field): return frame?.payload[field] ?? .null
        }
    }

    /// A key used both as a list and as a non-list: invalid in the first
    /// replay; in an explored order, that order's outcome, and the replay stops.
    private func failOnState(_ key: String, _ message: String, at position: ScenarioPosition) {
        guard explored else { return fail(message, at: position) }
        if clash == nil { clash = Outcome.Clash(key: key, message: message) }
        aborted = true
    }

    private func fail(_ message: String, at position: ScenarioPosition) {
        if failure == nil {
            failure = InputError(path: scenario.path, line: position.line, column: position.column, message: message)
        }
        aborted = true
    }

    // MARK: Names

    private func resolve(_ name: String, _ frame: Frame?) -> (id: UInt32, object: ScenarioObject?)? {
        if name == "self", let frame { return (frame.selfID, frame.selfObject) }
        guard let slot = slots[name] else { return nil }
        return (slot.id, slot.strong ?? slot.object)
    }

    /// Interned on first use, so the recording's site table is in the order
    /// steps ran, as it always was.
    private func siteID(of step: Step) -> UInt32 {
        let number = Int(step.siteNumber)
        if siteIDs[number] != 0 { return siteIDs[number] }
        let id = recorder.appendSite(step.site)
        siteIDs[number] = id
        return id
    }
}
