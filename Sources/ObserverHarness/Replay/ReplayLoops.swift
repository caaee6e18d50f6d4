/// A replay's `for await` loops (`open-loop`): each is a registration that
/// buffers what is posted, as Foundation's sequences do, until `run-loop`
/// lets the loop take values, and `cancel-loop` (or the replay's end) stops it.
/// Recorded as live loops are, so the same rules judge both.
final class ReplayLoops {
    private struct Loop {
        let id: UInt32
        let opening: LoopOpening
        let ownerID: UInt32
        /// A `strong` loop's task keeps its owner alive until the loop ends.
        var strongOwner: ScenarioObject?
        weak var owner: ScenarioObject?
        let registrationID: UInt32
        let store: RegistrationStore<ReplayResponse>
        var buffer: [(payload: JSONValue, delivery: UInt32)] = []
        var ended = false
    }

    private let recorder: Recorder
    private var loops: [String: Loop] = [:]

    init(recorder: Recorder) {
        self.recorder = recorder
    }

    func open(
        _ opening: LoopOpening, store: RegistrationStore<ReplayResponse>, owner: (id: UInt32, object: ScenarioObject?)?,
        senderID: UInt32, site: UInt32
    ) {
        // Reopening a name (a handler run twice) starts a new loop; the old one runs on.
        let id = recorder.trackOwnedObject(typeName: "AsyncLoop", label: opening.loop, site: site)
        let result = store.add(
            observer: nil, observerID: id, hold: .strong, channel: opening.channel,
            senderID: senderID, tokenForm: true, dedupe: false, site: .interned(site),
            handler: .loop(opening.loop), extraFlags: opening.typed ? .typedMessage : [])
        guard case .added(let registration) = result else { return }
        loops[opening.loop] = Loop(
            id: id, opening: opening, ownerID: owner?.id ?? 0,
            strongOwner: opening.hold == .strong ? owner?.object : nil, owner: owner?.object,
            registrationID: registration.id, store: store)
        recorder.record(
            Event(
                kind: .asyncOpen, flags: opening.typed ? .typedMessage : [], site: site,
                registry: store.registryID, channel: recorder.intern(opening.channel), object: id,
                subject: owner?.id ?? 0, registration: registration.id))
    }

    /// A post reached loop `name`'s registration: buffer it, dropping the
    /// oldest when a typed loop's buffer is full.
    func receive(_ name: String, payload: JSONValue, delivery: UInt32) {
        guard var loop = loops[name], !loop.ended else { return }
        if let limit = loop.opening.bufferSize, loop.buffer.count + 1 > limit, !loop.buffer.isEmpty {
            let dropped = loop.buffer.removeFirst()
            recorder.record(
                Event(
                    kind: .messageDropped, registry: loop.store.registryID, object: loop.id,
                    registration: loop.registrationID, cause: dropped.delivery))
        }
        loop.buffer.append((payload, delivery))
        loops[name] = loop
    }

    /// The loop takes up to `count` buffered values, running its body for
    /// each with its owner as `self` (skipped once a weakly held owner is gone).
    func take(
        _ name: String, count: Int?, site: UInt32,
        run: (Handler, JSONValue, (id: UInt32, object: ScenarioObject?)?) -> Void
    ) {
        var taken = 0
        while let loop = loops[name], !loop.ended, !loop.buffer.isEmpty, taken < count ?? .max {
            let value = loop.buffer[0]
            loops[name]?.buffer.removeFirst()
            taken += 1
            recorder.record(
                Event(
                    kind: .asyncConsume, site: site, registry: loop.store.registryID, object: loop.id,
                    registration: loop.registrationID, cause: value.delivery))
            let owner = loop.strongOwner ?? loop.owner
            if loop.ownerID != 0, owner == nil { continue }
            run(loop.opening.handler, value.payload, loop.ownerID == 0 ? nil : (loop.ownerID, owner))
        }
    }

    /// The loop's task was cancelled: it ends, its registration goes, and a
    /// strongly held owner is let go (after the records, as its deinit may run).
    func cancel(_ name: String, site: UInt32) {
        guard var loop = loops[name], !loop.ended else { return }
        loop.ended = true
        loop.buffer.removeAll()
        let owner = loop.strongOwner
        loop.strongOwner = nil
        loops[name] = loop
        loop.store.remove(registrationID: loop.registrationID, observerID: loop.id, site: .interned(site))
        recorder.record(
            Event(
                kind: .asyncEnd, site: site, registry: loop.store.registryID,
                channel: recorder.intern(AsyncObservationEnd.cancelled.name), object: loop.id,
                registration: loop.registrationID))
        withExtendedLifetime(owner) {}
    }

    func removeAll() {
        let all = loops
        loops.removeAll()
        withExtendedLifetime(all) {}
    }
}
