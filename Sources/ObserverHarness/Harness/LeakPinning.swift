import Foundation

/// Finds which registration keeps a released object alive when no recorded
/// strong reference explains it: a block (or a property observation's
/// closure) that captures the object strongly, while the object holds the
/// block's token — the retain cycle of a block without `[weak self]`.
///
/// A closure's captures cannot be read, so the check is an experiment: the
/// harness detaches the object's own token registrations one at a time and
/// sees whether that let go of a strong reference to it: its reference count
/// drops, or (for an `NSObject`, whose count the Objective-C runtime may
/// keep) its weak reference empties. The registration that did is recorded
/// as what kept it (`retain` flagged `pinnedLeak`), at that registration's
/// line. Counting references makes the finding the same whether the test
/// still holds the object when it analyses or let it go first. Only
/// registrations the released object itself owns are detached: they belong
/// to an object the app has let go of, so they should no longer receive
/// anything. They receive nothing afterwards.
enum LeakPinning {
    static func pin(in recorder: Recorder) {
        let suspects = recorder.releasedButAlive()
        guard !suspects.isEmpty else { return }
        let registries = recorder.registriesForLeakChecks()
        for object in suspects {
            let tokens = recorder.tokens(ownedBy: object)
            guard !tokens.isEmpty else { continue }
            if let token = tokenKeepingAlive(object, among: tokens, registries: registries, recorder: recorder) {
                recorder.recordPinnedLeak(of: object, byToken: token)
            }
            // Freed now, if the registration was all that kept it.
            recorder.sweepDeallocations()
        }
    }

    /// Detaches `tokens`' registrations one at a time until one lets go of
    /// `object`: its reference count drops (the object is held here, so the
    /// count never reaches zero inside the experiment) or, for an
    /// `NSObject`, its weak reference empties. The object is let go on return.
    private static func tokenKeepingAlive(
        _ object: UInt32, among tokens: [UInt32], registries: [any DetachableRegistry], recorder: Recorder
    ) -> UInt32? {
        let counted = recorder.liveObject(object).flatMap { $0 is NSObject ? nil : $0 }
        return tokens.first { token in
            let before = counted.map { _getRetainCount($0) }
            guard detach(token, from: registries) else { return false }
            if let counted, let before { return _getRetainCount(counted) < before }
            return !recorder.isAlive(object)
        }
    }

    /// Detaches `token`'s registrations and lets them go here, outside the
    /// recorder's lock: a deinit may run now, and it records.
    private static func detach(_ token: UInt32, from registries: [any DetachableRegistry]) -> Bool {
        var detached: [AnyObject] = []
        for registry in registries { detached += registry.detachRegistrations(ofObserver: token) }
        return !detached.isEmpty
    }
}
