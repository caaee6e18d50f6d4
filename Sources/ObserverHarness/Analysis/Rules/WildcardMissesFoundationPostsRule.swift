/// A registration for every name made through `Observers.center` in a test,
/// which hears less than it would on Foundation's default center: the harness
/// observes Foundation's center name by name, never every name, so a post
/// made straight on `NotificationCenter.default` under a name nothing
/// observes through `Observers.center` never reaches it. A note: the app
/// behaves differently under the harness here, and the report says so at the
/// app's line. Live only: scenarios have no `Observers.center`.
struct WildcardMissesFoundationPostsRule: Rule {
    let descriptor = RuleDescriptor(
        id: "wildcard-misses-foundation-posts", severity: .note, category: .design,
        summary: """
            A registration for every name, made through Observers.center in a test, does not hear every post \
            made straight on NotificationCenter.default.
            """,
        explanation: """
            On Foundation's default center a registration with no name (forName: nil) hears every post. Under \
            the harness, Observers.center gives it to the test's own center: it hears every post made through \
            Observers.center, and posts made straight on NotificationCenter.default (by the system, or by code \
            that does not use Observers.center) only under names some registration observes through \
            Observers.center. The harness never observes every name on Foundation's center: Foundation on Linux \
            aborts the process when a typed message (MainActorMessage, AsyncMessage) meets an observer of every \
            name, and on Darwin every system notification would pass through it. A test that expects such a \
            registration to hear a system notification, or a post from code that bypasses Observers.center, \
            sees it go unheard here and not in the app.
            """,
        fix: """
            Observe the names the code needs, one registration each (addObserver(forName: .someName, …)), or post \
            through Observers.center. A log of every notification belongs on NotificationCenter.default itself, \
            outside the code the test checks.
            """,
        triggering: [], clean: [], liveOnly: true)

    let firesOnlyWith = EventKinds(.unbridgedWildcard)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        for sequence in trace.unbridgedWildcards {
            let event = trace.events[sequence]
            findings.append(
                finding(
                    "The registration for every name at \(siteText(trace, event.site)) was made through "
                        + "Observers.center: under the harness it hears posts made through Observers.center, but "
                        + "a post made straight on NotificationCenter.default reaches it only under a name "
                        + "something observes through Observers.center, where on Foundation's center it would "
                        + "hear them all.",
                    registry: trace.registryName(event.registry), channel: nil, step: trace.step(of: sequence),
                    site: trace.site(event.site), location: trace.location(event.site), events: [sequence]))
        }
    }
}
