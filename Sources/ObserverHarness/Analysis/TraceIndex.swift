/// A recording indexed once for the rules: registrations with their whole
/// history, object lifetimes, posts with their deliveries, delegate slots,
/// effects with the delivery they belong to. Built in one pass over the events.
struct TraceIndex {
    // Records keep event sequences in 32 bits, as events keep their causes
    // (``Event/none``, never a sequence, stands for "not yet"): at 10^7
    // events the index is most of the analysis's memory, and 64-bit
    // sequences and optionals more than doubled its records.

    /// A registration as rules read it: what its add event holds (registry,
    /// observer, channel, sender, site, hold and form), read from that event,
    /// with what the index learnt later. Made when read, so the index stores
    /// only the later part (``RegistrationState``): it had copied every field
    /// of the event, 48 bytes a registration, the index's largest list.
    struct RegistrationRecord {
        /// The `add` (or `delegateSet`) event that made it.
        private let event: Event
        private let state: RegistrationState
        /// Some delivery reached it deallocated: see ``TraceIndex/deadDeliveries(of:)``.
        let hasDeadDeliveries: Bool

        fileprivate init(_ state: RegistrationState, event: Event, hasDeadDeliveries: Bool) {
            self.state = state
            self.event = event
            self.hasDeadDeliveries = hasDeadDeliveries
        }

        var id: UInt32 { event.registration }
        var registry: UInt32 { event.registry }
        var observer: UInt32 { event.object }
        var sender: UInt32 { event.subject }
        var site: UInt32 { event.site }
        var hold: Hold { event.flags.hold }
        var isDelegate: Bool { event.kind == .delegateSet }
        var channel: UInt32 { isDelegate ? 0 : event.channel }
        var anyChannel: Bool { isDelegate || event.flags.contains(.anyChannel) }
        var tokenForm: Bool { !isDelegate && event.flags.contains(.tokenForm) }
        /// A typed-message registration: dropping its token ends it.
        var typedMessage: Bool { !isDelegate && event.flags.contains(.typedMessage) }
        var addSequence: Int { Int(state.addSequence) }
        var removeSequence: Int? { state.removeSequence }
        var tokenDropSequence: Int? { state.tokenDropSequence }

        func isActive(at sequence: Int) -> Bool {
            addSequence < sequence && (removeSequence.map { $0 > sequence } ?? true)
        }
    }

    /// What the index keeps per registration beyond its add event: 12 bytes.
    /// (A registration trace is mostly adds: the channel's number is looked
    /// up when asked, and the rare dead deliveries are kept by slot.)
    fileprivate struct RegistrationState {
        let addSequence: UInt32
        private var storedRemoveSequence = Event.none
        private var storedTokenDropSequence = Event.none

        init(addSequence: Int) {
            self.addSequence = UInt32(addSequence)
        }

        var removeSequence: Int? {
            get { storedRemoveSequence == Event.none ? nil : Int(storedRemoveSequence) }
            set { storedRemoveSequence = newValue.map { UInt32($0) } ?? Event.none }
        }
        var tokenDropSequence: Int? {
            get { storedTokenDropSequence == Event.none ? nil : Int(storedTokenDropSequence) }
            set { storedTokenDropSequence = newValue.map { UInt32($0) } ?? Event.none }
        }
    }

    struct Lifetime {
        private var storedTrack = Event.none
        private var storedRelease = Event.none
        private var storedDealloc = Event.none

        var trackSequence: Int? {
            get { storedTrack == Event.none ? nil : Int(storedTrack) }
            set { storedTrack = newValue.map { UInt32($0) } ?? Event.none }
        }
        var releaseSequence: Int? {
            get { storedRelease == Event.none ? nil : Int(storedRelease) }
            set { storedRelease = newValue.map { UInt32($0) } ?? Event.none }
        }
        var deallocSequence: Int? {
            get { storedDealloc == Event.none ? nil : Int(storedDealloc) }
            set { storedDealloc = newValue.map { UInt32($0) } ?? Event.none }
        }

        func isDeallocated(at sequence: Int) -> Bool { deallocSequence.map { $0 < sequence } ?? false }
    }

    /// A post, property set or delegate call as rules read it: its event's
    /// fields, read from the event, and its deliveries.
    struct PostRecord {
        /// The post event itself.
        private let event: Event
        private let state: PostState

        fileprivate init(_ state: PostState, event: Event) {
            self.state = state
            self.event = event
        }

