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

            What is judged is what the handler does off its actor, since Swift cannot say at run time what a \
            plain `@Sendable` closure is isolated to (only `@isolated(any)` function types carry `.isolation`). \
            While such a delivery runs, anything the harness records in it (a `noteAction`, a post, a registration, \
            a property set, a delegate call) ran off the actor: that is the error, reported at the handler's \
            registration, whoever posts. A handler that records nothing there and starts a `Task` (`Task { await \
            self?.ingest(x) }`, `Task { @MainActor in … }`) only hops: it is not reported, unless what the task \
            records runs off the actor too. In a scenario, `{"hop": ISOLATION, "handler": [...]}` inside a \
            handler is such a task, and a handler of which nothing is seen, and that starts no task, is reported \
            at the post that ran it off its actor, as the harness cannot tell what it touched. Live such a handler \
            is not reported: a `Task` it started may have ended before it returned, leaving no trace, so the \
            harness cannot tell a handler that only hopped from one that touched state it does not record, and \
            says nothing rather than guess by timing. Typed messages are \
            not judged: a `MainActorMessage` observer always runs on the main actor, and an `AsyncMessage` \
            observer runs in a task of its own, whose `await`s hop where they must.
            """,
        fix: "Deliver where the handler expects: register with `queue: .main`, or have the handler only hop "
            + "(`Task { @MainActor in … }`, `Task { await self?.method(…) }`) and do its work there, or post from "
            + "the main actor.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  ↓{ "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "isolation": "main-actor", "handler": [ { "increment": "badge.count" } ],
                    "site": "CartBadge.swift:12" },
                  { "op": "post", "registry": "center", "channel": "CartChanged", "isolation": "background",
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
            RuleExample(
                """
                [
                  { "op": "create", "object": "meter" },
                  ↓{ "op": "observe", "registry": "center", "observer": "meter", "channel": "MeterReading",
                    "isolation": "EnergyMeter", "handler": [
                      { "hop": "background", "handler": [ { "increment": "meter.total" } ] } ] },
                  { "op": "post", "registry": "center", "channel": "MeterReading", "isolation": "main-actor" }
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
            RuleExample(
                """
                [
                  { "op": "create", "object": "meter" },
                  { "op": "observe", "registry": "center", "observer": "meter", "channel": "MeterReading",
                    "isolation": "EnergyMeter", "handler": [
                      { "hop": "EnergyMeter", "handler": [ { "increment": "meter.total" } ] } ] },
                  { "op": "post", "registry": "center", "channel": "MeterReading", "isolation": "main-actor" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "isolation": "main-actor", "handler": [
                      { "hop": "main-actor", "handler": [ { "increment": "badge.count" } ] } ] },
                  { "op": "post", "registry": "center", "channel": "CartChanged", "isolation": "background" }
                ]
                """),
        ])

    /// A delivery, or an `onChange`, that ran off its isolation.
    let firesOnlyWithFlagged: FlaggedKinds? = FlaggedKinds(
        kinds: EventKinds(.deliver, .observationFire), flags: .offIsolation)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        var reported = Set<Key>()
        var work: HandlerWork?
        // The index lists the deliveries off isolation (rare), in sequence
        // order; they are judged post by post, each post's in order.
        let posts = trace.posts
        let listed = trace.offIsolationDeliveries
        let offIsolation =
            listed.isEmpty
            ? [] : listed.enumerated().sorted { ($0.element.post, $0.offset) < ($1.element.post, $1.offset) }
        for (_, (position, delivery)) in offIsolation {
            let post = posts[position]
            let event = trace.events[delivery]
            guard let registration = trace.registration(event.registration) else { continue }
            if work == nil { work = HandlerWork(trace) }
            let seen = work?.seen(of: delivery) ?? .nothing
            if case .handedOn = seen { continue }
            guard reported.insert(Key(registration: event.registration, site: post.site)).inserted else { continue }
            findings.append(report(delivery, of: post, to: registration, seen: seen, trace))
        }
        checkObservationTracking(trace, into: &findings)
    }

    /// `withObservationTracking`'s `onChange` runs on the thread that changes
    /// a tracked value, whatever the registering code's isolation.
    private func checkObservationTracking(_ trace: TraceIndex, into findings: inout RuleFindings) {
        var arms = [UInt32: Int]()
        var reported = Set<UInt32>()
        var work: HandlerWork?
        for sequence in trace.observationEvents {
            let event = trace.events[sequence]
            if event.kind == .observationArm { arms[event.registration] = sequence }
            guard event.kind == .observationFire, event.flags.contains(.offIsolation),
                let arm = arms[event.registration]
            else { continue }
            // An onChange that only hops (`Task { @MainActor in … }`) applies the fix.
            if work == nil { work = HandlerWork(trace) }
            if case .handedOn = work?.seen(of: sequence) { continue }
            guard reported.insert(trace.events[arm].site).inserted else { continue }
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
                    fix: "Hop in onChange before touching isolated state ("
                        + (armEvent.flags.contains(.mainActorIsolated)
                            ? "`Task { @MainActor in … }`" : "`Task { await self?.method(…) }`")
                        + "), or make the changes on the registering actor."))
        }
    }

    private struct Key: Hashable {
        let registration: UInt32
        let site: UInt32
    }

    private func report(
        _ delivery: Int, of post: TraceIndex.PostRecord, to registration: TraceIndex.RegistrationRecord,
        seen: HandlerWork.Seen, _ trace: TraceIndex
    ) -> Finding {
        let registryName = trace.registryName(registration.registry)
        let onMainActor = trace.events[registration.addSequence].flags.contains(.mainActorIsolated)
        let isolation = onMainActor ? "the main actor" : "an actor"
        let its = onMainActor ? "the main actor" : "its actor"
        let ranWhere = trace.events[delivery].flags.contains(.onMainActor) ? "on the main actor" : "on another thread"
        let observer = trace.describe(registration.observer)
        let what: String =
            switch post.kind {
            case .delegateCall: "The delegate call \(trace.quoted(post.channel)) reached \(observer)"
            case .propertySet: "A set of \(trace.quoted(post.channel)) was delivered to \(observer)"
            default:
                (registration.anyChannel || trace.string(post.channel).isEmpty
                    ? "A notification" : trace.quoted(post.channel))
                    + " was delivered to \(observer)"
            }
        let made = registration.isDelegate ? "the delegate" : "its registration"
        let trigger = post.kind == .delegateCall ? "call" : post.kind == .propertySet ? "set" : "post"
        let story =
            "\(what) off \(its): \(made) in \(registryName) at \(siteText(trace, registration.site)) was set up on "
            + "\(isolation), but the \(trigger) at \(siteText(trace, post.site)) ran \(ranWhere)"
        // Another actor's handler: `queue: .main` and `@MainActor` do not reach it.
        let hop =
            onMainActor
            ? "(`Task { @MainActor in … }`, `Task { await self?.method(…) }`), or register with `queue: .main`"
            : "to the actor (`Task { await self?.method(…) }`)"
        guard case .touched(let touch, let inHandler) = seen else {
            return finding(
                story + " and the handler ran with it.",
                registry: registryName, channel: trace.string(post.channel),
                objects: [trace.name(registration.observer)],
                step: trace.step(of: delivery), site: trace.site(post.site), location: trace.location(post.site),
                events: [registration.addSequence, post.sequence, delivery],
                fix: onMainActor
                    ? nil
                    : "Deliver where the handler expects: have the handler only hop \(hop) and do its work "
                        + "there, or post from the actor.")
        }
        // The handler itself is the bug, whoever posts: reported where it is registered.
        let did = HandlerWork.describe(touch, trace)
        let there = inHandler ? "the handler \(did) there" : "work the handler started \(did) off \(its) too"
        let actorWords = onMainActor ? "main-actor state only on the main actor" : "the actor's state only on the actor"
        return finding(
            "\(story), and \(there).",
            registry: registryName, channel: trace.string(post.channel), objects: [trace.name(registration.observer)],
            step: trace.step(of: delivery), site: trace.site(registration.site),
            location: trace.location(registration.site),
            events: [registration.addSequence, post.sequence, delivery, touch],
            fix: "Touch \(actorWords): have the handler only hop, and do the work in the hop \(hop).")
    }
}

