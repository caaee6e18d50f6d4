import Foundation

/// Records one async observation (a `for await` over notifications or
/// messages): opened where and for which owner, each value the loop took,
/// each value its buffer dropped, and how it ended.
final class AsyncObservationRecording: AsyncObservationEvents, @unchecked Sendable {
    private let recorder: Recorder
    private let registryID: UInt32
    // Written once, before the iterator can report anything.
    private(set) var loopID: UInt32 = 0
    private(set) var registrationID: UInt32 = 0

    init(recorder: Recorder, registryID: UInt32) {
        self.recorder = recorder
        self.registryID = registryID
    }

    /// Names the loop after the line that opened it, and records `asyncOpen`.
    /// `owner` is what the loop's sequence named, tracked when the sequence
    /// was made: it may be gone by now, a loop that opens after its owner.
    func open(
        loop: AnyObject, registrationID: UInt32, channel: String, owner: WeakReference, ownerID: UInt32,
        typedMessage: Bool, location: CodeLocation
    ) {
        let file = "\(location.fileID)".split(separator: "/").last.map(String.init) ?? "\(location.fileID)"
        loopID = recorder.objectID(for: loop, label: "loop (\(file):\(location.line))", site: location)
        self.registrationID = registrationID
        let foundOwner = recorder.asyncActivity.loopOpened(
            loopID, owner: owner.object, ownerID: ownerID, task: currentTaskIdentity())
        recorder.record(
            Event(
                kind: .asyncOpen, flags: typedMessage ? .typedMessage : [],
                registry: registryID, channel: recorder.intern(channel), object: loopID,
                subject: ownerID, registration: registrationID),
            at: location)
        if let foundOwner { recorder.recordLoopOwner(foundOwner, of: loopID) }
    }

    /// Values buffered and not yet taken, dropped or ended: what `settle` waits for.
    private let lock = NSLock()
    private var waiting = 0  // guarded by `lock`

    func buffered(tag: UInt32) {
        lock.withLock { waiting += 1 }
        recorder.asyncActivity.valuesBuffered(1)
    }

    private func taken() {
        let had = lock.withLock { () -> Bool in
            guard waiting > 0 else { return false }
            waiting -= 1
            return true
        }
        if had { recorder.asyncActivity.valuesBuffered(-1) }
    }

    /// The tag of a value another test's work (or no test's) delivered: the
    /// loop takes it, and this test's recording does not judge it.
    static let untold = UInt32.max

    // Each records its event before the activity changes: `settle()` may
    // return as soon as it does, and the test analyse at once.
    func consumed(tag: UInt32) {
        defer { taken() }
        guard tag != Self.untold else { return }
        recorder.record(
            Event(
                kind: .asyncConsume, registry: registryID, object: loopID,
                registration: registrationID, cause: tag == 0 ? Event.none : tag))
    }

    func dropped(tag: UInt32) {
        defer { taken() }
        guard tag != Self.untold else { return }
        recorder.record(
            Event(
                kind: .messageDropped, registry: registryID, object: loopID,
                registration: registrationID, cause: tag == 0 ? Event.none : tag))
    }

    func ended(_ end: AsyncObservationEnd) {
        let left = lock.withLock { () -> Int in
            defer { waiting = 0 }
            return waiting
        }
        recorder.record(
            Event(
                kind: .asyncEnd, registry: registryID, channel: recorder.intern(end.name),
                object: loopID, registration: registrationID))
        recorder.asyncActivity.valuesBuffered(-left)
        recorder.asyncActivity.loopEnded(loopID)
    }
}
