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
            means editing it.
            """,
        fix: "Let the objects that need the event observe it (a notification or an observer list), or give each "
            + "of them its own delegate.",
        triggering: [
            RuleExample("""
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
                """),
        ],
        clean: [
            RuleExample("""
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
                """),
        ])

    private struct Key: Hashable { let registry: UInt32, owner: UInt32, delegate: UInt32, call: UInt32, method: UInt32 }

    func check(_ trace: TraceIndex, into findings: inout [Finding]) {
        var byDelivery: [Int: [UInt32: [(target: UInt32, sequence: Int)]]] = [:]
        var deliveries: [Int] = []
        for invocation in trace.invocations {
            guard let delivery = invocation.delegateDelivery,
                  invocation.target != trace.events[delivery].object else { continue }
            if byDelivery[delivery] == nil { deliveries.append(delivery) }
            byDelivery[delivery, default: [:]][invocation.method, default: []].append((invocation.target, invocation.sequence))
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
                let key = Key(registry: call.registry, owner: call.sender, delegate: delegate, call: call.channel,
                              method: method)
                guard targets.count >= 2, reported.insert(key).inserted else { continue }
                let names = targets.map { trace.name($0) }
                let firstInvoke = trace.events[events[1]]
                let site = firstInvoke.site != 0 ? firstInvoke.site : call.site
                findings.append(finding(
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
