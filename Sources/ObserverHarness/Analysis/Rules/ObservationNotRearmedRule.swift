/// `withObservationTracking`'s `onChange` fires once per registration. One
/// that fired and was not armed again before the next change missed it.
struct ObservationNotRearmedRule: Rule {
    let descriptor = RuleDescriptor(
        id: "observation-not-rearmed", severity: .warning, category: .registration,
        summary: "A one-shot observation (withObservationTracking's onChange) fired, was not re-armed, and the "
            + "tracked value changed again: the change was missed.",
        explanation: """
            `withObservationTracking(_:onChange:)` calls `onChange` once, for the first change to anything \
            `apply` read, and then forgets the registration. Code that means to keep observing must call it \
            again; code that forgets, or re-arms later (from `DispatchQueue.main.async` or a `Task`), misses \
            every change made in between, silently: the screen shows a stale value. Inside `onChange` the \
            tracked property still has its old value, and `onChange` runs on whatever thread made the change. \
            The harness watches the same values through its own tracking, so it sees the changes no \
            registration was armed for. Live, observe with `Observers.withObservationTracking`.
            """,
        fix: "Re-arm synchronously at the start of onChange (call the function that sets up the tracking "
            + "again; onChange runs before the new value is stored, so read it once the change has landed), "
            + "or iterate `Observations`, which re-arms by itself.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  ↓{ "op": "observe", "registry": "model", "observer": "badge", "object": "cart",
                    "property": "count", "handler": [ { "increment": "badge.refreshes" } ],
                    "site": "CartBadge.swift:20" },
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 1 },
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 2 }
                ]
                """, registries: #"{ "model": { "kind": "observable" } }"#)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "model", "observer": "badge", "object": "cart",
                    "property": "count", "handler": [
                      { "observe": { "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                                     "handler": [ { "increment": "badge.refreshes" } ] } },
                      { "increment": "badge.refreshes" } ] },
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 1 },
                  { "op": "release", "object": "badge" },
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 2 }
                ]
                """, registries: #"{ "model": { "kind": "observable" } }"#)
        ])

    let firesOnlyWith = EventKinds(.observationArm, .observationChange, .observationFire)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        var lastFire = [Key: Int]()
        var arms = [UInt32: Int]()
        // Every missed change is reported: the report folds them into one finding and its count.
        for sequence in trace.observationEvents {
            let event = trace.events[sequence]
            let key = Key(registry: event.registry, channel: event.channel, owner: event.object)
            switch event.kind {
            case .observationArm:
                arms[event.registration] = sequence
            case .observationFire:
                lastFire[key] = sequence
            case .observationChange where event.registration == 0:
                // The onChange's own write is `mutation-during-notify`, not a missed change.
                guard let fire = lastFire[key], !isGone(event.object, at: sequence, trace),
                    trace.selfWriteFiring(of: sequence) == nil,
                    let arm = arms[trace.events[fire].registration]
                else { continue }
                findings.append(report(arm: arm, fire: fire, change: sequence, trace))
            default:
                break
            }
        }
    }

    private struct Key: Hashable {
        let registry: UInt32
        let channel: UInt32
        let owner: UInt32
    }

    private func isGone(_ owner: UInt32, at sequence: Int, _ trace: TraceIndex) -> Bool {
        owner != 0 && Int(owner) < trace.lifetimes.count && trace.lifetimes[Int(owner)].isDeallocated(at: sequence)
    }

    private func report(arm: Int, fire: Int, change: Int, _ trace: TraceIndex) -> Finding {
        let armEvent = trace.events[arm]
        let owner = armEvent.object == 0 ? "" : " of \(trace.describe(armEvent.object))"
        let registryName = trace.registryName(armEvent.registry)
        return finding(
            "The observation\(owner) armed at \(siteText(trace, armEvent.site)) fired its onChange once and was "
                + "not armed again before \(trace.quoted(armEvent.channel)) changed again: that change was missed.",
            registry: registryName, channel: trace.string(armEvent.channel),
            objects: armEvent.object == 0 ? [] : [trace.name(armEvent.object)],
            step: trace.step(of: arm), site: trace.site(armEvent.site), location: trace.location(armEvent.site),
            events: [arm, fire, change])
    }
}
