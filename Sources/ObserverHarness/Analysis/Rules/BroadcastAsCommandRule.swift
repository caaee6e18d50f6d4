/// One post made two or more distinct receivers perform the same
/// non-idempotent action: a notification used as a targeted command.
struct BroadcastAsCommandRule: Rule {
    let descriptor = RuleDescriptor(
        id: "broadcast-as-command", severity: .error, category: .design,
        summary: "One post made two or more distinct receivers perform the same non-idempotent action.",
        explanation: """
            A notification says "this happened" to anyone listening. Used as a command ("add this product to the \
            cart") it is carried out once per listener: with two product lists on screen, one tap adds the \
            product twice. Only actions that are not idempotent count — two receivers incrementing one counter, \
            or appending one value to one list; two receivers setting the same value, or writing different keys, \
            are fine. A post is a notification, a subject's notify or a `property` registry's set; a set on an \
            `observable` registry is not: its onChanges are told only that the value is about to change, and \
            what they do with that is their own state. Live, a handler's action is seen when it is noted: \
            `harness.noteAction(.increment("cart.count"))`, which app code calls through a closure the test gives it.
            """,
        fix: "Deliver the command to one receiver: a delegate, a closure, or a direct call from the sender's owner; "
            + "keep notifications for facts any number of observers may react to.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "bestSellers", "type": "ProductListViewController" },
                  { "op": "create", "object": "recommended", "type": "ProductListViewController" },
                  { "op": "create", "object": "cell", "type": "ProductCell" },
                  { "op": "observe", "registry": "center", "observer": "bestSellers", "channel": "AddToCart",
                    "handler": [ { "increment": "cart.count" } ] },
                  { "op": "observe", "registry": "center", "observer": "recommended", "channel": "AddToCart",
                    "handler": [ { "increment": "cart.count" } ] },
                  ↓{ "op": "post", "registry": "center", "channel": "AddToCart", "sender": "cell",
                    "site": "ProductCell.swift:22" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "bestSellers", "type": "ProductListViewController" },
                  { "op": "create", "object": "recommended", "type": "ProductListViewController" },
                  { "op": "create", "object": "cell", "type": "ProductCell" },
                  { "op": "observe", "registry": "center", "observer": "bestSellers", "channel": "AddToCart",
                    "handler": [ { "set": "cart.dirty", "value": true } ] },
                  { "op": "observe", "registry": "center", "observer": "recommended", "channel": "AddToCart",
                    "handler": [ { "set": "cart.dirty", "value": true } ] },
                  { "op": "post", "registry": "center", "channel": "AddToCart", "sender": "cell",
                    "site": "ProductCell.swift:22" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "bestSellers", "type": "ProductListViewController" },
                  { "op": "create", "object": "recommended", "type": "ProductListViewController" },
                  { "op": "create", "object": "cell", "type": "ProductCell" },
                  { "op": "observe", "registry": "center", "observer": "bestSellers", "channel": "AddToCart",
                    "handler": [ { "increment": "bestSellers.taps" } ] },
                  { "op": "observe", "registry": "center", "observer": "recommended", "channel": "AddToCart",
                    "handler": [ { "increment": "recommended.taps" } ] },
                  { "op": "post", "registry": "center", "channel": "AddToCart", "sender": "cell",
                    "site": "ProductCell.swift:22" }
                ]
                """),
        ])

    private struct Action: Hashable {
        let registry: UInt32, channel: UInt32, kind: EventKind, key: UInt32, value: UInt32
    }

    // Two receivers act on shared state (effects).
    let firesOnlyWith = EventKinds(.increment, .stateSet, .append, .read)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        // Per post, the receivers that performed each action.
        var byPost = [Int: [Action: [(receiver: UInt32, key: UInt64, sequence: Int)]]]()
        var postOrder: [Int] = []
        for effect in trace.effects where effect.kind == .increment || effect.kind == .append {
            guard let delivery = effect.broadcastDelivery, let post = trace.post(ofDelivery: delivery),
                post.kind != .delegateCall
            else { continue }
            let action = Action(
                registry: post.registry, channel: post.channel, kind: effect.kind, key: effect.key,
                value: effect.kind == .append ? effect.value : 0)
            if byPost[post.sequence] == nil { postOrder.append(post.sequence) }
            let receiver = trace.events[delivery].object
            byPost[post.sequence, default: [:]][action, default: []].append(
                (receiver, Self.receiverKey(of: delivery, receiver, trace), effect.sequence))
        }
        var reported = Set<Action>()
        for postSequence in postOrder {
            guard let actions = byPost[postSequence] else { continue }
            let post = trace.events[postSequence]
            for (action, performed) in actions.sorted(by: { $0.value[0].sequence < $1.value[0].sequence }) {
                var receivers: [UInt32] = []
                var keys: [UInt64] = []
                var events: [Int] = []
                for entry in performed where !keys.contains(entry.key) {
                    keys.append(entry.key)
                    receivers.append(entry.receiver)
                    events.append(entry.sequence)
                }
                guard receivers.count >= 2, reported.insert(action).inserted else { continue }
                let names = receivers.map { trace.name($0) }
                let verb =
                    action.kind == .increment
                    ? "increment \(trace.quoted(action.key))"
                    : "append \(trace.quotedValue(action.value)) to \(trace.quoted(action.key))"
                findings.append(
                    finding(
                        "One post of \(trace.notificationText(action.channel)) made \(receivers.count) receivers "
                            + "(\(names.joined(separator: ", "))) each \(verb).",
                        registry: trace.registryName(action.registry), channel: trace.string(action.channel),
                        objects: names, step: trace.step(of: postSequence), site: trace.site(post.site),
                        location: trace.location(post.site), events: events))
            }
        }
    }

    /// Who received a delivery: its registration's registrant, and for a
    /// block, the line that registered it. One screen's blocks from one line
    /// are one receiver registered twice (`duplicate-registration` says so,
    /// with its own fix), not distinct receivers of a command.
    private static func receiverKey(of delivery: Int, _ receiver: UInt32, _ trace: TraceIndex) -> UInt64 {
        let id = trace.events[delivery].registration
        guard id != 0, let registration = trace.registration(id) else { return UInt64(receiver) << 32 }
        let registrant = trace.registrant(registration)
        let site = registrant == registration.observer ? 0 : registration.site
        return UInt64(registrant) << 32 | UInt64(site)
    }
}
