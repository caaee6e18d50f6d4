/// A handler added or removed registrations of the registry that was
/// delivering to it.
struct MutationDuringNotifyRule: Rule {
    let descriptor = RuleDescriptor(
        id: "mutation-during-notify", severity: .warning,
        summary: "A registry was changed by a handler while it was delivering.",
        explanation: """
            Changing an observer list while it is being enumerated is where hand-written registries break: \
            enumerating a mutable array raises, an index-based loop skips or repeats an observer, and whether a \
            newly added observer receives the post in flight differs between implementations. \
            NotificationCenter tolerates a handler removing its own registration (a one-shot observer), so that \
            alone does not fire this rule.
            """,
        fix: "Do not change the observer list from inside a notification: defer the change until delivery ends "
            + "(e.g. DispatchQueue.main.async), or enumerate a copy of the list.")

    func check(_ trace: TraceIndex, into findings: inout [Finding]) {
        for sequence in trace.mutations {
            let event = trace.events[sequence]
            // A removal that matched nothing changed nothing.
            if event.kind == .remove && event.registration == 0 { continue }
            guard let delivery = enclosingDelivery(in: event.registry, of: sequence, trace),
                  let post = trace.post(ofDelivery: delivery) else { continue }
            let deliveryEvent = trace.events[delivery]
            let info = trace.registryInfo(event.registry)
            if info.kind == .notificationCenter, event.kind == .remove,
               event.registration == deliveryEvent.registration { continue }
            let verb = event.kind == .add ? "registered" : "removed"
            let target = event.object == 0 ? "an observer" : trace.describe(event.object)
            let channelText = event.channel == 0 && event.flags.contains(.allChannels) ? "" : " for \(trace.quoted(event.channel))"
            findings.append(finding(
                "While \(info.name) was delivering \(trace.quoted(post.channel)) (posted at \(siteText(trace, post.site))), "
                    + "the handler of \(trace.describe(deliveryEvent.object)) \(verb) \(target)\(channelText) at "
                    + "\(siteText(trace, event.site)).",
                registry: info.name, channel: trace.string(post.channel),
                objects: [trace.name(deliveryEvent.object)] + (event.object == 0 || event.object == deliveryEvent.object ? [] : [trace.name(event.object)]),
                step: trace.step(of: sequence), site: trace.site(event.site), location: trace.location(event.site),
                events: [post.sequence, delivery, sequence]))
        }
    }

    /// The innermost delivery of `registry` that `sequence` ran inside.
    private func enclosingDelivery(in registry: UInt32, of sequence: Int, _ trace: TraceIndex) -> Int? {
        var cause = trace.events[sequence].cause
        var hops = 0
        while cause != Event.none, hops < 100_000 {
            let frame = trace.events[Int(cause)]
            if frame.kind == .deliver, frame.registry == registry { return Int(cause) }
            cause = frame.cause
            hops += 1
        }
        return nil
    }
}
