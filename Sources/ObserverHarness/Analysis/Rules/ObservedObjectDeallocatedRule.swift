/// An observed object (a KVO target, a notification's `object:` filter)
/// deallocated while observers were still registered on it.
struct ObservedObjectDeallocatedRule: Rule {
    let descriptor = RuleDescriptor(
        id: "observed-object-deallocated", severity: .error, category: .lifetime,
        summary: "An observed object or sender deallocated while observers were still registered on it.",
        explanation: """
            KVO raises when an object deallocates with observers still registered on it, and a notification \
            registration filtered to a sender keeps that sender's address: once it is freed, an unrelated object \
            allocated there receives the observer's notifications. Observations must end before the observed \
            object goes away. Where the line is: a KVO target must have no observers when it deallocates. A \
            notification registration filtered to a sender may still be removed in the same synchronous flow — \
            the same scenario step; live, the first registry operation after the release and what its handlers \
            do (a download manager drops a finished task, then tells its observers, and the task's row stops \
            observing in that callback) — since no post or registration could reach it while the sender was dead. \
            It fires when the registration outlives that flow.
            """,
        fix: "Remove the observation before the observed object deallocates: in the observer's teardown, or in "
            + "the deinit of whoever owns both — before the observed object is released.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "player" },
                  { "op": "create", "object": "progressView" },
                  ↓{ "op": "observe", "registry": "kvo", "observer": "progressView", "object": "player",
                    "property": "currentTime", "handler": [], "site": "ProgressView.swift:31" },
                  { "op": "release", "object": "player" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "task" },
                  { "op": "create", "object": "row", "methods": { "downloadFinished": [
                    { "remove": { "registry": "center", "observer": "row", "channel": "Progress" } }
                  ] } },
                  { "op": "create", "object": "manager", "methods": { "finish": [
                    { "release": "task" },
                    { "invoke": { "object": "row", "method": "downloadFinished" } }
                  ] } },
                  { "op": "observe", "registry": "center", "observer": "row", "channel": "Progress",
                    "sender": "task", "handler": [] },
                  { "op": "invoke", "object": "manager", "method": "finish" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "player" },
                  { "op": "create", "object": "progressView" },
                  { "op": "observe", "registry": "kvo", "observer": "progressView", "object": "player",
                    "property": "currentTime", "handler": [] },
                  { "op": "remove", "registry": "kvo", "observer": "progressView", "object": "player",
                    "property": "currentTime" },
                  { "op": "release", "object": "player" }
                ]
                """),
        ])

    let firesOnlyWith = EventKinds(.dealloc)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        var flowEnds = [Int: Int]()
        for registration in trace.registrationsInOrder {
            guard !registration.isDelegate, registration.sender != 0,
                let deallocation = trace.lifetimes[Int(registration.sender)].deallocSequence,
                registration.isActive(at: deallocation)
            else { continue }
            let info = trace.registryInfo(registration.registry)
            // Removed in the same synchronous flow as the death (a handler of the
            // post that announced it): no post or registration could reach it dead.
            if info.kind != .property, let removal = registration.removeSequence {
                let end = flowEnds[deallocation] ?? SynchronousFlow.end(after: deallocation, in: trace)
                flowEnds[deallocation] = end
                if removal < end { continue }
            }
            // An object observing itself is an observer registered on it: freed
            // still registered, it is this rule's, whatever the hold.
            let observesItself = registration.sender == registration.observer
            // A weakly held observer that is already gone no longer cares.
            if !observesItself, registration.hold == .weak, info.kind != .property,
                trace.lifetimes[Int(registration.observer)].isDeallocated(at: deallocation)
            {
                continue
            }
            let observer = observesItself ? "it" : trace.describe(registration.observer)
            let what =
                info.kind == .property
                ? "\(observer) still observed its \(trace.quoted(registration.channel))"
                : "\(observer) still observed \(registration.anyChannel || trace.string(registration.channel).isEmpty ? "its notifications" : trace.quoted(registration.channel)) from \(observesItself ? "itself" : "it")"
            findings.append(
                finding(
                    "\(trace.describe(registration.sender)) deallocated while \(what) in \(info.name) "
                        + "(added at \(siteText(trace, registration.site)))",
                    registry: info.name, channel: registration.anyChannel ? nil : trace.string(registration.channel),
                    objects: observesItself
                        ? [trace.name(registration.sender)]
                        : [trace.name(registration.sender), trace.name(registration.observer)],
                    step: trace.step(of: deallocation), site: trace.site(registration.site),
                    location: trace.location(registration.site), events: [registration.addSequence, deallocation]))
        }
    }
}
