/// An async message sequence's buffer overflowed: Foundation drops the
/// oldest messages, with no signal, and the loop never sees them.
struct MessageDroppedRule: Rule {
    let descriptor = RuleDescriptor(
        id: "message-dropped", severity: .warning, category: .delivery,
        summary: "An async message sequence's buffer dropped messages its consumer never saw.",
        explanation: """
            `messages(of:for:bufferSize:)` keeps at most bufferSize messages (10 by default) for a loop that is \
            busy. When more arrive, Foundation drops the oldest, silently: the loop skips states it was written \
            to handle (a count that jumps, an item never shown), and only under load, so tests rarely see it. \
            Live, `await harness.settle()` before the burst, so that the loop listens, and before analysing.
            """,
        fix: "Keep the loop body short (hand slow work to another task), raise bufferSize to the largest burst "
            + "the poster makes, or use addObserver(of:for:using:) when every message matters.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  ↓{ "op": "open-loop", "registry": "center", "loop": "cartLoop", "owner": "badge", "typed": true,
                    "channel": "CartDidChange", "bufferSize": 2, "handler": [ { "increment": "badge.updates" } ],
                    "site": "Badge.swift:9" },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true },
                  { "op": "run-loop", "loop": "cartLoop" },
                  { "op": "cancel-loop", "loop": "cartLoop" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "open-loop", "registry": "center", "loop": "cartLoop", "owner": "badge", "typed": true,
                    "channel": "CartDidChange", "bufferSize": 2, "handler": [ { "increment": "badge.updates" } ] },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true },
                  { "op": "run-loop", "loop": "cartLoop" },
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "typed": true },
                  { "op": "run-loop", "loop": "cartLoop" },
                  { "op": "cancel-loop", "loop": "cartLoop" }
                ]
                """)
        ])

    let firesOnlyWith = EventKinds(.messageDropped)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        for loop in AsyncLoops(trace).loops {
            guard let first = loop.drops.first else { continue }
            // The post whose message was dropped (the drop's cause is its delivery).
            let delivery = trace.events[first].cause
            let post = delivery == Event.none ? nil : trace.post(ofDelivery: Int(delivery))
            let postText = post.map { " (the first posted at \(siteText(trace, $0.site)))" } ?? ""
            let count = loop.drops.count
            let drops = count == 1 ? "1 message" : "\(count) messages"
            // The step that overflowed the buffer is where the loop fell behind.
            let overflowStep = trace.step(of: first)
            findings.append(
                finding(
                    "The message sequence of \(trace.quoted(loop.channel)) opened at \(siteText(trace, loop.site)) dropped "
                        + "\(drops)\(postText): its buffer was full and its loop never saw them.",
                    registry: trace.registryName(loop.registry), channel: trace.string(loop.channel),
                    objects: loop.owner == 0
                        ? [trace.name(loop.loop)] : [trace.name(loop.owner), trace.name(loop.loop)],
                    step: overflowStep, site: trace.site(loop.site), location: trace.location(loop.site),
                    events: [loop.openSequence] + loop.drops.prefix(3)))
        }
    }
}
