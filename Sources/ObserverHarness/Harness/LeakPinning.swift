/// Finds which registration keeps a released object alive when no recorded
/// strong reference explains it: a block (or a property observation's
/// closure) that captures the object strongly, while the object holds the
/// block's token — the retain cycle of a block without `[weak self]`.
///
/// A closure's captures cannot be read, so the check is an experiment: the
/// harness detaches the object's own token registrations one at a time and
/// watches its weak reference. The registration whose detaching frees the
/// object is recorded as what kept it (`retain` flagged `pinnedLeak`), at that
/// registration's line. Only registrations the released object itself owns
/// are detached: they belong to an object the app has let go of, so they
/// should no longer receive anything. They receive nothing afterwards.
enum LeakPinning {
    static func pin(in recorder: Recorder) {
        let suspects = recorder.releasedButAlive()
        guard !suspects.isEmpty else { return }
        let registries = recorder.registriesForLeakChecks()
        for object in suspects {
            for token in recorder.tokens(ownedBy: object) {
                // Released here, outside the recorder's lock: the object's
                // deinit may run now, and it records.
                var detached: [AnyObject] = []
                for registry in registries { detached += registry.detachRegistrations(ofObserver: token) }
                guard !detached.isEmpty else { continue }
                detached.removeAll()
                if !recorder.isAlive(object) {
                    recorder.recordPinnedLeak(of: object, byToken: token)
                    recorder.sweepDeallocations()
                    break
                }
            }
        }
    }
}
