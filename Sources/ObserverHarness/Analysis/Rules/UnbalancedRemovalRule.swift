/// A removal that matched no registration, or a second removal of the same one.
struct UnbalancedRemovalRule: Rule {
    let descriptor = RuleDescriptor(
        id: "unbalanced-removal", severity: .warning, category: .registration,
        summary: "A removal that matches no registration, or a second removal of the same one.",
        explanation: """
            A removal that matches nothing means the code's idea of what is registered is wrong: the observer it \
            meant to stop is still registered (a block registration is removed only by its token, never by the \
            object that made it), or it was already removed. KVO raises on removing an observer that is not \
            registered. Live, an object that keeps a block's token (in its stored properties) and removes itself by \
            observer (`removeObserver(self)`) is reported at that removal, on the harness's centers and through \
            `Observers.center` alike: the harness finds the token in the object when the removal matches nothing.
            """,
        fix: "Remove exactly what was added: keep block-registration tokens and remove those; remove once.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken",
                    "handler": [] },
                  ↓{ "op": "remove", "registry": "center", "observer": "screen", "site": "Screen.swift:60" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout", "handler": [] },
                  { "op": "remove", "registry": "center", "observer": "screen", "channel": "Logout" },
                  ↓{ "op": "remove", "registry": "center", "observer": "screen", "channel": "Logout" }
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
                  { "op": "remove", "registry": "center", "token": "logoutToken" }
                ]
                """)
        ])

    private struct Key: Hashable { let registry: UInt32, observer: UInt32 }

    let firesOnlyWithFact: TraceFacts? = .unmatchedRemoval

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        // Removals that matched nothing are rare: index the registrations of
        // their observers only (indexing every registration cost more than
        // all the other rules together).
        let unmatched = trace.removals.filter { trace.events[$0].registration == 0 }
        guard !unmatched.isEmpty else { return }
        var byObserver = [Key: [TraceIndex.RegistrationRecord]]()
        for sequence in unmatched {
            byObserver[Key(registry: trace.events[sequence].registry, observer: trace.events[sequence].object)] = []
        }
        let unmatchedObservers = Set(unmatched.map { trace.events[$0].object })
        var tokenRegistry = [UInt32: UInt32]()
        for registration in trace.registrationsInOrder where !registration.isDelegate {
            byObserver[Key(registry: registration.registry, observer: registration.observer)]?.append(registration)
            // A block registration is also its token's owner's: that object removing itself ends nothing.
            let registrant = trace.registrant(registration)
            if registrant != registration.observer {
                byObserver[Key(registry: registration.registry, observer: registrant)]?.append(registration)
            }
            if registration.tokenForm, unmatchedObservers.contains(registration.observer) {
                tokenRegistry[registration.observer] = registration.registry
            }
        }
        for sequence in unmatched {
            let event = trace.events[sequence]
            let observer = event.object
            let registryName = trace.registryName(event.registry)
            // A removal by token names no channel unless one was given with it.
            let namesNoChannel =
                event.flags.contains(.allChannels)
                || (event.flags.contains(.byToken) && event.channel == 0)
            let channel = namesNoChannel ? nil : event.channel
            let what = channel.map { " for \(trace.quoted($0))" } ?? ""
            let who = observer == 0 ? "an object that never registered" : trace.describe(observer)
            var reason = "it matched no registration"
            var fix: String?
            let history = (byObserver[Key(registry: event.registry, observer: observer)] ?? []).filter {
                $0.addSequence < sequence && (channel == nil || $0.channel == channel)
            }
            if event.flags.contains(.byToken),
                let earlier = history.first(where: { ($0.removeSequence ?? .max) < sequence })
            {
                reason =
                    "the token was already removed at \(siteText(trace, trace.events[earlier.removeSequence!].site))"
                    + " (Foundation on Linux may remove a newer registration that reuses the token's internal key)"
                fix = "Remove a token once; set the stored token to nil after removing it."
            } else if let block = history.first(where: { $0.tokenForm && $0.isActive(at: sequence) }) {
                reason =
                    "its registration at \(siteText(trace, block.site)) is the block form, which only removing "
                    + "its token ends, so it is still registered"
                fix = "Keep the token that addObserver(forName:object:queue:using:) returned and remove that token."
            } else if let earlier = history.last(where: { ($0.removeSequence ?? .max) < sequence }) {
                reason = "it was already removed at \(siteText(trace, trace.events[earlier.removeSequence!].site))"
                fix = "Remove once: track whether the observer is registered, or remove in exactly one place."
            } else if history.isEmpty, event.flags.contains(.byToken),
                let home = tokenRegistry[observer], home != event.registry
            {
                reason =
                    "the token belongs to \(trace.registryName(home)), another center (Foundation on Linux "
                    + "removes this center's registration that happens to share the token's internal key instead)"
                fix = "Remove a token from the center that returned it."
            } else if history.isEmpty {
                reason = "it was never registered here"
            }
            findings.append(
                finding(
                    "Removing \(who)\(what) from \(registryName) at \(siteText(trace, event.site)) did nothing: \(reason).",
                    registry: registryName, channel: channel.map { trace.string($0) },
                    objects: observer == 0 ? [] : [trace.name(observer)], step: trace.step(of: sequence),
                    site: trace.site(event.site), location: trace.location(event.site), events: [sequence], fix: fix))
        }
    }
}
