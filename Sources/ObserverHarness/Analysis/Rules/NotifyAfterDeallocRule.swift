/// A delivery reached (or, `unowned`, would have reached) a deallocated
/// observer or delegate: the crash of a KVO observer or pre-iOS 9 selector
/// observer that was never removed, or of an `unowned`/`assign` delegate.
struct NotifyAfterDeallocRule: Rule {
    let descriptor = RuleDescriptor(
        id: "notify-after-dealloc", severity: .error, category: .lifetime,
        summary: "A delivery reached (or would have reached) an observer or delegate after it deallocated.",
        explanation: """
            A registration that does not keep its observer alive (unowned, KVO, `assign` delegates, selector \
            observers before iOS 9) still points at the observer after it deallocates. The next notification, \
            property change or delegate call is a message to a dead object: a crash, or worse, memory corruption \
            if the address has been reused. The harness records the would-be delivery instead of crashing.
            """,
        fix: "Remove the registration before the observer deallocates (in deinit or when it stops listening), "
            + "or hold the observer weakly.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "view" },
                  ↓{ "op": "observe", "registry": "subject", "observer": "view", "hold": "unowned", "handler": [],
                    "site": "View.swift:10" },
                  { "op": "release", "object": "view" },
                  { "op": "post", "registry": "subject", "site": "Model.swift:5" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "table" },
                  { "op": "create", "object": "dataSource", "methods": { "numberOfRows": [] } },
                  ↓{ "op": "set-delegate", "registry": "slot", "owner": "table", "delegate": "dataSource",
                    "hold": "unowned" },
                  { "op": "release", "object": "dataSource" },
                  { "op": "call-delegate", "registry": "slot", "owner": "table", "method": "numberOfRows" }
                ]
                """),
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "view" },
                  { "op": "observe", "registry": "subject", "observer": "view", "hold": "unowned", "handler": [] },
                  { "op": "remove", "registry": "subject", "observer": "view" },
                  { "op": "release", "object": "view" },
                  { "op": "post", "registry": "subject" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "table" },
                  { "op": "create", "object": "dataSource", "methods": { "numberOfRows": [] } },
                  { "op": "set-delegate", "registry": "slot", "owner": "table", "delegate": "dataSource" },
                  { "op": "release", "object": "dataSource" },
                  { "op": "call-delegate", "registry": "slot", "owner": "table", "method": "numberOfRows" }
                ]
                """),
        ])

    // Only a delivery to a deallocated observer is reported.
    let firesOnlyWith = EventKinds(.deliverToDead)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        for registration in trace.registrationsInOrder {
            let dead = trace.deadDeliveries(of: registration)
            guard let first = dead.first else { continue }
            let observer = registration.observer
            let deallocation = trace.lifetimes[Int(observer)].deallocSequence
            let registry = trace.registryName(registration.registry)
            let times = dead.count == 1 ? "" : " (\(dead.count) times)"
            // A delegate's "channel" is the method its owner called.
            let channel = registration.isDelegate ? trace.post(ofDelivery: first)?.channel ?? 0 : registration.channel
            let message: String
            let fix: String?
            if registration.isDelegate {
                message =
                    "\(trace.describe(registration.sender)) called \(trace.quoted(channel)) on its delegate "
                    + "\(trace.describe(observer)) after the delegate deallocated\(times): the slot "
                    + "\(registry) holds it \(registration.hold.rawValue) (set at \(siteText(trace, registration.site)))."
                fix =
                    "Declare the delegate `weak` (it then reads nil once the delegate is gone), or set it to nil "
                    + "before the delegate deallocates."
            } else {
                let what =
                    registration.anyChannel || trace.string(channel).isEmpty ? "A notification" : trace.quoted(channel)
                message =
                    "\(what) was delivered to \(trace.describe(observer)) after it deallocated\(times): "
                    + "its registration in \(registry) at \(siteText(trace, registration.site)) holds it "
                    + "\(registration.hold.rawValue) and was never removed."
                fix = nil
            }
            var events = [registration.addSequence]
            if let deallocation { events.append(deallocation) }
            events += dead
            findings.append(
                finding(
                    message, registry: registry,
                    channel: registration.anyChannel && !registration.isDelegate ? nil : trace.string(channel),
                    objects: [trace.name(observer)], step: trace.step(of: first),
                    site: trace.site(registration.site), location: trace.location(registration.site),
                    events: events, fix: fix))
        }
    }
}

/// `File.swift:LINE`, or "an unknown site".
func siteText(_ trace: TraceIndex, _ site: UInt32) -> String {
    trace.site(site)?.description ?? "an unknown site"
}
