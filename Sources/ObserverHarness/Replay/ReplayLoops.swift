/// A replay's `for await` loops (`open-loop`): each is a registration that
/// buffers what is posted, as Foundation's sequences do, until `run-loop`
/// lets the loop take values, and `cancel-loop` (or the replay's end) stops it.
/// Recorded as live loops are, so the same rules judge both.
final class ReplayLoops {
    fileprivate struct Loop {
        let id: UInt32
        let opening: LoopOpening
        let ownerID: UInt32
        /// A `strong` loop's task keeps its owner alive until the loop ends.
        var strongOwner: ScenarioObject?
        weak var owner: ScenarioObject?
        let registrationID: UInt32
        let store: RegistrationStore<ReplayResponse>
        var buffer = LoopBuffer()
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
        // Changed in place: a copy of the loop would copy its whole buffer on every post.
        guard loops[name].map({ !$0.ended }) ?? false else { return }
        loops[name]?.receive(payload, delivery: delivery, recorder: recorder)
    }

    /// The loop takes up to `count` buffered values, running its body for
    /// each with its owner as `self` (skipped once a weakly held owner is gone).
    /// `proceed` is asked before each value (the replay charges it as work)
    /// and ends the loop's turn when it says no.
    func take(
        _ name: String, count: Int?, site: UInt32, proceed: () -> Bool,
        run: (Handler, JSONValue, (id: UInt32, object: ScenarioObject?)?) -> Void
    ) {
        var taken = 0
        while taken < count ?? .max, let value = loops[name]?.nextValue(), proceed() {
            // The body may reopen the name, so the loop is read afresh for each value.
            guard let loop = loops[name] else { return }
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

extension ReplayLoops.Loop {
    /// The value the loop would take next, if it runs and has one.
    func nextValue() -> LoopBuffer.Value? { ended ? nil : buffer.first }

    /// Buffers a posted value, dropping the oldest when a typed loop's buffer is full.
    mutating func receive(_ payload: JSONValue, delivery: UInt32, recorder: Recorder) {
        if let limit = opening.bufferSize, buffer.count + 1 > limit, let dropped = buffer.first {
            buffer.removeFirst()
            recorder.record(
                Event(
                    kind: .messageDropped, registry: store.registryID, object: id,
                    registration: registrationID, cause: dropped.delivery))
        }
        buffer.append(LoopBuffer.Value(payload: payload, delivery: delivery))
    }
}

/// A loop's buffered values, first in first out. Taking the first is O(1):
/// an array's `removeFirst` moved every value left behind, so a loop that
/// buffered n posts took n² moves to drain.
struct LoopBuffer {
    struct Value {
        let payload: JSONValue
        let delivery: UInt32
    }

    private var values: [Value] = []
    private var head = 0

    var count: Int { values.count - head }
    var first: Value? { head < values.count ? values[head] : nil }

    mutating func append(_ value: Value) { values.append(value) }

    mutating func removeFirst() {
        guard head < values.count else { return }
        head += 1
        // Taken values are let go in bulk once they are half the storage.
        if head >= 64, head * 2 >= values.count {
            values.removeFirst(head)
            head = 0
        }
    }

    mutating func removeAll() {
        values.removeAll()
        head = 0
    }
}
