/// The harness's side of a ``DelegateSlot``: who was set, replaced, called
/// (at the caller's line), and whether the delegate was still alive when called.
final class InstrumentedDelegateSlot: DelegateSlotBackend, @unchecked Sendable {
    let store: RegistrationStore<Void>
    private let ownerID: UInt32
    private let hold: Hold
    /// The delegate protocol's name: what a typed call is recorded as
    /// calling, since the closure's method cannot be read.
    private let protocolName: String
    // Guarded by the recorder's lock.
    private var current: Registration<Void>?

    init(
        recorder: Recorder, name: String, owner: AnyObject, protocol: Any.Type = AnyObject.self, hold: Hold,
        location: CodeLocation
    ) {
        ownerID = recorder.objectID(for: owner, site: location)
        self.hold = hold
        protocolName = _typeName(`protocol`, qualified: false)
        store = RegistrationStore(
            recorder: recorder, info: RegistryInfo(name: name, kind: .delegate),
            order: .registration)
    }

    deinit {
        // Going with its owner (a downloader made in the test body), a strong
        // slot frees its delegate: one the app released is kept, as a going
        // list keeps its observers (`RegistrationStore.deinit`), so the leak
        // is found when the test analyses after.
        if hold == .strong, let delegate = current?.observer { store.recorder.keepIfReleased([delegate]) }
    }

    var delegate: AnyObject? {
        store.recorder.withLock { current?.observer }
    }

    func set(_ delegate: AnyObject?, location: CodeLocation) {
        let recorder = store.recorder
        ScopeWarnings.checkForeignChange(of: store.name, kind: "delegate slot", recordedBy: recorder, at: location)
        let delegateID = delegate.map { recorder.objectID(for: $0, site: location) } ?? 0
        // A strong hold may be the previous delegate's last reference, and its
        // deinit records through the lock: it is let go after unlocking.
        var previous: Registration<Void>?
        defer {
            // A strong slot's previous delegate that the set freed goes on record
            // now, right after the set: it died with its replacement, not cut off alive.
            let previousID = previous?.observerID ?? 0
            previous = nil
            if previousID != 0, hold == .strong { recorder.withLock { _ = recorder.isDeallocatedLocked(previousID) } }
        }
        recorder.withLock {
            recorder.noticeDeallocationsLocked()
            // The delegate this replaces may be gone, with no call since to
            // notice it: recorded first, so the set replaces a dead delegate
            // whatever address the new one took (and whenever the test analyses).
            if let replaced = current?.observerID, replaced != 0 { _ = recorder.isDeallocatedLocked(replaced) }
            previous = store.setDelegateLocked(
                &current, to: delegate, delegateID: delegateID, ownerID: ownerID, hold: hold,
                site: recorder.siteIDLocked(.location(location)), isolation: RegistrationIsolation(location.isolation),
                handler: (), context: ThreadContext.current)
        }
    }

    /// A typed call has no method name to record: the call is named by the
    /// delegate protocol (`ProductCellDelegate`), and findings point at the
    /// caller's line.
    func call(location: CodeLocation, _ body: (AnyObject) -> Void) {
        let recorder = store.recorder
        let context = ThreadContext.current
        var receiver: Registration<Void>?
        var channel: UInt32 = 0
        let callSequence: UInt32? = recorder.withLock {
            recorder.noticeDeallocationsLocked()
            channel = recorder.internLocked(protocolName)
            let site = recorder.siteIDLocked(.location(location))
            // A callback that calls itself again, past the cycle bound: cut.
            if store.cutsCycleLocked(channel: channel, senderID: 0, site: site, context: context) { return nil }
            receiver = current
            return recorder.appendLocked(
                Event(
                    kind: .delegateCall, site: recorder.siteIDLocked(.location(location)),
                    registry: store.registryID, channel: channel,
                    object: current?.observerID ?? 0, subject: ownerID), context: context)
        }
        guard let callSequence else { return }
        if let receiver {
            context.enterDelivery()
            defer { context.deliveryDepth -= 1 }
            store.deliverAll(
                [receiver], postSequence: callSequence, channel: channel, senderID: ownerID,
                context: context
            ) { _, observer, _ in
                if let observer { body(observer) }
            }
        }
    }
}
