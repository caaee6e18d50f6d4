/// Every post on a channel reached exactly one, always the same, receiver:
/// a notification standing in for a direct call.
struct SingleReceiverBroadcastRule: Rule {
    let descriptor = RuleDescriptor(
        id: "single-receiver-broadcast", severity: .note,
        summary: "Every post on a channel reached exactly one, always the same, receiver.",
        explanation: """
            A notification that always has exactly one receiver is a method call with the types and the call \
            site taken away: the compiler cannot check it, the reader cannot follow it, and a second observer \
            added later turns it into a command executed twice. It takes at least two posts to say "always".
            """,
        fix: "Call the receiver directly, or through a delegate or closure its owner sets; keep notifications for "
            + "events any number of observers may care about.")

    private struct Channel: Hashable { let registry: UInt32, channel: UInt32 }

    func check(_ trace: TraceIndex, into findings: inout [Finding]) {
        let looping = postsInCutLoops(trace)
        var postsByChannel: [Channel: [TraceIndex.PostRecord]] = [:]
        var order: [Channel] = []
        for post in trace.posts where post.kind == .post
            && trace.registryInfo(post.registry).kind == .notificationCenter && !looping.contains(post.sequence) {
            let key = Channel(registry: post.registry, channel: post.channel)
            if postsByChannel[key] == nil { order.append(key) }
            postsByChannel[key, default: []].append(post)
        }
        for key in order {
            guard let posts = postsByChannel[key], posts.count >= 2 else { continue }
            var receiver: UInt32?
            let single = posts.allSatisfy { post in
                guard post.deliveries.count == 1 else { return false }
                let delivery = trace.events[post.deliveries[0]]
                guard delivery.kind == .deliver, let registration = trace.registration(delivery.registration),
                      !registration.anyChannel else { return false }
                if receiver == nil { receiver = delivery.object }
                return receiver == delivery.object
            }
            guard single, let receiver else { continue }
            let first = posts[0]
            findings.append(finding(
                "Every post of \(trace.quoted(key.channel)) (\(posts.count) posts, the first at "
                    + "\(siteText(trace, first.site))) reached exactly one receiver, \(trace.describe(receiver)): "
                    + "a notification used as a one-to-one call.",
                registry: trace.registryName(key.registry), channel: trace.string(key.channel),
                objects: [trace.name(receiver)], step: trace.step(of: first.sequence), site: trace.site(first.site),
                location: trace.location(first.site), events: posts.map(\.sequence)))
        }
    }

    /// The posts of a loop the harness cut (notification-cycle): one runaway
    /// chain of re-posts, not independent posts that each chose one receiver.
    private func postsInCutLoops(_ trace: TraceIndex) -> Set<Int> {
        var looping = Set<Int>()
        for cut in trace.cycleCuts {
            var cause = trace.events[cut].cause
            var hops = 0
            while cause != Event.none, hops < 100_000 {
                if trace.events[Int(cause)].kind == .post { looping.insert(Int(cause)) }
                cause = trace.events[Int(cause)].cause
                hops += 1
            }
        }
        return looping
    }
}
