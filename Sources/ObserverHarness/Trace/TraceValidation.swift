/// What the reader checks before it appends an event: every id must name an
/// entry an earlier table line defined, so the analysis never indexes past a
/// table, and causes must be earlier events in bounded chains.
extension TraceReader {
    /// What is wrong with an event (and which field), nil when it can be
    /// appended: every id must name an entry an earlier table line defined,
    /// so the analysis never indexes past a table.
    func problem(with raw: RawEvent) -> (key: EventKey?, message: String)? {
        guard raw.has(.seq) else { return (nil, #"an event line needs "seq""#) }
        guard raw.has(.kind) else { return (nil, #"an event line needs "kind""#) }
        let expected = events.count
        guard raw.seq == UInt64(expected) else {
            return (
                .seq,
                "event \(raw.seq) is out of order: the next event is \(expected) "
                    + "(events are numbered 0, 1, 2, … in order)"
            )
        }
        if let declared = declaredEvents, expected >= declared {
            return (.seq, "more events than the \(declared) the header declares")
        }
        guard raw.seq < UInt64(Event.none) else { return (.seq, "too many events for one trace") }
        guard raw.thread <= UInt64(UInt16.max) else {
            return (.thread, "thread \(raw.thread) is out of range (0…\(UInt16.max))")
        }
        if raw.site >= UInt64(sites.count) { return (.site, Self.undefined("site", raw.site, count: sites.count)) }
        if raw.registry >= UInt64(registries.count) {
            return (.registry, Self.undefined("registry", raw.registry, count: registries.count))
        }
        if raw.channel >= UInt64(strings.count) {
            return (.channel, Self.undefined("string", raw.channel, count: strings.count))
        }
        if raw.object >= UInt64(objects.count) {
            return (.object, Self.undefined("object", raw.object, count: objects.count))
        }
        if raw.subject >= UInt64(objects.count) {
            return (.subject, Self.undefined("object", raw.subject, count: objects.count))
        }
        if raw.kind.isEffect {
            // An effect's value is an interned string.
            if raw.registration >= UInt64(strings.count) {
                return (.registration, Self.undefined("string", raw.registration, count: strings.count))
            }
        } else if raw.registration > UInt64(UInt32.max) {
            return (.registration, "registration \(raw.registration) is out of range")
        }
        if raw.has(.cause), raw.cause >= raw.seq {
            return (.cause, "cause \(raw.cause) is not an earlier event (this is event \(raw.seq))")
        }
        if raw.has(.cause), Int(causeDepths[Int(raw.cause)]) >= Recording.maxTraceCauseDepth {
            return (
                .cause,
                "event \(raw.seq) is nested more than \(Recording.maxTraceCauseDepth) causes deep "
                    + "(each cause is the post, delivery or call it happened inside)"
            )
        }
        guard raw.flags <= UInt64(UInt8.max) else { return (.flags, "flags \(raw.flags) is not a flag set (0…255)") }
        return nil
    }

    private static func undefined(_ table: String, _ id: UInt64, count: Int) -> String {
        count > 1
            ? "\(table) \(id) is not defined (\(table) lines before this one define ids 1…\(count - 1))"
            : "\(table) \(id) is not defined (no \(table) line comes before this one)"
    }
}
