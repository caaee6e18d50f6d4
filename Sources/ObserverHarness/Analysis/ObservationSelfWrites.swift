/// Changes a `withObservationTracking` registration's own `onChange` made to
/// what it tracks. The framework calls `onChange` before the new value is
/// stored, so such a write is overwritten by the change being delivered.
extension TraceIndex {
    /// The firing of the same observation whose `onChange` made the change
    /// recorded at `change`, if any (a handler may reach the write through a
    /// post or a call, so the walk goes up the whole chain of causes).
    func selfWriteFiring(of change: Int) -> Int? {
        let event = events[change]
        var cause = event.cause
        var hops = 0
        while cause != Event.none, hops < Self.selfWriteCauseBound {
            let frame = events[Int(cause)]
            if frame.kind == .observationFire, frame.registry == event.registry, frame.channel == event.channel,
                frame.object == event.object
            {
                return Int(cause)
            }
            cause = frame.cause
            hops += 1
        }
        return nil
    }

    /// Handlers nest at most 32 deep on a channel; a chain of causes longer
    /// than this crosses many channels and is not followed further.
    private static let selfWriteCauseBound = 4_096
}