        var sequence: Int { Int(state.sequence) }
        var kind: EventKind { event.kind }
        var registry: UInt32 { event.registry }
        var channel: UInt32 { event.channel }
        var sender: UInt32 { event.subject }
        var site: UInt32 { event.site }
        /// The number of its (registry, channel) pair: see ``channelCount``.
        var channelKey: Int { Int(state.channelKey) }
        var deliveries: DeliveryList { state.deliveries }
    }

    /// What the index keeps per post beyond its event: 32 bytes.
    fileprivate struct PostState {
        let sequence: UInt32
        let channelKey: Int32
        var deliveries = DeliveryList()
    }

    /// The posts, in sequence order, each read with its event.
    struct Posts: RandomAccessCollection {
        fileprivate let states: [PostState]
        let events: EventLog

        var startIndex: Int { 0 }
        var endIndex: Int { states.count }
        func index(after i: Int) -> Int { i + 1 }
        func index(before i: Int) -> Int { i - 1 }
        subscript(position: Int) -> PostRecord {
            let state = states[position]
            return PostRecord(state, event: events[Int(state.sequence)])
        }

        /// The post's sequence alone: no record made, no event read.
        func sequence(at position: Int) -> Int { Int(states[position].sequence) }

        /// The post's last delivery alone, if it has one.
        func lastDelivery(at position: Int) -> Int? {
            let count = states[position].deliveries.count
            return count > 0 ? states[position].deliveries[count - 1] : nil
        }

        func makeIterator() -> Iterator { Iterator(records: self) }

        /// See ``RegistrationsInOrder/Iterator``.
        struct Iterator: IteratorProtocol {
            let records: Posts
            var position = 0

            mutating func next() -> PostRecord? {
                guard position < records.endIndex else { return nil }
                position += 1
                return records[position - 1]
            }
        }
    }

    struct DelegateSet {
        let sequence: Int
        let registry: UInt32
        let owner: UInt32
        let delegate: UInt32
        let site: UInt32
    }

    struct Effect {
        let sequence: Int
        let kind: EventKind
        let key: UInt32
        let value: UInt32
        /// The delivery of a post or property set this effect ran in.
        let broadcastDelivery: Int?
    }

    struct Invocation {
        let sequence: Int
        let target: UInt32
        let method: UInt32
        /// The delegate delivery it was called from, directly or through the
        /// delegate's own methods.
        let delegateDelivery: Int?
    }

