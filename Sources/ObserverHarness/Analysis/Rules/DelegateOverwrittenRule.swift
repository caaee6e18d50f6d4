/// A live delegate was replaced by another object, silently cutting it off.
struct DelegateOverwrittenRule: Rule {
    let descriptor = RuleDescriptor(
        id: "delegate-overwritten", severity: .warning, category: .design,
        summary: "A live delegate was replaced by another object, which silently cuts the first off.",
        explanation: """
            A delegate slot holds one object. When a second object assigns itself while the first is still alive \
            and still expects callbacks (two screens sharing one location manager or one scroll view), the first \
            stops hearing anything and nothing says so. Replacing a delegate that was cleared to nil, or that has \
            deallocated, is fine; so is replacing one a strong slot alone kept (it goes with the replacement), \
            and a delegate handing the slot on from its own callback. Live, the delegate is a `DelegateSlot`'s.
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

    /// Only deallocations and objects tracked came between the two events,
    /// and no release of `object` itself (a reference the app let go after
    /// the set: the set did not free it).
    private static func nothingHappened(
        between start: Int, and end: Int, to object: UInt32, _ trace: TraceIndex
    ) -> Bool {
        guard end > start else { return false }
        for sequence in (start + 1)..<end {
            switch trace.events[sequence].kind {
            case .dealloc, .track: continue
            case .appRelease where trace.events[sequence].object != object: continue
            default: return false
            }
        }
        return true
    }

    /// Whether the event at `sequence` ran inside a delegate call delivered to `delegate`.
    private static func runsInCall(_ sequence: Int, to delegate: UInt32, _ trace: TraceIndex) -> Bool {
        for (_, frame) in trace.events.causes(of: sequence) where frame.kind == .deliver && frame.object == delegate {
            return true
        }
        return false
    }

    let firesOnlyWith = EventKinds(.delegateSet)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        var current = [Slot: TraceIndex.DelegateSet]()
        for set in trace.delegateSets {
            let slot = Slot(registry: set.registry, owner: set.owner)
            defer { current[slot] = set.delegate == 0 ? nil : set }
            guard set.delegate != 0, let previous = current[slot], previous.delegate != set.delegate else { continue }
            let lifetime = trace.lifetimes[Int(previous.delegate)]
            if lifetime.isDeallocated(at: set.sequence) { continue }
            // The slot held its last reference: it went with the replacement.
            // Only a strong slot can: a weak one's delegate found dead right
            // after the set died later (at the check, when nothing followed).
            if trace.events[previous.sequence].flags.hold == .strong, let dealloc = lifetime.deallocSequence,
                Self.nothingHappened(between: set.sequence, and: dealloc, to: previous.delegate, trace)
            {
                continue
            }
            // The delegate handed the slot on from its own callback.
            if Self.runsInCall(set.sequence, to: previous.delegate, trace) { continue }
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
