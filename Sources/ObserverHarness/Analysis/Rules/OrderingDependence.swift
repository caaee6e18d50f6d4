/// The outcome depends on the order of deliveries or of concurrent steps.
/// One trace cannot show it: the rule judges two explored replays whose
/// outcomes differ (a ``Divergence``).
struct OrderingDependenceRule: Rule {
    let descriptor = RuleDescriptor(
        id: "ordering-dependence", severity: .error, category: .delivery,
        summary: "The outcome depends on the order of deliveries or of concurrent steps.",
        explanation: """
            NotificationCenter, KVO and most observer lists promise no delivery order, and concurrent work \
            interleaves differently from run to run. When two receivers of one post write and read the same \
            state, the result depends on which runs first: a bug that shows on one device, one OS version or one \
            run in a hundred. The harness replays the scenario in other orders and compares the outcomes: the \
            final shared state key by key (a key set to null is the same as one never set), every value read, \
            and the lifetime findings, by rule and the objects each names (one reported in one order and not in \
            the other is a difference). The onChanges of one change to an `observable` registry are explored \
            too: Swift promises them no order. Live, one run shows one order: `assertOrderIndependent` (or \
            `checkOrderIndependence`) runs the test's body again under the orders that could change its result, \
            the body giving the app the registries it makes with the order it is handed.
            """,
        fix: "Make each receiver independent of the others (no shared state written by one and read by another "
            + "during one post), or make the order explicit: one receiver that calls the others in sequence.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "session" },
                  { "op": "create", "object": "analytics" },
                  { "op": "observe", "registry": "center", "observer": "session", "channel": "Login",
                    "handler": [ { "set": "user.id", "value": { "payload": "id" } } ] },
                  { "op": "observe", "registry": "center", "observer": "analytics", "channel": "Login",
                    "handler": [ { "read": "user.id" } ] },
                  ↓{ "op": "post", "registry": "center", "channel": "Login", "payload": { "id": 42 } }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "session" },
                  { "op": "create", "object": "analytics" },
                  { "op": "observe", "registry": "center", "observer": "session", "channel": "Login",
                    "handler": [ { "set": "user.id", "value": { "payload": "id" } } ] },
                  { "op": "observe", "registry": "center", "observer": "analytics", "channel": "SessionStarted",
                    "handler": [ { "read": "user.id" } ] },
                  { "op": "post", "registry": "center", "channel": "Login", "payload": { "id": 42 } },
                  { "op": "post", "registry": "center", "channel": "SessionStarted" }
                ]
                """)
        ])

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {}

    func check(_ divergence: Divergence, into findings: inout [Finding]) {
        guard !divergence.differences.isEmpty else { return }
        let what = divergence.differences.prefix(3).map { "\($0.what) is \($0.first) vs \($0.other)" }
            .joined(separator: "; ")
        let more = divergence.differences.count > 3 ? " (and \(divergence.differences.count - 3) more)" : ""
        switch divergence.cause {
        case .deliveryOrder(let registry, let channel, let receivers, let reordered):
            findings.append(
                finding(
                    "The outcome of one post of \(ValuePreview.quoted(channel)) depends on delivery order: "
                        + "\(receivers.joined(separator: " then ")) gives one result, "
                        + "\(reordered.joined(separator: " then ")) another: \(what)\(more).",
                    registry: registry, channel: channel, objects: receivers, step: divergence.step,
                    site: divergence.site, events: divergence.events))
        case .interleaving(let first, let other):
            let step = divergence.step.map(String.init) ?? "?"
            findings.append(
                finding(
                    "The outcome of the concurrent branches of step \(step) depends on their interleaving: "
                        + "\(first) gives one result, \(other) another: \(what)\(more).",
                    step: divergence.step, site: divergence.site, events: divergence.events,
                    fix: "Make the concurrent work independent (no state one branch writes and another reads), "
                        + "or give it one order: run it on one serial queue or actor, or await one before "
                        + "starting the other."))
        case .combined(let registry, let channel, let first, let other, let objects):
            findings.append(
                finding(
                    "The outcome depends on two orders together, neither alone: "
                        + "\(first.joined(separator: " and ")) give one result, "
                        + "\(other.joined(separator: " and ")) another: \(what)\(more).",
                    registry: registry, channel: channel, objects: objects, step: divergence.step,
                    site: divergence.site, events: divergence.events))
        }
    }
}