    let recording: Recording
    /// Which kinds of event occur, and with which flags: a rule that needs
    /// none of them is skipped.
    private(set) var present = EventsPresent()
    var kindsPresent: EventKinds { present.kinds }
    /// One record per registration id, in the order of first addition. Rules
    /// walk ``registrationsInOrder``; a dictionary here cost a hash and a copy
    /// per registration in every rule, the bulk of analysis time.
    private var registrationStates: [RegistrationState] = []
    private var registrationSlots = DenseIndex()
    /// Every add as a slot of `registrationStates`, once some id was added
    /// again (only a hand-written trace does that); nil while each add made
    /// a record of its own, so the records are the order.
    private var reAddedOrder: [Int32]?
    /// Deliveries that reached a deallocated observer (`deliverToDead`), by
    /// registration slot: the only deliveries rules ask for, and almost always none.
    private var deadDeliveriesBySlot = [Int: SequenceList]()
    private(set) var ignoredDuplicateAdds: [Int] = []
    private(set) var lifetimes: [Lifetime]
    /// In sequence order (see ``postIndex(ofSequence:)``).
    private var postStates: [PostState] = []
    /// The same list, read with its events: made once, as rules ask per event.
    private(set) var posts: Posts
    private(set) var removals = SequenceList()
    /// Adds and removes, in order.
    private(set) var mutations = Mutations(
        states: [], ignoredAdds: [], removals: SequenceList(), events: nil, holdsDelegateSets: false)
    /// The adds and removes as a list of their own, once some id was added
    /// again; nil while ``mutations`` can merge them from the registrations,
    /// the ignored adds and the removals (4 bytes an event kept, in a trace
    /// that is mostly adds, for a list one rule walks once).
    private var explicitMutations: SequenceList?
    private(set) var delegateSets: [DelegateSet] = []
    private(set) var effects: [Effect] = []
    private(set) var invocations: [Invocation] = []
    private(set) var retains: [(holder: UInt32, target: UInt32, sequence: Int)] = []
    /// The tracked object that holds each registration token, where the
    /// harness found exactly one (see `TokenOwners`).
    private(set) var tokenOwners = [UInt32: UInt32]()
    /// Released objects the harness freed by detaching the token registration
    /// that kept them (see `LeakPinning`).
    private(set) var pinnedLeaks: [(token: UInt32, object: UInt32, sequence: Int)] = []
    /// The last reference-chain search of each released object still alive
    /// (its `retain` event; see `ReferenceChains`).
    private(set) var referenceChainEvents = [UInt32: Int]()
    /// The tracked object that keeps the task of each async loop opened with
    /// no `owner:`, where the harness found exactly one (see `HeldTasks`).
    private(set) var loopOwners = [UInt32: UInt32]()
    private(set) var cycleCuts: [Int] = []
    /// `withObservationTracking` arms, changes and firings, in order.
    private(set) var observationEvents: [Int] = []
    /// `hop` events: work handlers off their isolation started.
    private(set) var hopEvents: [Int] = []
    /// `deliverSkipped` inside a delivery: a block whose weakly held queue
    /// was gone did not run (`object` is the queue).
    private(set) var queueGoneSkips: [Int] = []
    /// Work that reached a test's scope from outside its task, in order.
    private(set) var scopeEscapes: [Int] = []
    /// Registrations for every name the router could not bridge, in order.
    private(set) var unbridgedWildcards: [Int] = []
    /// Async observations' events, in order (see ``AsyncObservations``).
    private(set) var asyncEvents: [Int] = []
    /// Numbers every (registry, channel) pair posted or registered, so rules
    /// keep per-channel state in arrays rather than hash per post.
    private var channels: PairNumbering
    private var stepStarts: [(sequence: Int, step: Int)] = []
    /// Per (registry, channel) number, whether it is posted (a `post`) and
    /// observed (by name), outside property registries: `channel-name-typo`
    /// compares names only when some name lacks its other side.
    private(set) var channelSides: [UInt8] = []
    enum ChannelSides {
        static let posted: UInt8 = 1
        static let observed: UInt8 = 2
    }
    /// Whether some tracked object is a boxed value (`value-object-filter`'s only case).
    private(set) var tracksBoxedValues = false
    /// The delegate calls, as positions in ``posts``.
    private(set) var delegateCalls: [Int] = []
    /// Deliveries that ran off their registration's isolation, with the
    /// position of their post in ``posts``, in sequence order.
    private(set) var offIsolationDeliveries: [(post: Int, delivery: Int)] = []

    var events: EventLog { recording.events }

