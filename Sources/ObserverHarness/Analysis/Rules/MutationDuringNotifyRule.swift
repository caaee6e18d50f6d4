/// A handler added or removed registrations of the registry that was
/// delivering to it, or a `withObservationTracking` onChange wrote what it
/// tracks while its change was being delivered.
struct MutationDuringNotifyRule: Rule {
    let descriptor = RuleDescriptor(
        id: "mutation-during-notify", severity: .warning, category: .delivery,
        summary: "A registry was changed by a handler while it was delivering.",
        explanation: """
            Changing an observer list while it is being enumerated is where hand-written registries break: \
            enumerating a mutable array raises, an index-based loop skips or repeats an observer, and whether a \
            newly added observer receives the post in flight differs between implementations. \
            NotificationCenter and `ObserverList` deliver from a copy of their receivers, so there only a change \
            that can alter who receives the post in flight fires this rule: adding a registration the post matches \
            (whether the post reaches it differs between implementations), or removing one it matches and has not \
            reached yet (which it still reaches on Linux and through `ObserverList`, but not on Darwin's center). A \
            handler removing its own registration (a one-shot observer, by its token, by observer, or in a "remove \
            all" that includes it), a registration for another channel or sender, or one the post already reached \
            does not fire it there. A scenario's `subject` models a hand-written list enumerated in place, where \
            every change is a mutation, even the handler's own removal. The Observation framework has its own form: `withObservationTracking` \
            calls `onChange` in willSet, before the new value is stored, so an `onChange` that writes what it \
            tracks (and does not observe again, which would be a `notification-cycle`) has its write overwritten \
            by the change being delivered (an onChange that runs after it, for the same change, reads the write \
            before it is lost). The framework also calls that same `onChange` again for the write, before the \
            first call returns: a recursion that ends only when the write stops. Under the harness the nested \
            call is recorded, not made, so `onChange` runs once and this finding says why. Such a finding's fix \
            says so: derive that value where it is read, or write it once the change is stored.
            """,
        fix: "Do not change the observer list from inside a notification: defer the change until delivery ends "
            + "(e.g. DispatchQueue.main.async), or enumerate a copy of the list.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  ↓{ "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [
                      { "remove": { "registry": "subject", "observer": "logger", "site": "Coordinator.swift:44" } } ] },
                  { "op": "observe", "registry": "subject", "observer": "logger", "handler": [] },
                  { "op": "post", "registry": "subject" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "search" },
                  { "op": "create", "object": "field" },
                  ↓{ "op": "observe", "registry": "model", "observer": "field", "object": "search",
                    "property": "query", "handler": [
                      { "set": { "registry": "model", "object": "search", "property": "query", "value": "swift",
                                 "site": "SearchField.swift:31" } } ] },
                  { "op": "set", "registry": "model", "object": "search", "property": "query", "value": " swift " }
                ]
                """, registries: #"{ "model": { "kind": "observable" } }"#),
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "onboarding" },
                  { "op": "observe", "registry": "center", "observer": "onboarding", "channel": "FirstLaunch",
                    "token": "once",
                    "handler": [ { "remove": { "registry": "center", "token": "once" } } ] },
                  { "op": "post", "registry": "center", "channel": "FirstLaunch" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [] },
                  { "op": "observe", "registry": "subject", "observer": "logger", "handler": [] },
                  { "op": "post", "registry": "subject" },
                  { "op": "remove", "registry": "subject", "observer": "logger" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "search" },
                  { "op": "create", "object": "field" },
                  { "op": "observe", "registry": "model", "observer": "field", "object": "search",
                    "property": "query", "handler": [
                      { "set": { "registry": "model", "object": "search", "property": "suggestions", "value": [] } },
                      { "observe": { "registry": "model", "observer": "field", "object": "search",
                                     "property": "query", "handler": [] } } ] },
                  { "op": "set", "registry": "model", "object": "search", "property": "query", "value": " swift " }
                ]
                """, registries: #"{ "model": { "kind": "observable" } }"#),
        ])

    /// False: walk every add and remove even when none ran inside a
    /// delivery or its loop (the tests check that the shortcut changes nothing).
    var skipsWhenNothingNested = true

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        if skipsWhenNothingNested, !Self.someMutationRanInADelivery(trace) {
            checkObservationSelfWrites(trace, into: &findings)
            return
        }
        var loops = RunningDeliveryLoops(trace)
        var enclosing = [UInt64: Int]()
        for sequence in trace.mutations {
            let event = trace.events[sequence]
            let runningLoop = loops.innermost(of: event.registry, runningAt: sequence, thread: event.thread)
            // A removal that matched nothing, or an add a de-duplicating registry ignored, changed nothing.
            if event.kind == .remove && event.registration == 0 { continue }
            if event.kind == .add && event.flags.contains(.ignoredDuplicate) { continue }
            guard let delivery = enclosingDelivery(in: event.registry, of: sequence, trace, memo: &enclosing),
                let post = trace.post(ofDelivery: delivery)
            else {
                if let runningLoop { checkBetweenDeliveries(sequence, of: runningLoop, trace, into: &findings) }
                continue
            }
            let deliveryEvent = trace.events[delivery]
            let info = trace.registryInfo(event.registry)
            // The handler's own removal, by whatever call: one removal event
            // per registration ended, so a bulk removal reports only the others.
            if Self.toleratesOwnRemoval(info), event.kind == .remove,
                event.registration == deliveryEvent.registration
                    || (event.object != 0 && event.object == deliveryEvent.object)
            {
                continue
            }
            // From a copy, only a change the post in flight may still meet matters.
            if Self.toleratesOwnRemoval(info), !Self.canChangeReceivers(sequence, of: post, trace) { continue }
            let verb = event.kind == .add ? "registered" : "removed"
            let target = event.object == 0 ? "an observer" : trace.describe(event.object)
            // A removal by token names no channel: its registration's is the one.
            let channel =
                event.channel == 0 && event.registration != 0
                ? trace.registration(event.registration)?.channel ?? 0 : event.channel
            let channelText = channel == 0 || trace.string(channel).isEmpty ? "" : " for \(trace.quoted(channel))"
            findings.append(
                finding(
                    "While \(info.name) was delivering \(notification(post.channel, trace)) (posted at \(siteText(trace, post.site))), "
                        + "the handler of \(trace.describe(deliveryEvent.object)) \(verb) \(target)\(channelText) at "
                        + "\(siteText(trace, event.site)).",
                    registry: info.name, channel: trace.string(post.channel),
                    objects: [trace.name(deliveryEvent.object)]
                        + (event.object == 0 || event.object == deliveryEvent.object ? [] : [trace.name(event.object)]),
                    step: trace.step(of: sequence), site: trace.site(event.site), location: trace.location(event.site),
                    events: [post.sequence, delivery, sequence],
                    fix: Self.toleratesOwnRemoval(info)
                        ? Self.fromACopyFix(removal: event.kind == .remove, center: info.kind == .notificationCenter)
                        : nil))
        }
        checkObservationSelfWrites(trace, into: &findings)
    }

    /// Whether some add or remove has a cause (it ran inside a delivery, as
    /// every change this rule reports does) or came between a post and its
    /// last delivery (a delivery loop may have been running): in most tests
    /// none did, and the walk with its tables is skipped. One pass over the
    /// changes and the posts, both in sequence order.
    static func someMutationRanInADelivery(_ trace: TraceIndex) -> Bool {
        // Read once: in a debug build each read of the index's field copies the whole index.
        let posts = trace.posts
        let events = trace.events
        var loopsEnd = -1  // the last delivery of the posts made so far
        var post = 0
        for sequence in trace.mutations {
            if events[sequence].cause != Event.none { return true }
            // By position, not by record: a record reads the post's event.
            while post < posts.endIndex, posts.sequence(at: post) < sequence {
                if let last = posts.lastDelivery(at: post), last > loopsEnd { loopsEnd = last }
                post += 1
            }
            if sequence < loopsEnd { return true }
        }
        return false
    }

    /// Whether the change at `sequence` can alter who receives `post`, for a
    /// registry that delivers from a copy of its receivers: an add the post
    /// matches (whether it reaches it differs between implementations), or
    /// the removal of a registration it matches and has not reached yet
    /// (Darwin's center skips it, Linux's and `ObserverList` deliver it).
    /// Removing another channel's registration, or one already reached,
    /// changes nothing for this post.
    static func canChangeReceivers(_ sequence: Int, of post: TraceIndex.PostRecord, _ trace: TraceIndex) -> Bool {
        let event = trace.events[sequence]
        guard let registration = trace.registration(event.registration) else { return true }
        guard registration.anyChannel || registration.channel == post.channel,
            registration.sender == 0 || registration.sender == post.sender
        else { return false }
        guard event.kind == .remove else { return true }
        return !post.deliveries.contains { $0 < sequence && trace.events[$0].registration == event.registration }
    }

    /// Registries that deliver from a copy of their receivers: NotificationCenter,
    /// and a live `ObserverList`. A scenario `subject` models a list iterated
    /// in place, where even a handler's own removal is a mutation.
    static func toleratesOwnRemoval(_ info: RegistryInfo) -> Bool {
        info.kind == .notificationCenter || info.snapshotDelivery
    }

    /// The fix for a registry that already delivers from a copy, where
    /// "enumerate a copy" is no fix: what the post in flight does with the
    /// change, and what to do about it.
    static func fromACopyFix(removal: Bool, center: Bool) -> String {
        switch (removal, center) {
        case (true, true):
            "The post in flight still reaches the observer removed here on Linux and under the harness, but not on "
                + "Darwin's NotificationCenter: if it must not receive it, have it ignore posts once removed (a flag it "
                + "checks) or defer the removal until delivery ends (e.g. DispatchQueue.main.async); if receiving it "
                + "is fine, allow this finding at this line."
        case (true, false):
            "The list calls the observers it had when the notify began, so the observer removed here still receives "
                + "this notification: if it must not, have it ignore calls once removed (a flag it checks); if it may, "
                + "allow this finding at this line."
        case (false, true):
            "Whether the post in flight reaches the observer added here differs between implementations: register "
                + "before posting, or defer the registration until delivery ends (e.g. DispatchQueue.main.async)."
        case (false, false):
            "The list calls the observers it had when the notify began, so the observer added here does not receive "
                + "this notification: if it should, call it once after adding it; if not, allow this finding at this line."
        }
    }

    private static let observationFix =
        "An onChange must not write what its apply read: derive that value "
        + "where it is read, or write it once the change is stored."

    /// An onChange that wrote what it tracks without observing again (one
    /// that observes again loops, and is `notification-cycle`).
    private func checkObservationSelfWrites(_ trace: TraceIndex, into findings: inout RuleFindings) {
        var arms = [UInt32: Int]()
        for sequence in trace.observationEvents {
            let event = trace.events[sequence]
            if event.kind == .observationArm { arms[event.registration] = sequence }
            guard event.kind == .observationChange, event.registration == 0,
                let firing = trace.selfWriteFiring(of: sequence),
                let arm = arms[trace.events[firing].registration]
            else { continue }
            let armEvent = trace.events[arm]
            let owner = armEvent.object == 0 ? "" : " of \(trace.describe(armEvent.object))"
            let writeSite = event.site == 0 || event.site == armEvent.site ? "" : " at \(siteText(trace, event.site))"
            let site = event.site == 0 ? armEvent.site : event.site
            findings.append(
                finding(
                    "The onChange\(owner) armed at \(siteText(trace, armEvent.site)) changed \(trace.quoted(event.channel)), "
                        + "which it tracks,\(writeSite) while that change was being delivered: onChange runs before the "
                        + "new value is stored, so the change in progress overwrites the write.",
                    registry: trace.registryName(event.registry), channel: trace.string(event.channel),
                    objects: armEvent.object == 0 ? [] : [trace.name(armEvent.object)],
                    step: trace.step(of: sequence), site: trace.site(site), location: trace.location(site),
                    events: [firing, sequence], fix: Self.observationFix))
        }
    }

    /// A change made while the registry's delivery loop was running but outside
    /// every handler: a `deinit` that ran when a handler dropped the last
    /// reference to an observer. A hand-written list enumerated in place
    /// breaks on it ("was mutated while being enumerated"). NotificationCenter
    /// is built for an observer removing itself as it deallocates.
    private func checkBetweenDeliveries(
        _ sequence: Int, of post: TraceIndex.PostRecord, _ trace: TraceIndex,
        into findings: inout RuleFindings
    ) {
        let event = trace.events[sequence]
        let info = trace.registryInfo(event.registry)
        if Self.toleratesOwnRemoval(info), event.kind == .remove || !Self.canChangeReceivers(sequence, of: post, trace)
        {
            return
        }
        let verb = event.kind == .add ? "registered" : "removed"
        let target = event.object == 0 ? "an observer" : trace.describe(event.object)
        findings.append(
            finding(
                "While \(info.name) was delivering \(notification(post.channel, trace)) (posted at \(siteText(trace, post.site))), "
                    + "\(target) was \(verb) at \(siteText(trace, event.site)) between two of its deliveries, "
                    + "typically by a deinit that ran when a handler dropped the last reference to an observer.",
                registry: info.name, channel: trace.string(post.channel),
                objects: event.object == 0 ? [] : [trace.name(event.object)],
                step: trace.step(of: sequence), site: trace.site(event.site), location: trace.location(event.site),
                events: [post.sequence, sequence]))
    }

    private func notification(_ channel: UInt32, _ trace: TraceIndex) -> String { trace.notificationText(channel) }

    /// The innermost delivery of `registry` that `sequence` ran inside.
    ///
    /// Every cause on the way up has the same answer, which `memo` keeps (by
    /// cause and registry; -1 for none): thousands of changes made deep in one
    /// chain of causes walk it once, not once each.
    private func enclosingDelivery(
        in registry: UInt32, of sequence: Int, _ trace: TraceIndex,
        memo: inout [UInt64: Int]
    ) -> Int? {
        var cause = trace.events[sequence].cause
        var visited: [UInt64] = []
        var result: Int?
        while cause != Event.none, visited.count < 100_000 {
            let key = UInt64(cause) << 32 | UInt64(registry)
            if let known = memo[key] {
                result = known < 0 ? nil : known
                break
            }
            visited.append(key)
            let frame = trace.events[Int(cause)]
            if frame.kind == .deliver, frame.registry == registry {
                result = Int(cause)
                break
            }
            cause = frame.cause
        }
        for key in visited { memo[key] = result ?? -1 }
        return result
    }
}

