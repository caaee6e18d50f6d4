/// A value (a string, a number, a struct, an enum) given as a notification's
/// `object:`. Foundation boxes it and compares the box's identity, so the
/// filter matches only when two boxes happen to be one object, which differs
/// between Linux and Darwin.
struct ValueObjectFilterRule: Rule {
    let descriptor = RuleDescriptor(
        id: "value-object-filter", severity: .warning, category: .registration,
        summary: "A value (struct, enum, string, number) was given as a notification's object:.",
        explanation: """
            NotificationCenter filters by the sender's identity. A value has none, so Foundation boxes it and \
            compares the box, and which equal values share a box is the platform's accident. On Linux a \
            registration filtered on "cart-1" never receives a post of "cart-1" and a removal naming it removes \
            nothing; the integers -1 through 12 and booleans share cached boxes and do match (42 does not). On Darwin a short ASCII string \
            bridges to a shared tagged-pointer NSString and matches too, while a longer string or a struct never \
            does. Anywhere, a new box can reuse a freed box's address. The code reads as a filter but behaves as \
            one on some values and platforms, and as none on others.
            """,
        fix: "Filter on an object (the sender instance itself), or post the value in userInfo and check it "
            + "inside the handler.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  ↓{ "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "senderValue": "cart-1", "token": "badgeToken", "handler": [ { "increment": "badge.count" } ] },
                  { "op": "remove", "registry": "center", "token": "badgeToken" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "token": "badgeToken", "handler": [ { "increment": "badge.count" } ] },
                  ↓{ "op": "post", "registry": "center", "channel": "CartChanged", "senderValue": 42 },
                  { "op": "remove", "registry": "center", "token": "badgeToken" }
                ]
                """),
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "sender": "cart", "token": "badgeToken", "handler": [ { "increment": "badge.count" } ] },
                  { "op": "post", "registry": "center", "channel": "CartChanged", "sender": "cart",
                    "payload": { "id": "cart-1" } },
                  { "op": "remove", "registry": "center", "token": "badgeToken" }
                ]
                """)
        ])

    /// A value's box given as `object:`.
    let firesOnlyWithFlagged: FlaggedKinds? = FlaggedKinds(kinds: EventKinds(.track), flags: .boxedValue)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        // Only a boxed value's registration, post or removal is reported.
        guard trace.tracksBoxedValues else { return }
        var reported = Set<Key>()
        for registration in trace.registrationsInOrder where !registration.isDelegate {
            report(
                .registration, sequence: registration.addSequence, registry: registration.registry,
                sender: registration.sender, site: registration.site, trace, &reported, &findings)
        }
        for post in trace.posts where post.kind == .post {
            report(
                .post, sequence: post.sequence, registry: post.registry, sender: post.sender, site: post.site,
                trace, &reported, &findings)
        }
        for sequence in trace.removals {
            let event = trace.events[sequence]
            report(
                .removal, sequence: sequence, registry: event.registry, sender: event.subject, site: event.site,
                trace, &reported, &findings)
        }
    }

    private enum Use: String { case registration, post, removal }
    private struct Key: Hashable { let use: Use, site: UInt32 }

    private func report(
        _ use: Use, sequence: Int, registry: UInt32, sender: UInt32, site: UInt32,
        _ trace: TraceIndex, _ reported: inout Set<Key>, _ findings: inout RuleFindings
    ) {
        guard sender != 0, trace.registryKind(registry) == .notificationCenter,
            isBoxedValue(sender, trace),
            reported.insert(Key(use: use, site: site)).inserted
        else { return }
        let consequence =
            switch use {
            case .registration: "the registration receives only posts that box to the very same object"
            case .post: "only a registration whose filter boxed to the very same object receives it"
            case .removal: "it removes only a registration whose filter boxed to the very same object"
            }
        let registryName = trace.registryName(registry)
        findings.append(
            finding(
                "The \(use.rawValue) at \(siteText(trace, site)) in \(registryName) gives the value "
                    + "\(trace.describe(sender)) as object:. Foundation boxes a value and compares the box's identity, "
                    + "so \(consequence): whether equal values share a box depends on the platform (on Linux small "
                    + "integers and booleans do; on Darwin short strings too), so it matches only by accident.",
                registry: registryName, channel: channel(of: sequence, trace), objects: [trace.name(sender)],
                step: trace.step(of: sequence), site: trace.site(site), location: trace.location(site),
                events: [sequence]))
    }

    private func isBoxedValue(_ object: UInt32, _ trace: TraceIndex) -> Bool {
        guard Int(object) < trace.lifetimes.count, let track = trace.lifetimes[Int(object)].trackSequence else {
            return false
        }
        return trace.events[track].flags.contains(.boxedValue)
    }

    private func channel(of sequence: Int, _ trace: TraceIndex) -> String? {
        let event = trace.events[sequence]
        if event.kind == .add && event.flags.contains(.anyChannel) { return nil }
        return event.channel == 0 ? nil : trace.string(event.channel)
    }
}
