/// Handlers re-post in a loop: the same channel and sender re-entered past the depth bound.
struct NotificationCycleRule: Rule {
    static let depthBound = 32

    let descriptor = RuleDescriptor(
        id: "notification-cycle", severity: .error, category: .delivery,
        summary: "Handlers re-post in a loop (the same channel and sender re-entered past a depth bound).",
        explanation: """
            A handler posts (or sets, or calls) something whose handlers post the original notification again. \
            Delivery is synchronous, so the loop recurses until the stack overflows. The harness cuts the loop \
            once a post is nested more than 32 levels deep inside posts of the same channel from the same sender \
            (calls of the same delegate slot): that post delivers nothing and is reported, where Foundation would \
            recurse on. A chain whose sender changes at each level, such as a change bubbling up a view \
            hierarchy, ends by itself and is never cut.
            """,
        fix: "Break the loop: don't re-post the notification you are handling, or only post when the value "
            + "actually changed.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "form" },
                  { "op": "create", "object": "preview" },
                  { "op": "observe", "registry": "center", "observer": "form", "channel": "TextChanged", "handler": [
                      { "post": { "registry": "center", "channel": "PreviewChanged" } } ] },
                  ↓{ "op": "observe", "registry": "center", "observer": "preview", "channel": "PreviewChanged",
                    "handler": [
                      { "post": { "registry": "center", "channel": "TextChanged", "site": "Preview.swift:31" } } ] },
                  { "op": "post", "registry": "center", "channel": "TextChanged" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "form" },
                  { "op": "create", "object": "preview" },
                  { "op": "observe", "registry": "center", "observer": "form", "channel": "TextChanged", "handler": [
                      { "post": { "registry": "center", "channel": "PreviewChanged" } } ] },
                  { "op": "observe", "registry": "center", "observer": "preview", "channel": "PreviewChanged",
                    "handler": [ { "increment": "renders" } ] },
                  { "op": "post", "registry": "center", "channel": "TextChanged" }
                ]
                """)
        ])

    let firesOnlyWith = EventKinds(.cycleCut)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        var reported = Set<UInt32>()
        for sequence in trace.cycleCuts {
            let event = trace.events[sequence]
            guard reported.insert(event.channel).inserted else { continue }
            var receivers: [UInt32] = []
            for (_, frame) in trace.events.causes(of: sequence)
            where frame.kind == .deliver && frame.object != 0 && !receivers.contains(frame.object) {
                receivers.append(frame.object)
            }
            receivers.reverse()
            let names = receivers.map { trace.name($0) }
            let loop = names.isEmpty ? "" : " through \(names.joined(separator: ", "))"
            findings.append(
                finding(
                    "Handlers re-posted \(trace.quoted(event.channel))\(loop) in a loop: deliveries nested more than "
                        + "\(Self.depthBound) levels deep (posted at \(siteText(trace, event.site))).",
                    registry: trace.registryName(event.registry), channel: trace.string(event.channel),
                    objects: names, step: trace.step(of: sequence), site: trace.site(event.site),
                    location: trace.location(event.site), events: [sequence]))
        }
    }
}