/// Which posts' delivery loops were still running at a given event: a post's
/// loop spans from the post to its last delivery, and loops on one thread
/// nest, so one stack per registry and thread answers in a single sweep.
private struct RunningDeliveryLoops {
    /// The posts alone, not the whole index: copying the index retains every one of its tables.
    private let posts: TraceIndex.Posts
    private var next = 0
    /// Stacks by the number of their (registry, thread) pair: no hashing on
    /// this path, which runs for every post and every add and remove.
    private var pairs: PairNumbering
    private var stacks: [[(post: Int, end: Int)]] = []

    init(_ trace: TraceIndex) {
        posts = trace.posts
        pairs = PairNumbering(firstCount: trace.recording.registries.count, secondCount: 64)
    }

    /// Queries must come in increasing `sequence`.
    mutating func innermost(of registry: UInt32, runningAt sequence: Int, thread: UInt16) -> TraceIndex.PostRecord? {
        // Counts and last elements by index: `count` and `last` of a collection
        // are generic code a debug build runs unspecialised, for every mutation.
        // Posts by their sequence and last delivery alone: a record (its
        // event and deliveries copied) for every post was most of this rule's time.
        while next < posts.endIndex, posts.sequence(at: next) < sequence {
            if let end = posts.lastDelivery(at: next) {
                let post = posts.events[posts.sequence(at: next)]
                let index = stackIndex(post.registry, post.thread)
                stacks[index].append((next, end))
            }
            next += 1
        }
        let index = stackIndex(registry, thread)
        var depth = stacks[index].count
        while depth > 0, stacks[index][depth - 1].end < sequence {
            stacks[index].removeLast()
            depth -= 1
        }
        return depth > 0 ? posts[stacks[index][depth - 1].post] : nil
    }

    private mutating func stackIndex(_ registry: UInt32, _ thread: UInt16) -> Int {
        let index = pairs.number(registry, UInt32(thread))
        if index == stacks.count { stacks.append([]) }
        return index
    }
}
