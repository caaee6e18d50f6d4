/// The app released an observer, but a registration (or a strong delegate
/// slot) still holds it: the leak of a strong observer array, a block that
/// captures `self`, or a strong delegate cycle.
struct RegistrationKeepsObserverAliveRule: Rule {
    let descriptor = RuleDescriptor(
        id: "registration-keeps-observer-alive", severity: .error, category: .lifetime,
        summary: "An observer the app released stayed alive only because a registration holds it.",
        explanation: """
            The app dropped its last reference, but the registry holds the observer strongly (a strong observer \
            array, a block capturing self, a strong delegate property). The observer never deallocates, so a \
            removal written in its deinit never runs, it keeps handling notifications after its screen is gone, \
            and it leaks. In live tests a block that captures the object while the object holds its token is found \
            by experiment: the harness detaches the released object's own block registrations one at a time and \
            reports the one whose detaching frees it. `withObservationTracking` is the same: the model's \
            registrar keeps an onChange that has not fired, and what it captures, so an observer captured \
            strongly lives until the value changes (or the model goes). Live, a released observer a strong \
            registration still holds is reported whether or not something else holds it too (the harness cannot \
            tell another holder from the test's own reference), so a scenario's `retain` by another object has \
            no live counterpart. Live tests also name the chain of strong \
            references that keeps the object alive, read from memory from a registration, a tracked object or the \
            object itself (a cycle), each link a stored property, an element or a closure (weak and unowned links \
            are never named); a chain from a registration is a finding even when the registration holds something \
            else, e.g. a subscription whose closure captures the screen: `ProfileScreen#2 was released but is still \
            alive: a chain of strong references from a registration in observers reaches it. Reference chain: the \
            registration in observers (added at ObserverHarnessTestingTests/Signal.swift:14) → \
            Subscription.callback (closure) → ProfileScreen#2.`
            """,
        fix: "Hold observers weakly (a weak observer list, [weak self] in blocks, weak delegates), or remove the "
            + "registration when the observer is done — not in deinit, which never runs while the registry holds it.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "hud" },
                  ↓{ "op": "observe", "registry": "subject", "observer": "hud", "handler": [], "site": "HUD.swift:22" },
                  { "op": "release", "object": "hud", "site": "Game.swift:90" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "downloader" },
                  { "op": "create", "object": "screen" },
                  ↓{ "op": "set-delegate", "registry": "slot", "owner": "downloader", "delegate": "screen",
                    "hold": "strong" },
                  { "op": "release", "object": "screen" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  ↓{ "op": "observe", "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                    "handler": [ { "increment": "badge.refreshes" } ] },
                  { "op": "release", "object": "badge" }
                ]
                """, registries: #"{ "model": { "kind": "observable" } }"#),
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "hud" },
                  { "op": "observe", "registry": "subject", "observer": "hud", "handler": [] },
                  { "op": "remove", "registry": "subject", "observer": "hud" },
                  { "op": "release", "object": "hud" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "game" },
                  { "op": "create", "object": "hud" },
                  { "op": "retain", "holder": "game", "target": "hud" },
                  { "op": "observe", "registry": "subject", "observer": "hud", "handler": [] },
                  { "op": "release", "object": "hud" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                    "hold": "weak", "handler": [ { "increment": "badge.refreshes" } ] },
                  { "op": "release", "object": "badge" }
                ]
                """, registries: #"{ "model": { "kind": "observable" } }"#),
        ])