    init(_ recording: Recording) {
        self.recording = recording
        posts = Posts(states: [], events: recording.events)
        registrationsInOrder = RegistrationsInOrder(
            states: [], slots: nil, events: recording.events, deadDeliveriesBySlot: [:])
        lifetimes = Array(repeating: Lifetime(), count: recording.objects.count)
        channels = PairNumbering(firstCount: recording.registries.count, secondCount: recording.strings.count)
        reserveCapacities(recording.events)
        var activeDelegate = [SlotKey: UInt32]()
        // Read once, indexed by id (no `map`: a debug build runs it as unspecialised generic code).
        let registries = recording.registries
        for sequence in 0..<recording.events.count {
            let event = recording.events[sequence]
            switch event.kind {
            case .track:
                lifetimes[Int(event.object)].trackSequence = sequence
                if event.flags.contains(.boxedValue) { tracksBoxedValues = true }
            case .appRelease:
                if lifetimes[Int(event.object)].releaseSequence == nil {
                    lifetimes[Int(event.object)].releaseSequence = sequence
                }
            case .dealloc:
                if lifetimes[Int(event.object)].deallocSequence == nil {
                    lifetimes[Int(event.object)].deallocSequence = sequence
                }
            case .retain:
                if event.flags.contains(.referenceChain) {
                    referenceChainEvents[event.object] = sequence
                } else if event.flags.contains(.tokenOwner) {
                    tokenOwners[event.object] = event.subject
                } else if event.flags.contains(.pinnedLeak) {
                    pinnedLeaks.append((token: event.subject, object: event.object, sequence: sequence))
                } else if event.flags.contains(.loopOwner) {
                    loopOwners[event.object] = event.subject
                } else {
                    retains.append((event.subject, event.object, sequence))
                }
            case .add:
                if event.flags.contains(.ignoredDuplicate) {
                    ignoredDuplicateAdds.append(sequence)
                } else {
                    // Numbered now, so pairs keep their first-seen numbers.
                    let key = channels.number(event.registry, event.channel)
                    if !event.flags.contains(.anyChannel) && registries[Int(event.registry)].kind != .property {
                        markChannel(key, ChannelSides.observed)
                    }
                    addRegistration(event.registration, RegistrationState(addSequence: sequence))
                }
                explicitMutations?.append(sequence)
            case .remove:
                if event.registration != 0, let slot = registrationSlots[event.registration],
                    registrationStates[slot].removeSequence == nil
                {
                    registrationStates[slot].removeSequence = sequence
                }
                if event.registration == 0 { present.insert(.unmatchedRemoval) }
                removals.append(sequence)
                explicitMutations?.append(sequence)
            case .tokenDropped:
                if let slot = registrationSlots[event.registration] {
                    registrationStates[slot].tokenDropSequence = sequence
                    // Foundation removes a typed-message registration as its token goes.
                    let added = recording.events[Int(registrationStates[slot].addSequence)]
                    if added.kind == .add, added.flags.contains(.typedMessage),
                        registrationStates[slot].removeSequence == nil
                    {
                        registrationStates[slot].removeSequence = sequence
                    }
                }
            case .delegateSet:
                let key = SlotKey(registry: event.registry, owner: event.subject)
                if let previous = activeDelegate[key], let slot = registrationSlots[previous] {
                    registrationStates[slot].removeSequence = sequence
                }
                activeDelegate[key] = nil
                if event.registration != 0 {
                    _ = channels.number(event.registry, 0)
                    addRegistration(event.registration, RegistrationState(addSequence: sequence))
                    activeDelegate[key] = event.registration
                }
                delegateSets.append(
                    DelegateSet(
                        sequence: sequence, registry: event.registry, owner: event.subject,
                        delegate: event.object, site: event.site))
            case .post, .propertySet, .delegateCall:
                let key = channels.number(event.registry, event.channel)
                if event.kind == .post && registries[Int(event.registry)].kind != .property {
                    markChannel(key, ChannelSides.posted)
                } else if event.kind == .delegateCall {
                    delegateCalls.append(postStates.count)
                }
                postStates.append(PostState(sequence: UInt32(sequence), channelKey: Int32(key)))
            case .deliver, .deliverSkipped, .deliverToDead:
                if event.cause != Event.none, let index = Self.postIndex(ofSequence: Int(event.cause), in: postStates) {
                    postStates[index].deliveries.append(sequence)
                    if event.kind == .deliver && event.flags.contains(.offIsolation) {
                        offIsolationDeliveries.append((index, sequence))
                    }
                } else if event.kind == .deliverSkipped {
                    queueGoneSkips.append(sequence)
                }
                if event.kind == .deliverToDead, let slot = registrationSlots[event.registration] {
                    deadDeliveriesBySlot[slot, default: SequenceList()].append(sequence)
                }
            case .increment, .stateSet, .append, .read:
                effects.append(
                    Effect(
                        sequence: sequence, kind: event.kind, key: event.channel,
                        value: event.registration,
                        broadcastDelivery: Self.broadcastDelivery(of: sequence, in: recording.events)))
            case .invoke:
                invocations.append(
                    Invocation(
                        sequence: sequence, target: event.object, method: event.channel,
                        delegateDelivery: Self.delegateDelivery(of: sequence, in: recording.events)))
            case .step:
                stepStarts.append((sequence, Int(event.registration)))
            case .cycleCut:
                cycleCuts.append(sequence)
            case .asyncOpen, .asyncConsume, .asyncEnd, .messageDropped, .settle:
                asyncEvents.append(sequence)
            case .observationArm, .observationChange, .observationFire:
                observationEvents.append(sequence)
            case .scopeEscape:
                scopeEscapes.append(sequence)
            case .hop:
                hopEvents.append(sequence)
            case .unbridgedWildcard:
                unbridgedWildcards.append(sequence)
            }
        }
        if reAddedOrder != nil { markObservedChannelsOfLatestAdds(registries) }
        noteCenterPostsReachingAtMostOne(registries)
        // The views share the lists' storage: no copy.
        posts = Posts(states: postStates, events: recording.events)
        registrationsInOrder = RegistrationsInOrder(
            states: registrationStates, slots: reAddedOrder, events: recording.events,
            deadDeliveriesBySlot: deadDeliveriesBySlot)
        mutations =
            explicitMutations.map(Mutations.init(list:))
            ?? Mutations(
                states: registrationStates, ignoredAdds: ignoredDuplicateAdds, removals: removals,
                events: recording.events, holdsDelegateSets: present.kinds.contains(.delegateSet))
    }

