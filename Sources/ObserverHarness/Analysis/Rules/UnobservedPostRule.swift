/// A post that no registration ever received.
struct UnobservedPostRule: Rule {
    let descriptor = RuleDescriptor(
        id: "unobserved-post", severity: .note,
        summary: "A post that no registration ever received.",
        explanation: """
            Nobody was registered for the notification when it was posted: the observer registers too late \
            (after the first post), listens for a different name or sender, or the post is dead code. When a \
            near-identical name is observed instead, channel-name-typo reports it and this rule stays quiet.
            """,
        fix: "Register observers before the first post, check the name and sender filter, or remove the post.")

    private struct Channel: Hashable { let registry: UInt32, channel: UInt32 }

    func check(_ trace: TraceIndex, into findings: inout [Finding]) {
        let typos = Set(ChannelNameTypoRule.typoPairs(trace).map { Channel(registry: $0.registry, channel: $0.posted) })
        var unreceived: [Channel: [TraceIndex.PostRecord]] = [:]
        var totals: [Channel: Int] = [:]
        var order: [Channel] = []
        for post in trace.posts where post.kind == .post
            && trace.registryInfo(post.registry).kind == .notificationCenter {
            let key = Channel(registry: post.registry, channel: post.channel)
            totals[key, default: 0] += 1
            guard post.deliveries.isEmpty else { continue }
            if unreceived[key] == nil { order.append(key) }
            unreceived[key, default: []].append(post)
        }
        for key in order where !typos.contains(key) {
            guard let posts = unreceived[key], let first = posts.first else { continue }
            let total = totals[key] ?? posts.count
            let count = total == 1 ? "was posted" : "was posted \(total) times and \(posts.count) of those posts"
            findings.append(finding(
                "\(trace.quoted(key.channel)) \(count) at \(siteText(trace, first.site)) "
                    + "\(total == 1 ? "but no registration received it" : "reached no registration").",
                registry: trace.registryName(key.registry), channel: trace.string(key.channel),
                step: trace.step(of: first.sequence), site: trace.site(first.site),
                location: trace.location(first.site), events: posts.map(\.sequence)))
        }
    }
}