    // Every finding names an object the app released (`appRelease`) that is still alive.
    let firesOnlyWith = EventKinds(.appRelease)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        checkPinnedLeaks(trace, into: &findings)
        let end = trace.events.count
        let reachable = objectsHeldByTheApp(trace)
        var holdersByObserver = [UInt32: [TraceIndex.RegistrationRecord]]()
        for registration in trace.registrationsInOrder {
            guard registration.hold == .strong,
                registration.removeSequence == nil
            else { continue }
            // Only an observer released and still alive is reported: the others'
            // registrations are not kept (two million adds of a live observer
            // would be two million records).
            let lifetime = trace.lifetimes[Int(registration.observer)]
            guard let released = lifetime.releaseSequence, lifetime.deallocSequence == nil else { continue }
            // A strong delegate slot holds only while its owner is alive: an
            // owner gone before the release held nothing past it.
            if registration.isDelegate, let ownerGone = trace.lifetimes[Int(registration.sender)].deallocSequence,
                ownerGone < released
            {
                continue
            }
            holdersByObserver[registration.observer, default: []].append(registration)
        }
        let trackings = unfiredStrongTrackings(trace)
        var reported = Set<UInt32>()
        for observer in holdersByObserver.keys.sorted() {
            let lifetime = trace.lifetimes[Int(observer)]
            guard let released = lifetime.releaseSequence, lifetime.deallocSequence == nil,
                !reachable.contains(observer),
                let holders = holdersByObserver[observer]?.filter({ $0.addSequence < end }), let first = holders.first
            else { continue }
            let what =
                first.isDelegate
                ? "the \(trace.registryName(first.registry)) slot of \(trace.describe(first.sender)) "
                    + "(set at \(siteText(trace, first.site))) holds it strongly"
                : "its registration\(trace.forChannel(first)) in "
                    + "\(trace.registryName(first.registry)) (added at \(siteText(trace, first.site))) holds it "
                    + "strongly and was never removed"
            let more =
                holders.count > 1 ? " (and \(holders.count - 1) more registration\(holders.count > 2 ? "s" : ""))" : ""
            findings.append(
                withChain(
                    finding(
                        "\(trace.describe(observer)) was released but is still alive: \(what)\(more)."
                            + Self.chainSentence(trace, observer),
                        registry: trace.registryName(first.registry),
                        channel: first.isDelegate || first.anyChannel ? nil : trace.string(first.channel),
                        objects: [trace.name(observer)], step: trace.step(of: released),
                        site: trace.site(first.site), location: trace.location(first.site),
                        events: holders.map(\.addSequence) + [released]), trace, observer))
            reported.insert(observer)
        }
        checkTrackings(trackings, skipping: reported, reachable: reachable, trace, into: &findings)
        checkChains(skipping: reported.union(trackings.keys), reachable: reachable, trace, into: &findings)
    }

    /// Released objects no registration holds directly, but which a chain
    /// of strong references from a registration reaches (a subscription
    /// object registered strongly whose closure captures the screen).
    private func checkChains(
        skipping reported: Set<UInt32>, reachable: Set<UInt32>, _ trace: TraceIndex, into findings: inout RuleFindings
    ) {
        let pinned = Set(trace.pinnedLeaks.map(\.object))
        for object in trace.referenceChainEvents.keys.sorted()
        where !reported.contains(object) && !pinned.contains(object) && !reachable.contains(object) {
            let lifetime = trace.lifetimes[Int(object)]
            guard let released = lifetime.releaseSequence, lifetime.deallocSequence == nil,
                let chain = trace.referenceChain(of: object), let registration = chain.rootRegistration
            else { continue }
            findings.append(
                withChain(
                    finding(
                        "\(trace.describe(object)) was released but is still alive: a chain of strong references "
                            + "from a registration in \(trace.registryName(registration.registry)) reaches it."
                            + Self.chainSentence(trace, object),
                        registry: trace.registryName(registration.registry),
                        channel: registration.anyChannel ? nil : trace.string(registration.channel),
                        objects: [trace.name(object)], step: trace.step(of: released),
                        site: trace.site(registration.site), location: trace.location(registration.site),
                        events: [registration.addSequence, released],
                        fix: "Break a link of the chain: capture the object weakly (`[weak self]`), hold it weakly, or "
                            + "remove the registration when the object is done."), trace, object))
        }
    }

    /// `finding` with the chain of strong references to `object`, when the harness found one.
    private func withChain(_ finding: Finding, _ trace: TraceIndex, _ object: UInt32) -> Finding {
        var finding = finding
        finding.referenceChain = trace.referenceChain(of: object)?.links ?? []
        return finding
    }

    /// ` Reference chain: A → B → C.` when the harness found one for `object`.
    static func chainSentence(_ trace: TraceIndex, _ object: UInt32) -> String {
        trace.referenceChain(of: object).map { " Reference chain: \($0.text)." } ?? ""
    }

    /// Released objects kept by a block that captured them, found by
    /// detaching the object's own block registrations (`LeakPinning`).
    /// `withObservationTracking` keeps an onChange that has not fired (in the
    /// model's registrar), and what it captures: an observer whose onChange
    /// captures it strongly lives until the value changes.
    private func checkTrackings(
        _ trackings: [UInt32: [Int]], skipping reported: Set<UInt32>, reachable: Set<UInt32>,
        _ trace: TraceIndex, into findings: inout RuleFindings
    ) {
        for observer in trackings.keys.sorted() where !reported.contains(observer) {
            let lifetime = trace.lifetimes[Int(observer)]
            guard let released = lifetime.releaseSequence, lifetime.deallocSequence == nil,
                !reachable.contains(observer), let arms = trackings[observer], let first = arms.first
            else { continue }
            let arm = trace.events[first]
            let more = arms.count > 1 ? " (and \(arms.count - 1) more)" : ""
            findings.append(
                finding(
                    "\(trace.describe(observer)) was released but is still alive: the onChange of its tracking of "
                        + "\(trace.quoted(arm.channel)) in \(trace.registryName(arm.registry)) (armed at "
                        + "\(siteText(trace, arm.site))) captures it strongly and has not fired\(more); the registrar "
                        + "keeps it until the value changes.",
                    registry: trace.registryName(arm.registry), channel: trace.string(arm.channel),
                    objects: [trace.name(observer)], step: trace.step(of: released),
                    site: trace.site(arm.site), location: trace.location(arm.site),
                    events: arms + [released],
                    fix: "Capture the observer weakly in onChange (`[weak self]`), or let the observation fire "
                        + "before releasing the observer."))
        }
    }

    /// Per observer, its strong trackings no change has taken yet, in arming order.
    private func unfiredStrongTrackings(_ trace: TraceIndex) -> [UInt32: [Int]] {
        var armed = [UInt32: Int]()
        for sequence in trace.observationEvents {
            let event = trace.events[sequence]
            switch event.kind {
            case .observationArm where event.object != 0 && event.flags.hold == .strong:
                armed[event.registration] = sequence
            case .observationChange, .observationFire:
                armed[event.registration] = nil
            default:
                break
            }
        }
        var byObserver = [UInt32: [Int]]()
        for sequence in armed.values.sorted() {
            byObserver[trace.events[sequence].object, default: []].append(sequence)
        }
        return byObserver
    }

    private func checkPinnedLeaks(_ trace: TraceIndex, into findings: inout RuleFindings) {
        for pinned in trace.pinnedLeaks {
            guard let released = trace.lifetimes[Int(pinned.object)].releaseSequence,
                let registration = trace.registrationsInOrder.first(where: {
                    $0.observer == pinned.token && $0.tokenForm
                })
            else { continue }
            findings.append(
                withChain(
                    finding(
                        "\(trace.describe(pinned.object)) was released but is still alive: "
                            + Self.pinnedLeakText(trace, registration) + "." + Self.chainSentence(trace, pinned.object),
                        registry: trace.registryName(registration.registry),
                        channel: registration.anyChannel ? nil : trace.string(registration.channel),
                        objects: [trace.name(pinned.object)], step: trace.step(of: released),
                        site: trace.site(registration.site), location: trace.location(registration.site),
                        events: [registration.addSequence, released]), trace, pinned.object))
        }
    }

    /// What a pinned leak's message says kept the object.
    static func pinnedLeakText(_ trace: TraceIndex, _ registration: TraceIndex.RegistrationRecord) -> String {
        "the closure registered\(trace.forChannel(registration)) in \(trace.registryName(registration.registry)) at "
            + "\(siteText(trace, registration.site)) captures it strongly, and it holds that registration's token "
            + "(a retain cycle: detaching the registration freed it)"
    }

    /// Objects alive at the end that the app still reaches without going
    /// through a registry: never released, or retained by such an object.
    private func objectsHeldByTheApp(_ trace: TraceIndex) -> Set<UInt32> {
        var edges = [UInt32: [UInt32]]()
        for retain in trace.retains { edges[retain.holder, default: []].append(retain.target) }
        var reached = Set<UInt32>()
        var stack: [UInt32] = []
        for id in 1..<max(1, trace.lifetimes.count) {
            let lifetime = trace.lifetimes[id]
            if lifetime.releaseSequence == nil && lifetime.deallocSequence == nil && lifetime.trackSequence != nil {
                stack.append(UInt32(id))
            }
        }
        while let object = stack.popLast() {
            guard reached.insert(object).inserted else { continue }
            for target in edges[object] ?? [] where trace.lifetimes[Int(target)].deallocSequence == nil {
                stack.append(target)
            }
        }
        return reached
    }
}