    /// Whether a notification center's post reached no one, or exactly one
    /// registration: `unobserved-post` and `single-receiver-broadcast` run
    /// only then (most tests' posts reach several, or all reach one).
    private mutating func noteCenterPostsReachingAtMostOne(_ registries: [RegistryInfo]) {
        var position = 0
        while position < postStates.count {
            let state = postStates[position]
            position += 1
            let receivers = state.deliveries.count
            guard receivers <= 1 else { continue }
            let event = recording.events[Int(state.sequence)]
            guard event.kind == .post, registries[Int(event.registry)].kind == .notificationCenter else { continue }
            present.insert(receivers == 0 ? .unreceivedCenterPost : .singleReceiverCenterPost)
        }
    }

    private mutating func markChannel(_ key: Int, _ side: UInt8) {
        // Pairs numbered without a side (delegates, property sets) have no byte yet.
        if key >= channelSides.count { channelSides += [UInt8](repeating: 0, count: key + 1 - channelSides.count) }
        channelSides[key] |= side
    }

    /// An id added again keeps only its latest add, as rules see it: the
    /// channels observed are those of the latest adds.
    private mutating func markObservedChannelsOfLatestAdds(_ registries: [RegistryInfo]) {
        for key in channelSides.indices { channelSides[key] &= ~ChannelSides.observed }
        for state in registrationStates {
            let event = recording.events[Int(state.addSequence)]
            guard event.kind == .add, !event.flags.contains(.anyChannel),
                registries[Int(event.registry)].kind != .property
            else { continue }
            markChannel(channels.existingNumber(event.registry, event.channel), ChannelSides.observed)
        }
    }

    /// Sizes each list once from a count of event kinds: at 10^7 events,
    /// growing by doubling copies every list and touches ~1.5x its pages.
    /// Notes which kinds occur, and the flags each carried, on the way.
    private mutating func reserveCapacities(_ events: EventLog) {
        // Plain pointers, not `withUnsafeMutableBufferPointer`: its nested
        // generic closures cost a debug build (what `swift test` makes) more
        // than a small test's whole count.
        let kinds = EventKind.caseCount
        let counting = UnsafeMutablePointer<Int>.allocate(capacity: kinds)
        counting.initialize(repeating: 0, count: kinds)
        let flags = UnsafeMutablePointer<UInt8>.allocate(capacity: kinds)
        flags.initialize(repeating: 0, count: kinds)
        defer {
            counting.deallocate()
            flags.deallocate()
        }
        // By index, in a `while` loop: a debug build walks a collection, or a
        // range, through unspecialised generic code, many times slower.
        var index = 0
        while index < events.endIndex {
            let event = events[index]
            counting[Int(event.kind.rawValue)] &+= 1
            flags[Int(event.kind.rawValue)] |= event.flags.rawValue
            index += 1
        }
        var kind = 0
        while kind < kinds {
            if counting[kind] > 0 { present.insert(EventKind(rawValue: UInt8(kind))!, flags: flags[kind]) }
            kind += 1
        }
        let counts = UnsafeBufferPointer(start: counting, count: kinds)
        func count(_ kind: EventKind) -> Int { counts[Int(kind.rawValue)] }
        registrationStates.reserveCapacity(count(.add) + count(.delegateSet))
        registrationSlots.reserve(ids: count(.add) + count(.delegateSet))
        postStates.reserveCapacity(count(.post) + count(.propertySet) + count(.delegateCall))
        removals.reserveCapacity(count(.remove))
        delegateSets.reserveCapacity(count(.delegateSet))
        effects.reserveCapacity(count(.increment) + count(.stateSet) + count(.append) + count(.read))
        invocations.reserveCapacity(count(.invoke))
        retains.reserveCapacity(count(.retain))
    }

