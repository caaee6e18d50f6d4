/// An observer deallocated while still registered: the registration is left
/// behind. Weak registrations make this harmless (a note); weak delegates are
/// normal and never fire it, nor does an observer list declared `weak`.
struct DanglingRegistrationRule: Rule {
    let descriptor = RuleDescriptor(
        id: "dangling-registration", severity: .note, category: .lifetime,
        summary: "An observer deallocated while still registered, leaving the registration behind.",
        explanation: """
            The observer went away without removing its registration. With a weak hold every later post just \
            skips it, so nothing crashes, but the registry keeps a dead entry and the code relies on the \
            registry's cleanup rather than its own. With an unowned hold, any later delivery would be a \
            message to a dead object; when one is made, `notify-after-dealloc` reports it (an error) and this \
            note is left out. An observer list (a `subject`) that declares `hold: .weak` says its \
            observers may go without removing themselves and drops them itself, so an observer dying in it is \
            not a note; it is one when the registration's weak hold is not the list's own (an \
            `add(_:hold: .weak)` on a list that holds strongly), and in a notification center, whose weak \
            hold is Foundation's, not the code's, declaration.
            """,
        fix: "Remove the registration when the observer goes away (in deinit or when it stops listening), "
            + "or keep the token and remove it.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "banner" },
                  ↓{ "op": "observe", "registry": "center", "observer": "banner", "channel": "Sale", "handler": [],
                    "site": "Banner.swift:12" },
                  { "op": "release", "object": "banner" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "banner",
                    "methods": { "deinit": [ { "remove": { "registry": "center", "observer": "self" } } ] } },
                  { "op": "observe", "registry": "center", "observer": "banner", "channel": "Sale", "handler": [] },
                  { "op": "release", "object": "banner" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "scrollView" },
                  { "op": "create", "object": "controller" },
                  { "op": "set-delegate", "registry": "slot", "owner": "scrollView", "delegate": "controller" },
                  { "op": "release", "object": "controller" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "store", "observer": "screen", "handler": [] },
                  { "op": "release", "object": "screen" },
                  { "op": "post", "registry": "store" }
                ]
                """, registries: #"{ "store": { "kind": "subject", "hold": "weak" } }"#),
        ])

    /// A death, or a block skipped because its queue was gone.
    let firesOnlyWith = EventKinds(.dealloc, .deliverSkipped)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        for registration in trace.registrationsInOrder {
            guard !registration.isDelegate,
                registration.hold != .strong,
                let deallocation = trace.lifetimes[Int(registration.observer)].deallocSequence,
                registration.isActive(at: deallocation)
            else { continue }
            // A delivery to the dead observer is the error rule's to report.
            if registration.hasDeadDeliveries { continue }
            if Self.declaresDeathRegistered(trace.registryInfo(registration.registry), registration.hold) { continue }
            let consequence =
                registration.hold == .weak
                ? "later posts skip it"
                : "it is held unowned, so any later delivery would be a message to a dead object"
            findings.append(
                finding(
                    "\(trace.describe(registration.observer)) deallocated while still registered\(trace.forChannel(registration)) in "
                        + "\(trace.registryName(registration.registry)) (added at \(siteText(trace, registration.site))): "
                        + "\(consequence).",
                    registry: trace.registryName(registration.registry),
                    channel: registration.anyChannel ? nil : trace.string(registration.channel),
                    objects: [trace.name(registration.observer)], step: trace.step(of: deallocation),
                    site: trace.site(registration.site), location: trace.location(registration.site),
                    events: [registration.addSequence, deallocation]))
        }
        reportQueuesGone(trace, into: &findings)
    }

    /// A list declared `weak` whose observer was added with that hold: dying
    /// registered is the list's documented design, not something to fix.
    static func declaresDeathRegistered(_ info: RegistryInfo, _ hold: Hold) -> Bool {
        info.kind == .subject && info.hold == .weak && hold == .weak
    }

    /// A block registration whose queue deallocated: Foundation holds the
    /// queue weakly, so the block silently stopped running. The drop-in does
    /// the same, and says so here rather than letting a test pass on it.
    private func reportQueuesGone(_ trace: TraceIndex, into findings: inout RuleFindings) {
        var reported = Set<UInt32>()
        for skip in trace.queueGoneSkips {
            let event = trace.events[skip]
            guard reported.insert(event.registration).inserted,
                let registration = trace.registration(event.registration)
            else { continue }
            // A live skip's cause is the delivery it ran in; a trace's skip may have none.
            let postSite =
                event.cause == Event.none
                ? ""
                : trace.post(ofDelivery: Int(event.cause)).map { " (first skipped at \(siteText(trace, $0.site)))" }
                    ?? ""
            findings.append(
                finding(
                    "The queue \(trace.describe(event.object)) of \(trace.describe(registration.observer))"
                        + "\(trace.forChannel(registration)) in \(trace.registryName(registration.registry)) deallocated "
                        + "while the registration was active: Foundation holds a block's queue weakly, so the block no "
                        + "longer runs\(postSite).",
                    registry: trace.registryName(registration.registry),
                    channel: registration.anyChannel ? nil : trace.string(registration.channel),
                    objects: [trace.name(registration.observer), trace.name(event.object)], step: trace.step(of: skip),
                    site: trace.site(registration.site), location: trace.location(registration.site),
                    events: [registration.addSequence, skip],
                    fix: "Keep the OperationQueue alive as long as the registration (a property of the observing "
                        + "object), or remove the token before the queue goes."))
        }
    }
}
