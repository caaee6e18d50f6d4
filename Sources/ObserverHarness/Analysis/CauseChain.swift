/// The events an event happened inside, nearest first: its cause (the
/// delivery, post or call it ran in), that event's cause, and so on.
///
/// Every walk up the causes goes through here, under one bound: a trace
/// holds no chain longer than ``Recording/maxTraceCauseDepth`` (the reader
/// refuses one) and a replay's nesting bounds stay far below it, so the bound
/// only guards against a log that breaks both.
struct CauseChain: Sequence, IteratorProtocol {
    private let events: EventLog
    private var cause: UInt32
    private var hops = 0

    init(of sequence: Int, in events: EventLog) {
        self.events = events
        cause = events[sequence].cause
    }

    mutating func next() -> (sequence: Int, event: Event)? {
        guard cause != Event.none, hops < Recording.maxTraceCauseDepth else { return nil }
        hops += 1
        let sequence = Int(cause)
        let event = events[sequence]
        cause = event.cause
        return (sequence, event)
    }
}

extension EventLog {
    /// The events `sequence` happened inside, nearest first.
    func causes(of sequence: Int) -> CauseChain { CauseChain(of: sequence, in: self) }
}
