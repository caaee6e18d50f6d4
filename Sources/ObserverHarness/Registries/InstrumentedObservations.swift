/// The harness's side of `Observers.observations`: each loop over a tracked
/// `Observations` is recorded as an async observation of its own registry
/// (kind `observable`), so `async-observer-outlives-owner` judges it as it
/// judges a loop over notifications.
final class InstrumentedObservations: Sendable {
    private let recorder: Recorder
    /// Its registry, added on first use, so a harness that never iterates one has none.
    private let registry: LazyRegistry

    init(recorder: Recorder) {
        self.recorder = recorder
        registry = LazyRegistry(recorder: recorder, info: RegistryInfo(name: "Observations", kind: .observable))
    }

    func loopStarted(owner: AnyObject?, location: CodeLocation) -> any AsyncObservationEvents {
        let recording = AsyncObservationRecording(recorder: recorder, registryID: registry.id)
        let registration = recorder.withLock { recorder.newRegistrationIDLocked() }
        // The record itself stands for the loop: the iterator holds it, so it goes when the loop does.
        recording.open(
            loop: recording, registrationID: registration, channel: "values read at \(location.callSite)",
            owner: WeakReference(owner), ownerID: owner.map { recorder.objectID(for: $0) } ?? 0,
            typedMessage: false, location: location)
        return recording
    }
}

#if compiler(>=6.2)
    extension HarnessRegistries: ObservationsProvider {
        func observationsLoopStarted(owner: AnyObject?, location: CodeLocation) -> any AsyncObservationEvents {
            observations.loopStarted(owner: owner, location: location)
        }
    }
#endif

/// A registry added to the recording the first time it is needed.
final class LazyRegistry: @unchecked Sendable {
    private let recorder: Recorder
    private let info: RegistryInfo
    private let lock = Lock()
    private var added: UInt32 = 0  // guarded by `lock`

    init(recorder: Recorder, info: RegistryInfo) {
        self.recorder = recorder
        self.info = info
    }

    /// Never called under the recorder's lock (this lock is taken first).
    var id: UInt32 {
        lock.withLock {
            if added == 0 { added = recorder.addRegistry(info) }
            return added
        }
    }
}
