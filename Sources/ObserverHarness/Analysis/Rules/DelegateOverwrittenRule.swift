/// A live delegate was replaced by another object, silently cutting it off.
struct DelegateOverwrittenRule: Rule {
    let descriptor = RuleDescriptor(
        id: "delegate-overwritten", severity: .warning, category: .design,
        summary: "A live delegate was replaced by another object, which silently cuts the first off.",
        explanation: """
            A delegate slot holds one object. When a second object assigns itself while the first is still alive \
            and still expects callbacks (two screens sharing one location manager or one scroll view), the first \
            stops hearing anything and nothing says so. Replacing a delegate that was cleared to nil, or that has \
            deallocated, is fine. Live, the delegate is a `DelegateSlot`'s.
            """,
        fix: "Clear the delegate (set it to nil) when its object is done before another takes over, give each "
            + "client its own delegating object, or use an observer list if several objects need the callbacks.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "locationManager" },
                  { "op": "create", "object": "mapScreen" },
                  { "op": "create", "object": "weatherScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen" },
                  ↓{ "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "weatherScreen",
                    "site": "WeatherScreen.swift:21" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "locationManager" },
                  { "op": "create", "object": "mapScreen" },
                  { "op": "create", "object": "weatherScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": null },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "weatherScreen" }
                ]
                """)
        ])

    private struct Slot: Hashable { let registry: UInt32, owner: UInt32 }

    let firesOnlyWith = EventKinds(.delegateSet)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        var current = [Slot: TraceIndex.DelegateSet]()
        for set in trace.delegateSets {
            let slot = Slot(registry: set.registry, owner: set.owner)
            defer { current[slot] = set.delegate == 0 ? nil : set }
            guard set.delegate != 0, let previous = current[slot], previous.delegate != set.delegate else { continue }
            let lifetime = trace.lifetimes[Int(previous.delegate)]
            if lifetime.isDeallocated(at: set.sequence) { continue }
            // The app let go of it: replacing it is clean-up, not a cut-off.
            if let released = lifetime.releaseSequence, released < set.sequence { continue }
            findings.append(
                finding(
                    "The \(trace.registryName(set.registry)) of \(trace.describe(set.owner)) was "
                        + "\(trace.describe(previous.delegate)) (set at \(siteText(trace, previous.site))) and was "
                        + "replaced by \(trace.describe(set.delegate)) at \(siteText(trace, set.site)) while still alive: "
                        + "\(trace.name(previous.delegate)) silently stops receiving callbacks.",
                    registry: trace.registryName(set.registry),
                    objects: [trace.name(set.owner), trace.name(previous.delegate), trace.name(set.delegate)],
                    step: trace.step(of: set.sequence), site: trace.site(set.site), location: trace.location(set.site),
                    events: [previous.sequence, set.sequence]))
        }
    }
}
