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
                  { "op": "create", "object": "app", "methods": { "keyboardWillShow": [
                      { "invoke": { "object": "home", "method": "keyboardWillShow", "site": "AppDelegate.swift:10" } },
                      { "invoke": { "object": "search", "method": "keyboardWillShow",
                        "site": "AppDelegate.swift:11" } } ] } },
                  { "op": "set-delegate", "registry": "slot", "owner": "keyboard", "delegate": "app" },
                  ↓{ "op": "call-delegate", "registry": "slot", "owner": "keyboard", "method": "keyboardWillShow" }
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

    private struct Key: Hashable { let registry: UInt32, owner: UInt32, delegate: UInt32, call: UInt32, method: UInt32 }

    func check(_ trace: TraceIndex, into findings: inout [Finding]) {
        checkInvocations(trace, into: &findings)
        checkTypedCalls(trace, into: &findings)
    }

    /// Live code: inside one delegate callback, typed calls on other objects'
    /// delegate slots of one protocol reach two or more delegates. (A typed
    /// call is recorded by its slot's protocol, not a method name: the
    /// closure cannot be read. One protocol forwarded to several objects is
    /// the broadcast; a callback that tells one router and one analytics
    /// object, through two protocols, is not.)
    private func checkTypedCalls(_ trace: TraceIndex, into findings: inout [Finding]) {
        struct Group { var targets: [UInt32] = []; var events: [Int] = [] }
        var groups: [Int: [UInt32: Group]] = [:]
        var order: [(delivery: Int, channel: UInt32)] = []
        for call in trace.posts where call.kind == .delegateCall {
            let event = trace.events[call.sequence]
            let delivery = event.cause
            guard delivery != Event.none, Int(delivery) < trace.events.count,
                trace.events[Int(delivery)].kind == .deliver,
                let outer = trace.post(ofDelivery: Int(delivery)), outer.kind == .delegateCall,
                event.object != 0, event.object != trace.events[Int(delivery)].object
            else { continue }
            if groups[Int(delivery)]?[call.channel] == nil { order.append((Int(delivery), call.channel)) }
            var group = groups[Int(delivery), default: [:]][call.channel, default: Group()]
            if !group.targets.contains(event.object) {
                group.targets.append(event.object)
                group.events.append(call.sequence)
            }
            groups[Int(delivery), default: [:]][call.channel] = group
        }
        var reported = Set<Key>()
        for (delivery, channel) in order {
            guard let group = groups[delivery]?[channel], group.targets.count >= 2,
                let outer = trace.post(ofDelivery: delivery)
            else { continue }
            let forwarder = trace.events[delivery].object
            let key = Key(
                registry: outer.registry, owner: outer.sender, delegate: forwarder, call: outer.channel,
                method: channel)
            guard reported.insert(key).inserted else { continue }
            let names = group.targets.map { trace.name($0) }
            let site = trace.events[group.events[0]].site
            findings.append(
                finding(
                    "\(trace.describe(forwarder)) forwards the delegate call \(trace.quoted(outer.channel)) from "
                        + "\(trace.describe(outer.sender)) by hand: it makes \(trace.quoted(channel)) calls to "
                        + "\(group.targets.count) delegates (\(names.joined(separator: ", "))).",
                    registry: trace.registryName(outer.registry), channel: trace.string(outer.channel),
                    objects: [trace.name(forwarder)] + names, step: trace.step(of: outer.sequence),
                    site: trace.site(site), location: trace.location(site), events: [outer.sequence] + group.events))
        }
    }

    /// Scenarios: a delegate method's `invoke`s of one method on several objects.
    private func checkInvocations(_ trace: TraceIndex, into findings: inout [Finding]) {
        var byDelivery: [Int: [UInt32: [(target: UInt32, sequence: Int)]]] = [:]
        var deliveries: [Int] = []
        for invocation in trace.invocations {
            guard let delivery = invocation.delegateDelivery,
                invocation.target != trace.events[delivery].object
            else { continue }
            if byDelivery[delivery] == nil { deliveries.append(delivery) }
            byDelivery[delivery, default: [:]][invocation.method, default: []].append(
                (invocation.target, invocation.sequence))
        }
        var reported = Set<Key>()
        for delivery in deliveries {
            guard let call = trace.post(ofDelivery: delivery), let methods = byDelivery[delivery] else { continue }
            let delegate = trace.events[delivery].object
            for (method, calls) in methods.sorted(by: { $0.value[0].sequence < $1.value[0].sequence }) {
                var targets: [UInt32] = []
                var events: [Int] = [call.sequence]
                for entry in calls where !targets.contains(entry.target) {
                    targets.append(entry.target)
                    events.append(entry.sequence)
                }
                let key = Key(
                    registry: call.registry, owner: call.sender, delegate: delegate, call: call.channel,
                    method: method)
                guard targets.count >= 2, reported.insert(key).inserted else { continue }
                let names = targets.map { trace.name($0) }
                let firstInvoke = trace.events[events[1]]
                let site = firstInvoke.site != 0 ? firstInvoke.site : call.site
                findings.append(
                    finding(
                        "\(trace.describe(delegate)) forwards the delegate call \(trace.quoted(call.channel)) from "
                            + "\(trace.describe(call.sender)) by hand: it invokes \(trace.quoted(method)) on "
                            + "\(targets.count) objects (\(names.joined(separator: ", "))).",
                        registry: trace.registryName(call.registry), channel: trace.string(call.channel),
                        objects: [trace.name(delegate)] + names, step: trace.step(of: call.sequence),
                        site: trace.site(site), location: trace.location(site), events: events))
            }
        }
    }
}
