/// What each receiver of a post touched in the baseline replay, so
/// exploration only reorders receivers that can affect each other.
///
/// A receiver's footprint is every resource its delivery (transitively)
/// accessed: shared-state keys, registries (a delivery reads its registry;
/// add/remove write it) and objects (deliveries and invocations read one;
/// release and deallocation write it).
///
/// Independence is value-aware, as in dynamic partial-order reduction: two
/// accesses commute when both read, both increment, both write the same
/// value or both append the same value, and when both are receivers removing
/// their own registration from a registry that delivers from a snapshot (the
/// one-shot idiom: the post in progress is unaffected, and the set left
/// behind is the same in every order).
struct Footprints {
    /// One receiver's strongest access to one resource. Two accesses of the
    /// same case (and, for writes and appends, the same value) commute.
    enum Access: Hashable {
        case read
        case increment
        /// The interned JSON written; the same value in any order leaves the same state.
        case write(value: UInt32)
        case append(value: UInt32)
        /// A delivery removing its own registration from a snapshot registry.
        case ownRemoval
        /// Anything else, or two kinds of access by one receiver: conflicts with every other access.
        case exclusive
    }

    private struct Resource: Hashable {
        let space: UInt8  // 0 state key, 1 registry, 2 object
        let id: UInt32
    }

    /// Per decision index, per receiver index: resource → strongest access.
    private var accesses: [[[Resource: Access]]]

    init(recording: Recording, decisions: [DecisionRecord]) {
        accesses = decisions.map { Array(repeating: [:], count: $0.registrations.count) }
        // Delivery event → (decision, receiver) for every decision's deliveries.
        var owners: [Int: (Int, Int)] = [:]
        var decisionByPost: [Int: Int] = [:]
        for (index, decision) in decisions.enumerated() { decisionByPost[decision.postSequence] = index }
        // Receiver index by registration id, per decision (a post may have thousands).
        let receiverIndexes = decisions.map { decision in
            Dictionary(
                decision.registrations.enumerated().map { ($0.element, $0.offset) },
                uniquingKeysWith: { first, _ in first })
        }
        // A change's onChanges are one decision, made at its first change
        // event; each tracking fires once, so its registration finds it.
        var decisionByTracking: [UInt32: Int] = [:]
        let events = recording.events
        for (index, decision) in decisions.enumerated()
        where decision.postSequence < events.count && events[decision.postSequence].kind == .observationChange {
            for registration in decision.registrations { decisionByTracking[registration] = index }
        }
        for sequence in 0..<events.count {
            let event = events[sequence]
            if event.kind.isDelivery, event.cause != Event.none, let decision = decisionByPost[Int(event.cause)],
                let receiver = receiverIndexes[decision][event.registration]
            {
                owners[sequence] = (decision, receiver)
            } else if event.kind == .observationFire, let decision = decisionByTracking[event.registration],
                let receiver = receiverIndexes[decision][event.registration]
            {
                owners[sequence] = (decision, receiver)
            }
        }
        guard !owners.isEmpty else { return }
        let snapshotRegistries = Set(
            recording.registries.indices.filter {
                let kind = recording.registries[$0].kind
                return kind == .notificationCenter || kind == .property
            }.map(UInt32.init))
        // Each event's nearest enclosing decision delivery (itself included),
        // so crediting walks only those, not every frame between them: an
        // event nested 250 handlers deep once walked 250 frames to find one.
        var nearestOwner = [Int32](repeating: -1, count: events.count)
        for sequence in 0..<events.count {
            if owners[sequence] != nil {
                nearestOwner[sequence] = Int32(sequence)
            } else {
                let cause = events[sequence].cause
                if cause != Event.none, Int(cause) < sequence { nearestOwner[sequence] = nearestOwner[Int(cause)] }
            }
        }
        for sequence in 0..<events.count {
            let event = events[sequence]
            guard let touched = Self.resource(of: event) else { continue }
            // Credit the access to every decision delivery this event ran inside.
            func credit(_ frame: Int, _ access: Access) {
                guard let (decision, receiver) = owners[frame] else { return }
                let previous = accesses[decision][receiver][touched.resource]
                accesses[decision][receiver][touched.resource] = Self.combine(previous, access)
            }
            credit(sequence, touched.access)
            let cause = event.cause
            var frame = cause == Event.none || Int(cause) >= sequence ? -1 : Int(nearestOwner[Int(cause)])
            while frame >= 0 {
                let frameEvent = events[frame]
                let ownRemoval =
                    event.kind == .remove && event.registration != 0
                    && frameEvent.kind == .deliver && frameEvent.registration == event.registration
                    && snapshotRegistries.contains(event.registry)
                credit(frame, ownRemoval ? .ownRemoval : touched.access)
                let next = frameEvent.cause
                frame = next == Event.none || Int(next) >= frame ? -1 : Int(nearestOwner[Int(next)])
            }
        }
    }

    /// Receivers of `decision` that conflict with at least one other receiver.
    ///
    /// Linear in the accesses (a post may have thousands of receivers): per
    /// resource, how many receivers access it in all and in each commuting way.
    func conflictingReceivers(of decision: Int) -> [Int] {
        let receivers = accesses[decision]
        var totals: [Resource: Int] = [:]
        var alike: [Resource: [Access: Int]] = [:]
        for footprint in receivers {
            for (resource, access) in footprint {
                totals[resource, default: 0] += 1
                alike[resource, default: [:]][access, default: 0] += 1
            }
        }
        return receivers.indices.filter { index in
            receivers[index].contains { resource, access in
                let others = (totals[resource] ?? 1) - 1
                guard access != .exclusive else { return others > 0 }
                let commuting = (alike[resource]?[access] ?? 1) - 1
                return others > commuting
            }
        }
    }

    private static func combine(_ old: Access?, _ new: Access) -> Access {
        guard let old else { return new }
        return old == new ? old : .exclusive
    }

    private static func resource(of event: Event) -> (resource: Resource, access: Access)? {
        switch event.kind {
        case .increment: (Resource(space: 0, id: event.channel), .increment)
        case .read: (Resource(space: 0, id: event.channel), .read)
        case .stateSet: (Resource(space: 0, id: event.channel), .write(value: event.registration))
        case .append: (Resource(space: 0, id: event.channel), .append(value: event.registration))
        case .add, .remove, .tokenDropped, .delegateSet: (Resource(space: 1, id: event.registry), .exclusive)
        case .post, .propertySet, .delegateCall: (Resource(space: 1, id: event.registry), .read)
        case .deliver, .deliverSkipped, .deliverToDead, .invoke: (Resource(space: 2, id: event.object), .read)
        case .appRelease, .dealloc, .retain: (Resource(space: 2, id: event.object), .exclusive)
        case .asyncOpen, .asyncEnd: (Resource(space: 1, id: event.registry), .exclusive)
        case .asyncConsume, .messageDropped: (Resource(space: 2, id: event.object), .exclusive)
        // An onChange reaches its observer as a delivery does; arming and a
        // change (which disarms) change the registrar.
        case .observationFire: (Resource(space: 2, id: event.object), .read)
        case .observationArm, .observationChange: (Resource(space: 1, id: event.registry), .exclusive)
        case .track, .step, .cycleCut, .settle, .scopeEscape, .hop, .unbridgedWildcard: nil
        }
    }
}
