/// A post that no registration ever received.
struct UnobservedPostRule: Rule {
    let descriptor = RuleDescriptor(
        id: "unobserved-post", severity: .note, category: .design,
        summary: "A post that no registration ever received.",
        explanation: """
            Nobody was registered for the notification when it was posted: the observer registers too late \
            (after the first post), listens for a different name or sender, or the post is dead code. When a \
            near-identical name is observed instead, channel-name-typo reports it and this rule stays quiet. \
            Only a notification center's posts are noted, a note per line that posted unheard: a subject's \
            notify or a property's set with no one registered is the normal case of an object nobody watches yet.
            """,
        fix: "Register observers before the first post, check the name and sender filter, or remove the post.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "uploader" },
                  ↓{ "op": "post", "registry": "center", "channel": "UploadFinished", "sender": "uploader",
                    "site": "Uploader.swift:88" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "uploader" },
                  { "op": "create", "object": "gallery" },
                  { "op": "observe", "registry": "center", "observer": "gallery", "channel": "UploadFinished",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "UploadFinished", "sender": "uploader" }
                ]
                """)
        ])

    private struct Channel: Hashable { let registry: UInt32, channel: UInt32 }
    /// A channel's unreceived posts from one line: a finding each.
    private struct Group: Hashable { let channelKey: Int, site: UInt32 }
    /// What a finding needs of a group: its first post, the first few
    /// sequences, and how many (not every post: a trace may be millions of them).
    private struct Unreceived {
        let first: TraceIndex.PostRecord
        var sequences: [Int]
        var count = 1

        init(_ post: TraceIndex.PostRecord) {
            first = post
            sequences = [post.sequence]
        }

        mutating func add(_ post: TraceIndex.PostRecord) {
            count += 1
            if sequences.count < FindingAggregator.eventLimit { sequences.append(post.sequence) }
        }
    }

    let firesOnlyWithFact: TraceFacts? = .unreceivedCenterPost

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        // Keyed by channel number: a hash per post was most of this rule's time.
        var unreceived = [Group: Unreceived]()
        var totals = [Int](repeating: 0, count: trace.channelCount)
        var order: [Group] = []
        let registries = trace.recording.registries  // read once (see `ChannelNameTypoRule`)
        for post in trace.posts where post.kind == .post && registries[Int(post.registry)].kind == .notificationCenter {
            totals[post.channelKey] += 1
            guard post.deliveries.isEmpty else { continue }
            let group = Group(channelKey: post.channelKey, site: post.site)
            if unreceived[group]?.add(post) == nil {
                order.append(group)
                unreceived[group] = Unreceived(post)
            }
        }
        // Typo pairs are worth computing only when some post reached nobody.
        guard !order.isEmpty else { return }
        let typos = Set(ChannelNameTypoRule.typoPairs(trace).map { Channel(registry: $0.registry, channel: $0.posted) })
        for group in order {
            guard let posts = unreceived[group], case let first = posts.first,
                case let key = Channel(registry: first.registry, channel: first.channel), !typos.contains(key)
            else { continue }
            let total = totals[group.channelKey]
            let count = total == 1 ? "was posted" : "was posted \(total) times and \(posts.count) of those posts"
            let registry = trace.registryName(key.registry)
            // `Observers.center` also hands the post to registrations the test cannot see.
            let unseen =
                registry == HarnessRegistries.routedCenterName
                ? " of this test (one made straight on NotificationCenter.default, or left by a finished "
                    + "test, may have heard it: the harness does not see those)"
                : ""
            findings.append(
                finding(
                    "\(trace.quoted(key.channel)) \(count) at \(siteText(trace, first.site)) "
                        + "\(total == 1 ? "but no registration\(unseen) received it" : "reached no registration\(unseen)").",
                    registry: trace.registryName(key.registry), channel: trace.string(key.channel),
                    step: trace.step(of: first.sequence), site: trace.site(first.site),
                    location: trace.location(first.site), events: posts.sequences))
        }
    }
}
