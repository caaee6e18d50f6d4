/// An async observation loop (`for await` over notifications, messages or `Observations`)
/// still running after the app released the object it works for: it either
/// keeps that owner alive, or runs on for nobody.
struct AsyncObserverOutlivesOwnerRule: Rule {
    let descriptor = RuleDescriptor(
        id: "async-observer-outlives-owner", severity: .error, category: .lifetime,
        summary: "An async observation loop keeps running, or keeps its owner alive, after the app released the owner.",
        explanation: """
            A `Task { for await … in center.postedNotifications(named:) }` (or over `messages(of:for:)`, or over \
            `Observations`, whose closure often captures self as well) ends only when \
            its task is cancelled or the loop breaks. Nothing ends it when the screen that started it closes: a \
            loop that captures self strongly keeps the screen alive until the next value arrives, or forever; \
            one that captures self weakly keeps its registration, its buffer and its task stack alive for the \
            rest of the process. One per screen adds up to thousands of live sequences.

            What is judged: a loop still running (neither ended nor cancelled) when the analysis runs, whose \
            owner the app released (`noteReleased`) or that deallocated. The owner is `owner:` when the app \
            gives it (`postedNotifications(named:object:owner:)`, `messages(of:for:bufferSize:owner:)`); \
            otherwise it is found from what the harness can see: the one object the test tracks or notes \
            released that keeps the loop's task in its stored properties (`task = Task { for await … }`), \
            found when the test tracks or releases it, when it settles, and when it analyses. Before judging, \
            `settle()` and the test-end check of the `.observerHarness` trait wait until every such task has \
            opened its loop, finished or been cancelled, so a loop whose task had not run yet when its owner \
            was released is not lost (an XCTest test, whose end cannot wait, calls `settle()` before it checks).

            What is not judged: a loop whose task no tracked object keeps (a task nobody stores, a loop in a \
            child task or a task group, a task kept in another class instance the object references) and \
            gives no `owner:`; a task two tracked objects keep; an owner the test neither released nor saw \
            deallocate (a long-lived service: its loop outlives no owner); a loop that ends when its next \
            value arrives (`[weak self]` with `guard let self else { break }`) once that value arrived.
            """,
        fix: "Keep the loop's Task in its owner and cancel it when the owner goes away (its deinit, with [weak "
            + "self] in the loop, or the screen's disappearance); or end the loop when self is gone.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen" },
                  ↓{ "op": "open-loop", "registry": "center", "loop": "themeLoop", "owner": "screen",
                    "channel": "ThemeChanged", "hold": "strong", "handler": [ { "increment": "screen.reloads" } ],
                    "site": "Screen.swift:14" },
                  { "op": "release", "object": "screen" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen" },
                  ↓{ "op": "open-loop", "registry": "center", "loop": "themeLoop", "owner": "screen",
                    "channel": "ThemeChanged", "handler": [ { "increment": "screen.reloads" } ] },
                  { "op": "release", "object": "screen" },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" },
                  { "op": "run-loop", "loop": "themeLoop" }
                ]
                """),
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen",
                    "methods": { "deinit": [ { "cancel-loop": "themeLoop" } ] } },
                  { "op": "open-loop", "registry": "center", "loop": "themeLoop", "owner": "screen",
                    "channel": "ThemeChanged", "handler": [ { "increment": "screen.reloads" } ] },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" },
                  { "op": "run-loop", "loop": "themeLoop" },
                  { "op": "release", "object": "screen" }
                ]
                """)
        ])

    // A loop is opened (`asyncOpen`) before it can outlive its owner.
    let firesOnlyWith = EventKinds(.asyncOpen)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        let loops = AsyncLoops(trace)
        for loop in loops.loops where loop.owner != 0 && loop.endSequence == nil {
            let lifetime = trace.lifetimes[Int(loop.owner)]
            guard let gone = [lifetime.releaseSequence, lifetime.deallocSequence].compactMap({ $0 }).min() else {
                continue
            }
            let owner = trace.describe(loop.owner)
            let keeper = loop.ownerFromTask ? ", which \(trace.name(loop.owner)) keeps in a stored property" : ""
            let what =
                lifetime.deallocSequence == nil
                ? "keeps its owner \(owner) alive after the app released it"
                : "is still running after its owner \(owner) deallocated"
            var waited = ""
            if let settle = loops.lastSettle, settle.hitLimit, settle.sequence > gone {
                waited = " (still running after \(settle.turns) scheduler turns)"
            }
            let source =
                loop.typedMessage
                ? "messages"
                : trace.registryInfo(loop.registry).kind == .observable ? "Observations" : "notifications"
            findings.append(
                finding(
                    "The async loop over \(source) of \(trace.quoted(loop.channel)) opened at \(siteText(trace, loop.site)) "
                        + "\(what)\(waited): nothing cancelled its task\(keeper).",
                    registry: trace.registryName(loop.registry), channel: trace.string(loop.channel),
                    objects: [trace.name(loop.owner), trace.name(loop.loop)], step: trace.step(of: gone),
                    site: trace.site(loop.site), location: trace.location(loop.site),
                    events: [loop.openSequence, gone]))
        }
    }
}