    /// Records a registration; an id added again (only a hand-written trace
    /// does that) replaces its record, as a later add always has.
    private mutating func addRegistration(_ id: UInt32, _ state: RegistrationState) {
        if let existing = registrationSlots[id] {
            // The records stop being the order of adds: the adds and removes
            // so far become a list, kept from here on.
            if explicitMutations == nil {
                explicitMutations = SequenceList(
                    Mutations(
                        states: registrationStates, ignoredAdds: ignoredDuplicateAdds, removals: removals,
                        events: recording.events, holdsDelegateSets: true))
            }
            registrationStates[existing] = state
            if reAddedOrder == nil { reAddedOrder = registrationStates.indices.map { Int32($0) } }
            reAddedOrder?.append(Int32(existing))
        } else {
            registrationSlots.insert(registrationStates.count, for: id)
            registrationStates.append(state)
            reAddedOrder?.append(Int32(registrationStates.count - 1))
        }
    }

    // MARK: Queries

    /// How many (registry, channel) pairs there are: every ``PostRecord/channelKey``
    /// and ``channelKey(of:)`` is below it.
    var channelCount: Int { channels.count }

    /// The number of a registration's (registry, channel) pair.
    func channelKey(of registration: RegistrationRecord) -> Int {
        channels.existingNumber(registration.registry, registration.channel)
    }

    func registration(_ id: UInt32) -> RegistrationRecord? {
        registrationSlots[id].map { registrationsInOrder.record(slot: $0) }
    }

    /// The record of every add, in add order (an id added again appears
    /// again, with its latest record), without a lookup per id.
    private(set) var registrationsInOrder: RegistrationsInOrder

    /// Every add and remove in sequence order: the list kept, or a merge of
    /// the add of each record (no id added again, so they are in order), the
    /// ignored duplicate adds and the removals.
    struct Mutations: Sequence {
        private var list: SequenceList?
        private var states: [RegistrationState] = []
        private var ignoredAdds: [Int] = []
        private var removals = SequenceList()
        private var events: EventLog?
        /// Some records are delegate sets, not adds (each record is checked).
        private var holdsDelegateSets = false

        init(list: SequenceList) {
            self.list = list
        }

        fileprivate init(
            states: [RegistrationState], ignoredAdds: [Int], removals: SequenceList, events: EventLog?,
            holdsDelegateSets: Bool
        ) {
            (self.states, self.ignoredAdds, self.removals, self.events) = (states, ignoredAdds, removals, events)
            self.holdsDelegateSets = holdsDelegateSets
        }

        func makeIterator() -> Iterator { Iterator(mutations: self) }

        /// The merge, written for a debug build: the lists are the
        /// iterator's own (no copy of them per step), and no generic `min`
        /// (its three-argument form allocates an array per call there).
        struct Iterator: IteratorProtocol {
            private let list: SequenceList?
            private let states: [RegistrationState]
            private let ignoredAdds: [Int]
            private let removals: SequenceList
            private let events: EventLog?
            private let holdsDelegateSets: Bool
            private var listed = 0, state = 0, ignored = 0, removed = 0

            init(mutations: Mutations) {
                (list, states, ignoredAdds, removals, events) = (
                    mutations.list, mutations.states, mutations.ignoredAdds, mutations.removals, mutations.events
                )
                holdsDelegateSets = mutations.holdsDelegateSets
            }

            mutating func next() -> Int? {
                if let list {
                    guard listed < list.endIndex else { return nil }
                    listed += 1
                    return list[listed - 1]
                }
                // The next record made by an add (delegate sets have records too).
                if holdsDelegateSets, let events {
                    while state < states.count, events[Int(states[state].addSequence)].kind != .add { state += 1 }
                }
                let add = state < states.count ? Int(states[state].addSequence) : Int.max
                let ignoredAdd = ignored < ignoredAdds.count ? ignoredAdds[ignored] : Int.max
                let removal = removed < removals.endIndex ? removals[removed] : Int.max
                if add == Int.max && ignoredAdd == Int.max && removal == Int.max { return nil }
                if add <= ignoredAdd && add <= removal {
                    state += 1
                    return add
                }
                if ignoredAdd <= removal {
                    ignored += 1
                    return ignoredAdd
                }
                removed += 1
                return removal
            }
        }
    }

    struct RegistrationsInOrder: RandomAccessCollection {
        fileprivate let states: [RegistrationState]
        /// nil: the states are in add order.
        let slots: [Int32]?
        let events: EventLog
        /// The index's, by slot (almost always empty).
        fileprivate let deadDeliveriesBySlot: [Int: SequenceList]

