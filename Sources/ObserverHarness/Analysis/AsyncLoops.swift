/// The async observations of a recording (`for await` loops over
/// notifications or messages), each with its history: opened where, for
/// which owner, the values it took and dropped, and how it ended.
struct AsyncLoops {
    struct Loop {
        let openSequence: Int
        let loop: UInt32
        /// `owner:` if given, else the object keeping the loop's task (0: none known).
        let owner: UInt32
        /// Whether `owner` was found from the loop's task rather than given.
        let ownerFromTask: Bool
        let registry: UInt32
        let channel: UInt32
        let registration: UInt32
        let site: UInt32
        let typedMessage: Bool
        var consumed = 0
        var drops: [Int] = []
        var endSequence: Int?
        var end: String?
    }

    private(set) var loops: [Loop] = []
    /// The last wait for async work: its sequence, and whether it hit its turn limit.
    private(set) var lastSettle: (sequence: Int, turns: UInt32, hitLimit: Bool)?

    init(_ trace: TraceIndex) {
        var slots = [UInt32: Int]()
        for sequence in trace.asyncEvents {
            let event = trace.events[sequence]
            switch event.kind {
            case .asyncOpen:
                slots[event.object] = loops.count
                let found = event.subject == 0 ? trace.loopOwners[event.object] : nil
                loops.append(
                    Loop(
                        openSequence: sequence, loop: event.object, owner: found ?? event.subject,
                        ownerFromTask: found != nil,
                        registry: event.registry, channel: event.channel,
                        registration: event.registration, site: event.site,
                        typedMessage: event.flags.contains(.typedMessage)))
            case .asyncConsume:
                if let slot = slots[event.object] { loops[slot].consumed += 1 }
            case .messageDropped:
                if let slot = slots[event.object] { loops[slot].drops.append(sequence) }
            case .asyncEnd:
                if let slot = slots[event.object], loops[slot].endSequence == nil {
                    loops[slot].endSequence = sequence
                    loops[slot].end = trace.string(event.channel)
                }
            case .settle:
                lastSettle = (sequence, event.registration, trace.string(event.channel) == "turn-limit")
            default:
                break
            }
        }
    }
}
