/// The last handle to an active registration went away: it can never be removed.
struct DiscardedTokenRule: Rule {
    let descriptor = RuleDescriptor(
        id: "discarded-token", severity: .warning, category: .lifetime,
        summary: "The last handle to an active registration went away: it can never be removed.",
        explanation: """
            A block registration ends only when its token is removed. Once the token is dropped (not stored, or \
            overwritten by the next registration) nothing can remove it: the block runs on every post for as \
            long as its center lives (for `NotificationCenter.default`, the rest of the process), with whatever \
            it captured. A typed-message token (Foundation's \
            ObservationToken, from addObserver(of:for:using:)) is the opposite: Foundation removes the observer \
            when the token goes, so a token dropped at once leaves an observer that never fires; so does a \
            property observation (`_ = property.observe { … }`, like KVO's NSKeyValueObservation). At once means \
            that nothing but object creation (and deallocations) came between the registration and the drop: \
            no post, no delivery, no work on shared state, no release, no other registration.
            """,
        fix: "Store the token (a property of the observing object) and remove it when done; "
            + "do not overwrite a stored token without removing it first.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen" },
                  ↓{ "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken",
                    "handler": [], "site": "Screen.swift:18" },
                  { "op": "drop-token", "token": "logoutToken" }
                ]
                """),
            // A typed message's token not kept: `_ = center.addObserver(of:for:using:)`.
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  ↓{ "op": "observe", "registry": "center", "observer": "badge", "channel": "CartDidChange",
                    "typed": true, "handler": [ { "increment": "badge.updates" } ], "site": "Badge.swift:12" }
                ]
                """),
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken",
                    "handler": [] },
                  { "op": "remove", "registry": "center", "token": "logoutToken" },
                  { "op": "drop-token", "token": "logoutToken" }
                ]
                """),
            // The typed token kept, and let go with its owner after use.
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartDidChange",
                    "typed": true, "token": "cartToken", "handler": [ { "increment": "badge.updates" } ] },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true },
                  { "op": "drop-token", "token": "cartToken" }
                ]
                """),
        ])

    let firesOnlyWith = EventKinds(.tokenDropped)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        for registration in trace.registrationsInOrder {
            if registration.typedMessage {
                checkTyped(registration, trace, into: &findings)
                continue
            }
            // Only the block form is removable by its token alone; any other
            // registration can still be removed by its observer.
            guard registration.tokenForm,
                let dropped = registration.tokenDropSequence, registration.isActive(at: dropped)
            else { continue }
            findings.append(
                finding(
                    "The token of the registration\(trace.forChannel(registration)) in \(trace.registryName(registration.registry)) "
                        + "(added at \(siteText(trace, registration.site)) for \(trace.describe(registration.observer))) "
                        + "was dropped while the registration was active: it can never be removed.",
                    registry: trace.registryName(registration.registry),
                    channel: registration.anyChannel ? nil : trace.string(registration.channel),
                    objects: [trace.name(registration.observer)], step: trace.step(of: dropped),
                    site: trace.site(registration.site), location: trace.location(registration.site),
                    events: [registration.addSequence, dropped]))
        }
    }

    static let observationFix =
        "Keep the observation (a property of the observing object) for as long as the "
        + "changes are wanted; invalidate it, or let it go with its owner, when done."

    static let typedFix =
        "Keep the ObservationToken for as long as the messages are wanted (a property of the "
        + "observing object); remove it, or let it go with its owner, when done."

    /// A typed-message token is the opposite case: Foundation removes the
    /// registration as the token goes, so one dropped at once (`_ = center.addObserver(of:for:using:)`,
    /// or a local that goes out of scope before anything is posted) leaves an
    /// observer that never fires. A token kept and let go later (its owner's
    /// teardown) is how such an observation normally ends.
    private func checkTyped(
        _ registration: TraceIndex.RegistrationRecord, _ trace: TraceIndex,
        into findings: inout RuleFindings
    ) {
        guard let dropped = registration.tokenDropSequence, registration.removeSequence == dropped,
            Self.droppedAtOnce(registration, dropped, trace)
        else { return }
        if trace.registryKind(registration.registry) == .property {
            findings.append(
                finding(
                    "The observation of \(trace.registryName(registration.registry)) (made at "
                        + "\(siteText(trace, registration.site))) was dropped at once: an observation ends when its "
                        + "token goes, so its handler never runs.",
                    registry: trace.registryName(registration.registry), channel: trace.string(registration.channel),
                    objects: [trace.name(registration.observer)], step: trace.step(of: dropped),
                    site: trace.site(registration.site), location: trace.location(registration.site),
                    events: [registration.addSequence, dropped], fix: Self.observationFix))
            return
        }
        findings.append(
            finding(
                "The ObservationToken of the typed-message observer\(trace.forChannel(registration)) in "
                    + "\(trace.registryName(registration.registry)) (added at \(siteText(trace, registration.site))) "
                    + "was dropped at once, and Foundation removes the observer with its token: it never fires.",
                registry: trace.registryName(registration.registry),
                channel: registration.anyChannel ? nil : trace.string(registration.channel),
                objects: [trace.name(registration.observer)], step: trace.step(of: dropped),
                site: trace.site(registration.site), location: trace.location(registration.site),
                events: [registration.addSequence, dropped], fix: Self.typedFix))
    }

    /// Nothing the registering thread did, and no delivery, came between the
    /// add and the drop (bookkeeping events aside).
    static func droppedAtOnce(
        _ registration: TraceIndex.RegistrationRecord, _ dropped: Int,
        _ trace: TraceIndex
    ) -> Bool {
        let thread = trace.events[registration.addSequence].thread
        for sequence in (registration.addSequence + 1)..<dropped {
            let event = trace.events[sequence]
            switch event.kind {
            // The observed object's death is the token kept for the object's whole life.
            case .dealloc where event.object == registration.sender && registration.sender != 0: return false
            case .track, .step, .dealloc: continue
            case .deliver where event.registration == registration.id: return false
            default: if event.thread == thread { return false }
            }
        }
        return true
    }
}