        var startIndex: Int { 0 }
        var endIndex: Int {
            if let slots { return slots.count }
            return states.count
        }
        func index(after i: Int) -> Int { i + 1 }
        func index(before i: Int) -> Int { i - 1 }
        subscript(position: Int) -> RegistrationRecord {
            // `if let`, not `map` and `??`: generic calls in a debug build, per record read.
            if let slots { return record(slot: Int(slots[position])) }
            return record(slot: position)
        }

        fileprivate func record(slot: Int) -> RegistrationRecord {
            let state = states[slot]
            return RegistrationRecord(
                state, event: events[Int(state.addSequence)],
                hasDeadDeliveries: !deadDeliveriesBySlot.isEmpty && deadDeliveriesBySlot[slot] != nil)
        }
        func makeIterator() -> Iterator { Iterator(records: self) }

        /// `for … in` without the standard library's generic `IndexingIterator`, which a debug build
        /// runs unspecialised (type metadata looked up per step): rules walk these lists most.
        struct Iterator: IteratorProtocol {
            let records: RegistrationsInOrder
            var position = 0

            mutating func next() -> RegistrationRecord? {
                guard position < records.endIndex else { return nil }
                position += 1
                return records[position - 1]
            }
        }
    }

    /// The deliveries that reached `registration`'s observer after it deallocated.
    func deadDeliveries(of registration: RegistrationRecord) -> SequenceList {
        guard registration.hasDeadDeliveries, let slot = registrationSlots[registration.id] else {
            return SequenceList()
        }
        return deadDeliveriesBySlot[slot] ?? SequenceList()
    }

    /// The index in ``posts`` of the post, property set or delegate call at
    /// `sequence`. Deliveries usually answer the latest post, so that is tried
    /// before a binary search (posts are in sequence order).
    func postIndex(ofSequence sequence: Int) -> Int? { Self.postIndex(ofSequence: sequence, in: postStates) }

