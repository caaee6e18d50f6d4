extension RegistrationStore {
    /// Points a delegate slot at `delegate` (nil clears it) and records the
    /// `delegateSet` event: the one implementation behind a live
    /// ``DelegateSlot`` and a scenario's `set-delegate`. The caller holds the
    /// recorder's lock and lets the returned previous registration go only
    /// after unlocking: a strong hold may be the old delegate's last
    /// reference, and its deinit records through the lock.
    func setDelegateLocked(
        _ slot: inout Registration<Handler>?, to delegate: AnyObject?, delegateID: UInt32, ownerID: UInt32,
        hold: Hold, site: UInt32, isolation: RegistrationIsolation, handler: Handler, context: ThreadContext
    ) -> Registration<Handler>? {
        let previous = slot
        previous?.isActive = false
        slot = delegate.map {
            Registration(
                id: recorder.newRegistrationIDLocked(), observer: $0, observerID: delegateID, hold: hold,
                channel: 0, anyChannel: true, senderID: ownerID, tokenForm: false, site: site,
                isolation: isolation, handler: handler)
        }
        let flags = EventFlags(hold: hold).union(slot == nil ? [] : isolation.flags)
        _ = recorder.appendLocked(
            Event(
                kind: .delegateSet, flags: flags, site: site, registry: registryID,
                object: slot?.observerID ?? 0, subject: ownerID, registration: slot?.id ?? 0),
            context: context)
        return previous
    }
}
