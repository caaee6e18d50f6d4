/// Where the synchronous flow an event happened in ends: the app's outermost
/// call, as far as a recording can tell. A registration whose filter died
/// and was removed before the flow ended never let the hazard happen (the
/// download finished, then its row stopped observing it, in one call).
///
/// - In a replay, the outermost call is the top-level step.
/// - Live, it is the first top-level operation after the event (deallocations
///   are noticed at the next registry operation, so that is the operation the
///   app made right after the release) with everything it caused: its
///   deliveries and what their handlers did.
enum SynchronousFlow {
    /// The first event past the flow `sequence` is in (`trace.events.count` when it runs to the end).
    static func end(after sequence: Int, in trace: TraceIndex) -> Int {
        if trace.hasSteps { return trace.nextStepStart(after: sequence) ?? trace.events.count }
        let events = trace.events
        var index = sequence + 1
        var operationSeen = false
        while index < events.count {
            let event = events[index]
            if event.cause == Event.none, !isBookkeeping(event.kind) {
                if operationSeen { return index }
                operationSeen = true
            }
            index += 1
        }
        return events.count
    }

    /// Events the harness records about objects rather than the app's operations.
    private static func isBookkeeping(_ kind: EventKind) -> Bool {
        kind == .dealloc || kind == .track || kind == .appRelease || kind == .retain
    }
}