    /// Static, and by count rather than `last`: a debug build copies the
    /// whole index for a method call on it, and runs `last` unspecialised.
    private static func postIndex(ofSequence sequence: Int, in postStates: [PostState]) -> Int? {
        let count = postStates.count
        guard count > 0 else { return nil }
        if Int(postStates[count - 1].sequence) == sequence { return count - 1 }
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if Int(postStates[mid].sequence) < sequence { low = mid + 1 } else { high = mid }
        }
        return low < count && Int(postStates[low].sequence) == sequence ? low : nil
    }

    /// The top-level scenario step an event belongs to (nil outside replays).
    func step(of sequence: Int) -> Int? {
        var low = 0, high = stepStarts.count
        while low < high {
            let mid = (low + high) / 2
            if stepStarts[mid].sequence <= sequence { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : stepStarts[low - 1].step
    }

    /// The first event of a top-level step.
    func stepStart(_ step: Int) -> Int? { stepStarts.first { $0.step == step }?.sequence }

    /// The first event of the top-level step after the one `sequence` is in
    /// (nil outside replays, or in the last step).
    func nextStepStart(after sequence: Int) -> Int? {
        var low = 0, high = stepStarts.count
        while low < high {
            let mid = (low + high) / 2
            if stepStarts[mid].sequence <= sequence { low = mid + 1 } else { high = mid }
        }
        return low < stepStarts.count ? stepStarts[low].sequence : nil
    }

    /// Whether the trace was made by a replay (its top-level steps are marked).
    var hasSteps: Bool { !stepStarts.isEmpty }

    func site(_ id: UInt32) -> CallSite? { recording.site(id) }
    func location(_ id: UInt32) -> CodeLocation? { recording.location(id) }
    func string(_ id: UInt32) -> String { recording.string(id) }
    func registryName(_ id: UInt32) -> String { recording.registry(id).name }
    func registryInfo(_ id: UInt32) -> RegistryInfo { recording.registry(id) }
    /// A registry's kind without copying its name (rules ask per post).
    func registryKind(_ id: UInt32) -> RegistryKind { recording.registries[Int(id)].kind }
    func name(_ object: UInt32) -> String { tokenName(object) ?? recording.objectName(object) }

    /// `label (Type)`, or `Type#id` when there is no label. A token is named
    /// by its registration line and, when known, its owner:
    /// `block (Feed.swift:12) of feed (FeedScreen)`.
    func describe(_ object: UInt32) -> String {
        let info = recording.object(object)
        if info.label == nil, let token = tokenName(object) {
            guard let owner = tokenOwners[object] else { return token }
            return "\(token) of \(describe(owner))"
        }
        if let label = info.label { return "\(label) (\(info.typeName))" }
        return info.displayName(id: object)
    }

    /// The object that registered `registration`: its observer, or for a
    /// block registration the tracked object that owns its token.
    func registrant(_ registration: RegistrationRecord) -> UInt32 {
        registration.tokenForm ? tokenOwners[registration.observer] ?? registration.observer : registration.observer
    }

    /// A token a block registration returned (its `track` event says so) is
    /// named after the line that registered it (its `track` site):
    /// `block#4 (Cart.swift:12)` points at code where `NotificationObserverToken#4`
    /// would not. Made here, when a report needs it, so recording stays free
    /// of string building.
    private func tokenName(_ object: UInt32) -> String? {
        let info = recording.object(object)
        guard info.label == nil, Int(object) < lifetimes.count, let track = lifetimes[Int(object)].trackSequence,
            let kind = events[track].flags.tokenKind, let site = recording.site(events[track].site)
        else { return nil }
        let file = site.file.split(separator: "/").last.map(String.init) ?? site.file
        return "\(kind.word)#\(object) (\(file):\(site.line))"
    }

    /// The post, property set or delegate call that an event was caused by.
    func post(ofDelivery sequence: Int) -> PostRecord? {
        let cause = events[sequence].cause
        guard cause != Event.none, let index = postIndex(ofSequence: Int(cause)) else { return nil }
        return posts[index]
    }

    /// ` for "name"`, ` for every name`, or nothing for a subject's default channel.
    func forChannel(_ registration: RegistrationRecord) -> String {
        if registration.anyChannel { return " for every name" }
        // A subject's default channel is the empty name: nothing to say.
        return registration.channel == 0 || string(registration.channel).isEmpty
            ? "" : " for \(quoted(registration.channel))"
    }

    /// `"name"` as messages quote a channel.
    func quoted(_ channel: UInt32) -> String { ValuePreview.quoted(string(channel)) }

    /// `"Name"`, or `a notification` for an observer list's unnamed channel
    /// (`notify` with no `channel:`), which quoted would read `""`.
    func notificationText(_ channel: UInt32) -> String {
        string(channel).isEmpty ? "a notification" : quoted(channel)
    }

    /// A recorded value as messages show it: JSON text as it is (scenario
    /// values, and live values given as JSON), any other text quoted, so
    /// `append "phone"` never reads as a bare word.
    func quotedValue(_ value: UInt32) -> String {
        let text = string(value)
        guard let first = text.first else { return "\"\"" }
        let json =
            first == "\"" || first == "{" || first == "[" || ["true", "false", "null"].contains(text)
            || Double(text) != nil
        return json ? ValuePreview.cut(text) : ValuePreview.quoted(text)
    }

    // MARK: Frames

    /// The delivery of a post or property set whose handler (directly, or
    /// through invoked methods and delegate calls) emitted `event`.
    private static func broadcastDelivery(of sequence: Int, in events: EventLog) -> Int? {
        // A delegate delivery is passed through with its call.
        var passingDelegateCall = false
        for (cause, frame) in events.causes(of: sequence) {
            switch frame.kind {
            case .deliver:
                guard frame.cause != Event.none, events[Int(frame.cause)].kind == .delegateCall else { return cause }
                passingDelegateCall = true
            case .delegateCall where passingDelegateCall:
                passingDelegateCall = false
            case .invoke:
                break
            default:
                return nil
            }
        }
        return nil
    }

    /// The delegate delivery an invocation was made from: directly, or from a
    /// method the delegate invoked on itself.
    private static func delegateDelivery(of sequence: Int, in events: EventLog) -> Int? {
        var viaTargets: [UInt32] = []
        for (cause, frame) in events.causes(of: sequence) {
            if frame.kind == .deliver {
                let post = frame.cause == Event.none ? nil : events[Int(frame.cause)]
                guard post?.kind == .delegateCall, viaTargets.allSatisfy({ $0 == frame.object }) else { return nil }
                return cause
            }
            guard frame.kind == .invoke else { return nil }
            viaTargets.append(frame.object)
        }
        return nil
    }
}

private struct SlotKey: Hashable {
    let registry: UInt32
    let owner: UInt32
}
