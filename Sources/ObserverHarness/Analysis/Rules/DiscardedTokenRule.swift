/// The last handle to an active registration went away: it can never be removed.
struct DiscardedTokenRule: Rule {
    let descriptor = RuleDescriptor(
        id: "discarded-token", severity: .warning, category: .lifetime,
        summary: "The last handle to an active registration went away: it can never be removed.",
        explanation: """
            A block registration ends only when its token is removed. Once the token is dropped (not stored, or \
            overwritten by the next registration) nothing can remove it: the block runs on every post for the \
            rest of the process, with whatever it captured.
            """,
        fix: "Store the token (a property of the observing object) and remove it when done; "
            + "do not overwrite a stored token without removing it first.",
        triggering: [
            RuleExample("""
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken",
                    "handler": [], "site": "Screen.swift:18" },
                  ↓{ "op": "drop-token", "token": "logoutToken" }
                ]
                """),
        ],
        clean: [
            RuleExample("""
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken",
                    "handler": [] },
                  { "op": "remove", "registry": "center", "token": "logoutToken" },
                  { "op": "drop-token", "token": "logoutToken" }
                ]
                """),
        ])

    func check(_ trace: TraceIndex, into findings: inout [Finding]) {
        for registration in trace.registrationsInOrder {
            // Only the block form is removable by its token alone; any other
            // registration can still be removed by its observer.
            guard registration.tokenForm,
                  let dropped = registration.tokenDropSequence, registration.isActive(at: dropped) else { continue }
            findings.append(finding(
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
}
