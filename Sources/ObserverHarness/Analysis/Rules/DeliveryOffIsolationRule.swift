/// A handler registered from actor-isolated code (the main actor, or another
/// actor) ran off that actor: the post came from another thread, and the
/// registry delivered synchronously on it.
struct DeliveryOffIsolationRule: Rule {
    let descriptor = RuleDescriptor(
        id: "delivery-off-isolation", severity: .error, category: .delivery,
        summary: "A handler registered from an actor-isolated context ran off that actor.",
        explanation: """
            A notification center, an observer list, a property and a delegate call their handlers on the thread \
            that posts. Code registered from the main actor reads as main-actor code, and often assumes it \
            (`MainActor.assumeIsolated`, UI state, a main-actor model); the first post from a background thread \
            runs it elsewhere. In Swift 6 that is a crash (`_dispatch_assert_queue_fail`), and without the \
            assertion a data race on state the actor was meant to protect. Main Thread Checker does not see it: it \
            knows only UIKit and AppKit, and does not run on Linux. The harness records the isolation of every \
            registration (`#isolation`) and where each delivery ran. Live, an actor other than the main actor is \
            judged only when its handler runs on the main thread, where it certainly is not.
            """,
        fix: "Deliver where the handler expects: register with `queue: .main` (or hop inside the handler with "
            + "`Task { @MainActor in … }`), or post from the main actor.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "isolation": "main-actor", "handler": [ { "increment": "badge.count" } ],
                    "site": "CartBadge.swift:12" },
                  ↓{ "op": "post", "registry": "center", "channel": "CartChanged", "isolation": "background",
                    "site": "CartSync.swift:40" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "store" },
                  { "op": "create", "object": "downloader" },
                  { "op": "set-delegate", "registry": "slot", "owner": "downloader", "delegate": "store",
                    "isolation": "ImageStore" },
                  ↓{ "op": "call-delegate", "registry": "slot", "owner": "downloader", "method": "didFinish",
                    "isolation": "main-actor" }
                ]
                """),
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "isolation": "main-actor", "handler": [ { "increment": "badge.count" } ] },
                  { "op": "post", "registry": "center", "channel": "CartChanged", "isolation": "main-actor" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "handler": [ { "increment": "badge.count" } ] },
                  { "op": "post", "registry": "center", "channel": "CartChanged", "isolation": "background" }
                ]
                """),
        ])

    func check(_ trace: TraceIndex, into findings: inout [Finding]) {
        var reported = Set<Key>()
        for post in trace.posts {
            for delivery in post.deliveries {
                let event = trace.events[delivery]
                guard event.kind == .deliver, event.flags.contains(.offIsolation),
                    let registration = trace.registration(event.registration),
                    reported.insert(Key(registration: event.registration, site: post.site)).inserted
                else { continue }
                findings.append(report(delivery, of: post, to: registration, trace))
            }
        }
        checkObservationTracking(trace, into: &findings)
    }

    /// `withObservationTracking`'s `onChange` runs on the thread that changes
    /// a tracked value, whatever the registering code's isolation.
    private func checkObservationTracking(_ trace: TraceIndex, into findings: inout [Finding]) {
        var arms: [UInt32: Int] = [:]
        var reported = Set<UInt32>()
        for sequence in trace.observationEvents {
            let event = trace.events[sequence]
            if event.kind == .observationArm { arms[event.registration] = sequence }
            guard event.kind == .observationFire, event.flags.contains(.offIsolation),
                let arm = arms[event.registration], reported.insert(trace.events[arm].site).inserted
            else { continue }
            let armEvent = trace.events[arm]
            let isolation = armEvent.flags.contains(.mainActorIsolated) ? "the main actor" : "an actor"
            let ranWhere = event.flags.contains(.onMainActor) ? "on the main actor" : "on another thread"
            findings.append(
                finding(
                    "onChange of the observation armed at \(siteText(trace, armEvent.site)) ran off "
                        + "\(isolation == "an actor" ? "its actor" : isolation): it was set up on \(isolation), but "
                        + "\(trace.quoted(armEvent.channel)) was changed \(ranWhere), and onChange runs on the changing "
                        + "thread.",
                    registry: trace.registryName(armEvent.registry), channel: trace.string(armEvent.channel),
                    objects: armEvent.object == 0 ? [] : [trace.name(armEvent.object)], step: trace.step(of: sequence),
                    site: trace.site(armEvent.site), location: trace.location(armEvent.site),
                    events: [arm, Int(event.cause), sequence],
                    fix: "Hop in onChange before touching isolated state (`Task { @MainActor in … }`), or make "
                        + "the changes on the registering actor."))
        }
    }

    private struct Key: Hashable {
        let registration: UInt32
        let site: UInt32
    }

    private func report(
        _ delivery: Int, of post: TraceIndex.PostRecord, to registration: TraceIndex.RegistrationRecord,
        _ trace: TraceIndex
    ) -> Finding {
        let registryName = trace.registryName(registration.registry)
        let onMainActor = trace.events[registration.addSequence].flags.contains(.mainActorIsolated)
        let isolation = onMainActor ? "the main actor" : "an actor"
        let ranWhere = trace.events[delivery].flags.contains(.onMainActor) ? "on the main actor" : "on another thread"
        let observer = trace.describe(registration.observer)
        let what: String =
            switch post.kind {
            case .delegateCall: "The delegate call \(trace.quoted(post.channel)) reached \(observer)"
            case .propertySet: "A set of \(trace.quoted(post.channel)) was delivered to \(observer)"
            default:
                (registration.anyChannel ? "A notification" : trace.quoted(post.channel))
                    + " was delivered to \(observer)"
            }
        let made = registration.isDelegate ? "the delegate" : "its registration"
        let trigger = post.kind == .delegateCall ? "call" : post.kind == .propertySet ? "set" : "post"
        return finding(
            "\(what) off \(onMainActor ? "the main actor" : "its actor"): \(made) in \(registryName) at "
                + "\(siteText(trace, registration.site)) was set up on \(isolation), but the \(trigger) at "
                + "\(siteText(trace, post.site)) ran \(ranWhere) and the handler ran with it.",
            registry: registryName, channel: trace.string(post.channel), objects: [trace.name(registration.observer)],
            step: trace.step(of: delivery), site: trace.site(post.site), location: trace.location(post.site),
            events: [registration.addSequence, post.sequence, delivery])
    }
}
