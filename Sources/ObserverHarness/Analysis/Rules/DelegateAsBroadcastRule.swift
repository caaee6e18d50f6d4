/// A delegate callback forwarded by hand to several objects: a broadcast
/// built out of a one-to-one channel.
struct DelegateAsBroadcastRule: Rule {
    let descriptor = RuleDescriptor(
        id: "delegate-as-broadcast", severity: .warning, category: .design,
        summary: "A delegate callback is forwarded by hand: it invokes the same method on two or more other objects.",
        explanation: """
            A delegate is one-to-one. When several objects need the event, a delegate that calls the same method \
            on each of them by hand (an app delegate forwarding keyboard events to every screen) is a broadcast \
            with none of a broadcast's decoupling: the forwarder must know every receiver, and each new screen \
            means editing it. In live tests a typed `DelegateSlot` call is known by its slot's protocol: a \
            callback that calls one protocol on the delegates of two or more objects is the same broadcast.
            """,
        fix: "Let the objects that need the event observe it (a notification or an observer list), or give each "
            + "of them its own delegate.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "keyboard" },
                  { "op": "create", "object": "home", "methods": { "keyboardWillShow": [], "refresh": [] } },
                  { "op": "create", "object": "search", "methods": { "keyboardWillShow": [], "clear": [] } },
                  ↓{ "op": "create", "object": "app", "methods": { "keyboardWillShow": [
                      { "invoke": { "object": "home", "method": "keyboardWillShow", "site": "AppDelegate.swift:10" } },
                      { "invoke": { "object": "search", "method": "keyboardWillShow",
                        "site": "AppDelegate.swift:11" } } ] } },
                  { "op": "set-delegate", "registry": "slot", "owner": "keyboard", "delegate": "app" },
                  { "op": "call-delegate", "registry": "slot", "owner": "keyboard", "method": "keyboardWillShow" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "keyboard" },
                  { "op": "create", "object": "home", "methods": { "keyboardWillShow": [], "refresh": [] } },
                  { "op": "create", "object": "search", "methods": { "keyboardWillShow": [], "clear": [] } },
                  { "op": "create", "object": "app", "methods": { "keyboardWillShow": [
                      { "invoke": { "object": "home", "method": "refresh" } },
                      { "invoke": { "object": "search", "method": "clear" } } ] } },
                  { "op": "set-delegate", "registry": "slot", "owner": "keyboard", "delegate": "app" },
                  { "op": "call-delegate", "registry": "slot", "owner": "keyboard", "method": "keyboardWillShow" }
                ]
                """)
        ])

    /// A call the delegate made to another object while handling a delegate
    /// callback: a typed call on another slot, or a scenario's `invoke`.
    private struct ForwardedCall {
        let delivery: Int
        let method: UInt32
        let target: UInt32
        let sequence: Int
    }

    private enum Form {
        /// Live code: typed calls, named by their slot's protocol (the
        /// closure's method cannot be read). One protocol reaching several
        /// objects is the broadcast; a callback that tells one router and one
        /// analytics object, through two protocols, is not.
        case typedCalls
        /// Scenarios: a delegate method's `invoke`s of one method on several objects.
        case invocations
    }

    // A forwarded call is a delegate call or an invocation.
    let firesOnlyWith = EventKinds(.delegateCall, .invoke)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        report(typedCalls(trace), form: .typedCalls, trace, into: &findings)
        report(invocations(trace), form: .invocations, trace, into: &findings)
    }

    private func typedCalls(_ trace: TraceIndex) -> [ForwardedCall] {
        // The delegate calls alone, not every post.
        let posts = trace.posts
        return trace.delegateCalls.compactMap { position in
            let call = posts[position]
            let event = trace.events[call.sequence]
            let delivery = Int(event.cause)
            guard event.cause != Event.none, delivery < trace.events.count,
                trace.events[delivery].kind == .deliver,
                trace.post(ofDelivery: delivery)?.kind == .delegateCall,
                event.object != 0, event.object != trace.events[delivery].object,
                // Called: a freed delegate's slot called no one (a weak slot skips it).
                call.deliveries.contains(where: { trace.events[$0].kind == .deliver })
            else { return nil }
            return ForwardedCall(
                delivery: delivery, method: call.channel, target: event.object, sequence: call.sequence)
        }
    }

    private func invocations(_ trace: TraceIndex) -> [ForwardedCall] {
        trace.invocations.compactMap { invocation in
            guard let delivery = invocation.delegateDelivery,
                invocation.target != trace.events[delivery].object
            else { return nil }
            return ForwardedCall(
                delivery: delivery, method: invocation.method, target: invocation.target,
                sequence: invocation.sequence)
        }
    }

    /// One finding per delegate callback and method that reached two or more
    /// objects, in the order the callbacks first forwarded.
    private func report(
        _ calls: [ForwardedCall], form: Form, _ trace: TraceIndex, into findings: inout RuleFindings
    ) {
        struct Group {
            var targets: [UInt32] = []
            var events: [Int] = []
        }
        struct Key: Hashable {
            let delivery: Int
            let method: UInt32
        }
        var groups = [Key: Group]()
        var order: [Key] = []
        for call in calls {
            let key = Key(delivery: call.delivery, method: call.method)
            if groups[key] == nil { order.append(key) }
            if groups[key, default: Group()].targets.contains(call.target) { continue }
            groups[key, default: Group()].targets.append(call.target)
            groups[key, default: Group()].events.append(call.sequence)
        }
        struct Reported: Hashable {
            let registry: UInt32, owner: UInt32, delegate: UInt32, call: UInt32, method: UInt32
        }
        var reported = Set<Reported>()
        for key in order {
            guard let group = groups[key], group.targets.count >= 2,
                let outer = trace.post(ofDelivery: key.delivery)
            else { continue }
            let forwarder = trace.events[key.delivery].object
            guard
                reported.insert(
                    Reported(
                        registry: outer.registry, owner: outer.sender, delegate: forwarder, call: outer.channel,
                        method: key.method)
                ).inserted
            else { continue }
            let names = group.targets.map { trace.name($0) }
            let what: String
            var site = trace.events[group.events[0]].site
            switch form {
            case .typedCalls:
                what = "makes \(trace.quoted(key.method)) calls to \(group.targets.count) delegates"
            case .invocations:
                what = "invokes \(trace.quoted(key.method)) on \(group.targets.count) objects"
                if site == 0 { site = outer.site }
            }
            findings.append(
                finding(
                    "\(trace.describe(forwarder)) forwards the delegate call \(trace.quoted(outer.channel)) from "
                        + "\(trace.describe(outer.sender)) by hand: it \(what) (\(names.joined(separator: ", "))).",
                    registry: trace.registryName(outer.registry), channel: trace.string(outer.channel),
                    objects: [trace.name(forwarder)] + names, step: trace.step(of: outer.sequence),
                    site: trace.site(site), location: trace.location(site), events: [outer.sequence] + group.events))
        }
    }
}
