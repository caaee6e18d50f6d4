import Foundation
import Observation

/// The harness's side of `Observers.withObservationTracking`: the app's
/// registrations, and a shadow tracking through the framework's public API
/// that records every change to what they read.
///
/// Each call site (and owner) has a ``Watch``. Each of the app's calls is a
/// framework registration of its own: when it fires, the harness records the
/// change and fires that call's `onChange` once (as the framework would: on
/// the changing thread, before the value changes), so two calls tracking the
/// same value both run. A change with no app registration armed to see it is
/// recorded as such: `onChange` writing what it tracks (the framework calls
/// the firing registration again for it), or a change missed because
/// `onChange` did not arm again. To see that miss, the harness runs `apply`
/// again once `onChange` has returned with nothing armed, registering for the
/// next change itself; an app that arms again in `onChange` never has its
/// `apply` run by the harness. After a miss the watch rests until the app
/// arms again.
///
/// The harness keeps `apply` (which captures the model) only while the app's
/// registration is armed, and the model's registrar holds the watch weakly,
/// so a model is never kept alive by a cycle through the harness.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class InstrumentedObservationTracking: ObservationTrackingBackend, @unchecked Sendable {
    private let recorder: Recorder
    /// Its registry, added on first use, so a harness that never tracks has none.
    private let registry: LazyRegistry
    // Guarded by the recorder's lock.
    private var watches = [WatchKey: Watch]()
    /// The scope's registries: `onChange` runs wherever the change was made,
    /// often outside `withObserverHarness`, so it is put back for the call
    /// (an `onChange` that observes again must be recorded). Set once.
    weak var scope: HarnessRegistries?

    init(recorder: Recorder) {
        self.recorder = recorder
        registry = LazyRegistry(
            recorder: recorder, info: RegistryInfo(name: "withObservationTracking", kind: .property))
    }

    private struct WatchKey: Hashable {
        let site: UInt32
        let owner: UInt32
    }

    /// The values tracked from one call site for one owner.
    private final class Watch: @unchecked Sendable {
        let registryID: UInt32
        let channel: UInt32
        let site: UInt32
        let ownerID: UInt32
        weak var owner: AnyObject?
        // The rest is guarded by the recorder's lock.
        /// The app's registrations not yet fired, in arming order: each call
        /// is one, and each fires its own onChange, as the framework does.
        var armed: [Armed] = []
        /// onChange calls in progress: one that changes what it tracks and
        /// observes again nests, and is cut at the cycle bound.
        var nesting = 0
        /// The latest `apply`, to watch on after a firing.
        var apply: (() -> Void)?
        /// Bumped by every registration: only the newest shadow registration
        /// (the harness's own, made after a firing) counts.
        var generation = 0
        /// The registrations whose `onChange` is running, with the generation
        /// they fired at: a call of one of them meanwhile is `onChange`
        /// writing what it tracks (-1 once recorded).
        var firing: [UInt32: Int] = [:]

        init(registryID: UInt32, channel: UInt32, site: UInt32, ownerID: UInt32, owner: AnyObject?) {
            self.registryID = registryID
            self.channel = channel
            self.site = site
            self.ownerID = ownerID
            self.owner = owner
        }

        /// Whether the owner is gone, read under `recorder`'s lock: a live
        /// owner is held until the lock goes (its deinit must not run under it).
        func ownerIsGoneLocked(_ recorder: Recorder) -> Bool {
            guard ownerID != 0 else { return false }
            guard let owner else { return true }
            recorder.holdUntilUnlockLocked(owner)
            return false
        }
    }

    private struct Armed {
        let registration: UInt32
        let isolation: RegistrationIsolation
        let onChange: @Sendable () -> Void
    }

    func track<T>(
        _ apply: @escaping () -> T, onChange: @escaping @Sendable () -> Void, owner: AnyObject?,
        location: CodeLocation
    ) -> T {
        let ownerID = owner.map { recorder.objectID(for: $0, site: location) } ?? 0
        let isolation = RegistrationIsolation(location.isolation)
        let registryID = registry.id
        let (watch, registration): (Watch, UInt32) = recorder.withLock {
            recorder.noticeDeallocationsLocked()
            let site = recorder.siteIDLocked(.location(location))
            let key = WatchKey(site: site, owner: ownerID)
            let watch =
                watches[key]
                ?? Watch(
                    registryID: registryID, channel: recorder.internLocked("values read at \(location.callSite)"),
                    site: site, ownerID: ownerID, owner: owner)
            watches.updateValue(watch, forKey: key)
            let registration = recorder.newRegistrationIDLocked()
            _ = recorder.appendLocked(
                Event(
                    kind: .observationArm, flags: isolation.flags, site: site,
                    registry: registryID, channel: watch.channel, object: ownerID,
                    registration: registration), context: ThreadContext.current)
            watch.armed.append(Armed(registration: registration, isolation: isolation, onChange: onChange))
            watch.apply = { _ = apply() }
            watch.generation += 1
            return (watch, registration)
        }
        // The app's own registration: the model's registrar keeps this
        // onChange, so it holds the watch weakly (the watch keeps `apply`,
        // which captures the model: a cycle). `watches` keeps the watch for
        // as long as the harness lives.
        return withObservationTracking(apply) { [weak self, weak watch] in
            if let self, let watch { self.fired(registration, of: watch) }
        }
    }

    /// The harness's own registration, made after an `onChange` that did not
    /// arm again, watching for the change the app will miss: only the newest
    /// one counts. It runs the app's `apply` (the only way to say what to
    /// watch), so only where the app armed it: here when that is this thread's
    /// isolation, from the main queue for the main actor, and not at all for
    /// another actor (the watch then rests until the app arms again): an
    /// actor's code never runs off it.
    private func registerShadow(
        _ apply: @escaping () -> Void, watch: Watch, generation: Int, armedAt isolation: RegistrationIsolation,
        offIsolation: Bool
    ) {
        let register = { [weak self, weak watch] in
            guard let self, let watch else { return }
            withObservationTracking(apply) { [weak self, weak watch] in
                if let self, let watch { self.shadowChanged(watch, generation: generation) }
            }
        }
        guard offIsolation else { return register() }
        guard isolation == .mainActor else { return }
        let unchecked = UncheckedSendable(register)
        DispatchQueue.main.async { unchecked.value() }
    }

    /// Records a cycle cut when onChange calls nest too deep; the watch rests.
    /// The onChanges it drops go into `dropped`, to be let go after unlocking
    /// (what they capture may deinit, and its deinit may record).
    private func cutLocked(_ watch: Watch, context: ThreadContext, dropped: inout [Armed]) -> Bool {
        guard watch.nesting >= NotificationCycleRule.depthBound else { return false }
        _ = recorder.appendLocked(
            Event(kind: .cycleCut, site: watch.site, registry: watch.registryID, channel: watch.channel),
            context: context)
        dropped = watch.armed
        watch.armed.removeAll()
        watch.apply = nil
        return true
    }

    /// One of the app's registrations fires: a tracked value is about to
    /// change, on the changing thread.
    private func fired(_ registration: UInt32, of watch: Watch) {
        let context = ThreadContext.current
        var fire: (sequence: UInt32, onChange: @Sendable () -> Void, armed: Armed, offIsolation: Bool)?
        var shadow: (apply: () -> Void, generation: Int, isolation: RegistrationIsolation)?
        var dropped: [Armed] = []
        defer { withExtendedLifetime(dropped) {} }
        recorder.withLock {
            guard !watch.ownerIsGoneLocked(recorder), !cutLocked(watch, context: context, dropped: &dropped)
            else { return }
            guard let index = watch.armed.firstIndex(where: { $0.registration == registration }) else {
                // The framework calls a registration again, while its onChange
                // runs, for a write that onChange makes to what it tracks: a
                // change no armed registration sees (unless onChange armed again
                // first, and that one records it). Recorded once; the app's
                // onChange runs once, where the framework would recurse.
                if let generation = watch.firing[registration], generation == watch.generation,
                    watch.armed.isEmpty
                {
                    _ = recorder.appendLocked(
                        Event(
                            kind: .observationChange, site: watch.site, registry: watch.registryID,
                            channel: watch.channel, object: watch.ownerID), context: context)
                    watch.firing[registration] = -1
                }
                return
            }
            let armed = watch.armed.remove(at: index)
            let change = recorder.appendLocked(
                Event(
                    kind: .observationChange, site: watch.site, registry: watch.registryID, channel: watch.channel,
                    object: watch.ownerID, registration: armed.registration), context: context)
            let flags = armed.isolation.deliveryFlags(at: context.modelledPlace ?? context.liveDeliveryPlace)
            let sequence = recorder.appendLocked(
                Event(
                    kind: .observationFire, flags: flags, site: watch.site, registry: watch.registryID,
                    channel: watch.channel, object: watch.ownerID, registration: armed.registration,
                    cause: change), context: context)
            // Off its isolation: what onChange hands on is followed, as a delivery's is.
            let offIsolation = flags.contains(.offIsolation)
            if offIsolation { recorder.noteOffIsolationDeliveryLocked() }
            fire = (sequence, armed.onChange, armed, offIsolation)
            watch.nesting += 1
            defer { watch.firing[registration] = watch.generation }
            // Another registration still armed sees the next change itself.
            guard watch.armed.isEmpty else { return }
            watch.generation += 1
            shadow = watch.apply.map { ($0, watch.generation, armed.isolation) }
            watch.apply = nil  // only an armed registration needs it again
        }
        guard let fire else { return }
        let runOnChange = {
            self.recorder.withFrame(fire.sequence, context: context) {
                if let scope = self.scope {
                    RegistryScope.withProvider(scope) { fire.onChange() }
                } else {
                    fire.onChange()
                }
            }
        }
        if fire.offIsolation {
            recorder.runOffIsolation(
                delivery: fire.sequence, registration: fire.armed.registration, isolation: fire.armed.isolation,
                runOnChange)
        } else {
            runOnChange()
        }
        // Unless onChange armed again, watch on for the change it will miss.
        let next: Int? = recorder.withLock {
            watch.nesting -= 1
            watch.firing[registration] = nil
            guard let shadow, watch.armed.isEmpty, watch.apply == nil, watch.generation == shadow.generation
            else { return nil }
            watch.generation += 1
            return watch.generation
        }
        if let shadow, let next {
            registerShadow(
                shadow.apply, watch: watch, generation: next, armedAt: shadow.isolation, offIsolation: fire.offIsolation
            )
        }
    }

    /// The harness's registration fires: a change no app registration was
    /// armed to see (a miss, or onChange writing what it tracks). On record,
    /// and the watch rests until the app arms again.
    private func shadowChanged(_ watch: Watch, generation: Int) {
        let context = ThreadContext.current
        var dropped: [Armed] = []
        defer { withExtendedLifetime(dropped) {} }
        recorder.withLock {
            guard generation == watch.generation, !watch.ownerIsGoneLocked(recorder), watch.armed.isEmpty,
                !cutLocked(watch, context: context, dropped: &dropped)
            else { return }
            _ = recorder.appendLocked(
                Event(
                    kind: .observationChange, site: watch.site, registry: watch.registryID, channel: watch.channel,
                    object: watch.ownerID), context: context)
            watch.generation += 1
        }
    }
}

extension HarnessRegistries: ObservationTrackingProvider {}

/// Carries a closure the main queue runs once: a shadow registration, which
/// touches the watch only under the recorder's lock.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
