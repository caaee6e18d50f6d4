/// Every post on a channel reached exactly one, always the same, receiver:
/// a notification standing in for a direct call.
struct SingleReceiverBroadcastRule: Rule {
    let descriptor = RuleDescriptor(
        id: "single-receiver-broadcast", severity: .note, category: .design,
        summary: "Every post on a channel reached exactly one, always the same, receiver.",
        explanation: """
            A notification that always has exactly one receiver is a method call with the types and the call \
            site taken away: the compiler cannot check it, the reader cannot follow it, and a second observer \
            added later turns it into a command executed twice. It takes at least two posts to say "always".
            """,
        fix: "Call the receiver directly, or through a delegate or closure its owner sets; keep notifications for "
            + "events any number of observers may care about.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "settings" },
                  { "op": "observe", "registry": "center", "observer": "settings", "channel": "ThemeChanged",
                    "handler": [] },
                  ↓{ "op": "post", "registry": "center", "channel": "ThemeChanged", "site": "ThemePicker.swift:30" },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged", "site": "ThemePicker.swift:44" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "settings" },
                  { "op": "create", "object": "navigationBar" },
                  { "op": "observe", "registry": "center", "observer": "settings", "channel": "ThemeChanged",
                    "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "navigationBar", "channel": "ThemeChanged",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" },
                  { "op": "post", "registry": "center", "channel": "ThemeChanged" }
                ]
                """)
        ])

    let firesOnlyWithFact: TraceFacts? = .singleReceiverCenterPost

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        let looping = postsInCutLoops(trace)
        // Per channel, in one pass: whether every post so far reached exactly
        // one receiver, always the same. (Collecting every post per channel
        // first cost a hash and an array append per post.)
        var channels = [ChannelState](repeating: ChannelState(), count: trace.channelCount)
        var order: [Int] = []
        let registries = trace.recording.registries  // read once (see `ChannelNameTypoRule`)
        for post in trace.posts
        where post.kind == .post && registries[Int(post.registry)].kind == .notificationCenter
            && (looping.isEmpty || !looping.contains(post.sequence))
        {
            let key = post.channelKey
            if !channels[key].seen {
                channels[key].seen = true
                order.append(key)
            }
            guard channels[key].single else { continue }
            channels[key].posts.append(post.sequence)
            guard post.deliveries.count == 1, case let delivery = trace.events[post.deliveries[0]],
                delivery.kind == .deliver, let registration = trace.registration(delivery.registration),
                // A typed message is a declared message type, not a notification name to reuse.
                !registration.anyChannel, !registration.typedMessage,
                channels[key].receiver.map({ $0 == delivery.object }) ?? true
            else {
                channels[key].single = false
                channels[key].posts = []
                continue
            }
            channels[key].receiver = delivery.object
        }
        for key in order {
            let channel = channels[key]
            guard channel.posts.count >= 2, channel.single, let receiver = channel.receiver else { continue }
            let first = trace.events[channel.posts[0]]
            findings.append(
                finding(
                    "Every post of \(trace.notificationText(first.channel)) (\(channel.posts.count) posts, the first at "
                        + "\(siteText(trace, first.site))) reached exactly one receiver, \(trace.describe(receiver)): "
                        + "a notification used as a one-to-one call.",
                    registry: trace.registryName(first.registry), channel: trace.string(first.channel),
                    objects: [trace.name(receiver)], step: trace.step(of: channel.posts[0]),
                    site: trace.site(first.site),
                    location: trace.location(first.site), events: channel.posts))
        }
    }

    private struct ChannelState {
        /// Kept while every post reached one receiver: the finding lists them
        /// (and shares this array).
        var posts: [Int] = []
        var seen = false
        var single = true
        var receiver: UInt32?
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
