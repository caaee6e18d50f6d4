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
            if let pinning = recorder.liveObject(object), !(pinning is NSObject) {
                pinByCounting(pinning, object, tokens: tokens, registries: registries, recorder: recorder)
            } else {
                pinByWatching(object, tokens: tokens, registries: registries, recorder: recorder)
            }
            // Freed now, if the registration was all that kept it.
            recorder.sweepDeallocations()
        }
    }

    /// Detaches `tokens`' registrations one at a time; the one whose closure
    /// held `instance` lowers its reference count. `instance` is held here,
    /// so the count never reaches zero inside the experiment.
    private static func pinByCounting(
        _ instance: AnyObject, _ object: UInt32, tokens: [UInt32], registries: [any DetachableRegistry],
        recorder: Recorder
    ) {
        for token in tokens {
            let before = _getRetainCount(instance)
            var detached: [AnyObject] = []
            for registry in registries { detached += registry.detachRegistrations(ofObserver: token) }
            guard !detached.isEmpty else { continue }
            detached.removeAll()
            if _getRetainCount(instance) < before {
                recorder.recordPinnedLeak(of: object, byToken: token)
                return
            }
        }
    }

    /// Detaches `tokens`' registrations one at a time, watching `object`'s
    /// weak reference empty.
    private static func pinByWatching(
        _ object: UInt32, tokens: [UInt32], registries: [any DetachableRegistry], recorder: Recorder
    ) {
        for token in tokens {
            // Released here, outside the recorder's lock: the object's
            // deinit may run now, and it records.
            var detached: [AnyObject] = []
            for registry in registries { detached += registry.detachRegistrations(ofObserver: token) }
            guard !detached.isEmpty else { continue }
            detached.removeAll()
            if !recorder.isAlive(object) {
                recorder.recordPinnedLeak(of: object, byToken: token)
                return
            }
        }
    }
}
