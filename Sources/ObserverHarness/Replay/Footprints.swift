/// What each receiver of a post touched in the baseline replay, so
/// exploration only reorders receivers that can affect each other.
///
/// A receiver's footprint is every resource its delivery (transitively)
/// accessed: shared-state keys, registries (a delivery reads its registry;
/// add/remove write it) and objects (deliveries and invocations read one;
/// release and deallocation write it).
struct Footprints {
    enum Access: UInt8 { case read, increment, write }

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
            Dictionary(decision.registrations.enumerated().map { ($0.element, $0.offset) },
                       uniquingKeysWith: { first, _ in first })
        }
        let events = recording.events
        for sequence in 0..<events.count {
            let event = events[sequence]
            if event.kind.isDelivery, event.cause != Event.none, let decision = decisionByPost[Int(event.cause)],
               let receiver = receiverIndexes[decision][event.registration] {
                owners[sequence] = (decision, receiver)
            }
        }
        guard !owners.isEmpty else { return }
        for sequence in 0..<events.count {
            let event = events[sequence]
            guard let touched = Self.resource(of: event) else { continue }
            // Credit the access to every decision delivery this event ran inside.
            func credit(_ frame: Int) {
                guard let (decision, receiver) = owners[frame] else { return }
                let previous = accesses[decision][receiver][touched.resource]
                accesses[decision][receiver][touched.resource] = Self.combine(previous, touched.access)
            }
            credit(sequence)
            for (frame, _) in events.causes(of: sequence) { credit(frame) }
        }
    }

    /// Receivers of `decision` that conflict with at least one other receiver:
    /// two accesses to one resource conflict unless both read or both increment.
    ///
    /// Linear in the accesses (a post may have thousands of receivers): per
    /// resource, how many receivers access it each way.
    func conflictingReceivers(of decision: Int) -> [Int] {
        let receivers = accesses[decision]
        var counts: [Resource: [Int]] = [:]
        for footprint in receivers {
            for (resource, access) in footprint { counts[resource, default: [0, 0, 0]][Int(access.rawValue)] += 1 }
        }
        return receivers.indices.filter { index in
            receivers[index].contains { resource, access in
                guard var others = counts[resource] else { return false }
                others[Int(access.rawValue)] -= 1
                switch access {
                case .read: return others[Int(Access.increment.rawValue)] + others[Int(Access.write.rawValue)] > 0
                case .increment: return others[Int(Access.read.rawValue)] + others[Int(Access.write.rawValue)] > 0
                case .write: return others.reduce(0, +) > 0
                }
            }
        }
    }

    private static func combine(_ old: Access?, _ new: Access) -> Access {
        guard let old else { return new }
        if old == new { return old }
        return .write  // read + increment, or anything with a write
    }

    private static func resource(of event: Event) -> (resource: Resource, access: Access)? {
        switch event.kind {
        case .increment: (Resource(space: 0, id: event.channel), .increment)
        case .read: (Resource(space: 0, id: event.channel), .read)
        case .stateSet, .append: (Resource(space: 0, id: event.channel), .write)
        case .add, .remove, .tokenDropped, .delegateSet: (Resource(space: 1, id: event.registry), .write)
        case .post, .propertySet, .delegateCall: (Resource(space: 1, id: event.registry), .read)
        case .deliver, .deliverSkipped, .deliverToDead, .invoke: (Resource(space: 2, id: event.object), .read)
        case .appRelease, .dealloc, .retain: (Resource(space: 2, id: event.object), .write)
        case .asyncOpen, .asyncEnd: (Resource(space: 1, id: event.registry), .write)
        case .asyncConsume, .messageDropped: (Resource(space: 2, id: event.object), .write)
        case .track, .step, .cycleCut, .settle: nil
        }
    }
}