/// What the handlers of deliveries off their isolation did, as recorded:
/// events inside the delivery ran off the isolation; `hop` events tell of
/// work the handler started (a `Task`) and where it ran.
struct HandlerWork {
    enum Seen {
        /// Something recorded ran off the isolation on the handler's behalf:
        /// in the handler (`inHandler`), or in work it started.
        case touched(Int, inHandler: Bool)
        /// The handler recorded nothing off the isolation and started work
        /// that holds it or ran on it: it only hopped.
        case handedOn
        /// Nothing recorded: the harness cannot see what it did.
        case nothing
    }

    /// The first event each delivery's handler recorded in the delivery.
    private var firstInside = [UInt32: Int]()
    private var handedOn = Set<UInt32>()
    private var strayed = [UInt32: Int]()

    init(_ trace: TraceIndex) {
        let events = trace.events
        for sequence in 0..<events.count {
            let event = events[sequence]
            guard event.cause != Event.none, event.kind != .hop, !event.kind.isDelivery else { continue }
            if firstInside[event.cause] == nil { firstInside[event.cause] = sequence }
        }
        for sequence in trace.hopEvents {
            let hop = events[sequence]
            if hop.flags.contains(.offIsolation) {
                if strayed[hop.cause] == nil { strayed[hop.cause] = sequence }
            } else {
                handedOn.insert(hop.cause)
            }
        }
    }

    func seen(of delivery: Int) -> Seen {
        let key = UInt32(delivery)
        if let inside = firstInside[key] { return .touched(inside, inHandler: true) }
        if let hop = strayed[key] { return .touched(hop, inHandler: false) }
        return handedOn.contains(key) ? .handedOn : .nothing
    }

    /// What the recorded work did, for a message.
    static func describe(_ sequence: Int, _ trace: TraceIndex) -> String {
        var event = trace.events[sequence]
        if event.kind == .hop {
            // The work the hop stands for is the event after it.
            guard sequence + 1 < trace.events.count else { return "ran" }
            event = trace.events[sequence + 1]
        }
        return switch event.kind {
        case .increment, .stateSet, .append: "changed \(trace.quoted(event.channel))"
        case .read: "read \(trace.quoted(event.channel))"
        case .post: "posted \(trace.quoted(event.channel))"
        case .propertySet: "set \(trace.quoted(event.channel))"
        case .delegateCall: "called its delegate's \(trace.quoted(event.channel))"
        case .invoke: "called \(trace.quoted(event.channel))"
        case .add, .delegateSet: "registered an observer"
        case .remove: "removed an observer"
        default: "ran work the harness records"
        }
    }
}
