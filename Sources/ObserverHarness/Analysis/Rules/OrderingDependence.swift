/// The outcome depends on the order of deliveries or of concurrent steps.
/// Only replay can show it: the replayer explores orders and reports findings
/// with this descriptor.
enum OrderingDependence {
    static let descriptor = RuleDescriptor(
        id: "ordering-dependence", severity: .error, category: .delivery,
        summary: "The outcome depends on the order of deliveries or of concurrent steps.",
        explanation: """
            NotificationCenter, KVO and most observer lists promise no delivery order, and concurrent work \
            interleaves differently from run to run. When two receivers of one post write and read the same \
            state, the result depends on which runs first: a bug that shows on one device, one OS version or one \
            run in a hundred. The harness replays the scenario in other orders and compares the outcomes.
            """,
        fix: "Make each receiver independent of the others (no shared state written by one and read by another "
            + "during one post), or make the order explicit: one receiver that calls the others in sequence.",
        triggering: [
            RuleExample("""
                [
                  { "op": "create", "object": "session" },
                  { "op": "create", "object": "analytics" },
                  { "op": "observe", "registry": "center", "observer": "session", "channel": "Login",
                    "handler": [ { "set": "user.id", "value": { "payload": "id" } } ] },
                  { "op": "observe", "registry": "center", "observer": "analytics", "channel": "Login",
                    "handler": [ { "read": "user.id" } ] },
                  ↓{ "op": "post", "registry": "center", "channel": "Login", "payload": { "id": 42 } }
                ]
                """),
        ],
        clean: [
            RuleExample("""
                [
                  { "op": "create", "object": "session" },
                  { "op": "create", "object": "analytics" },
                  { "op": "observe", "registry": "center", "observer": "session", "channel": "Login",
                    "handler": [ { "set": "user.id", "value": { "payload": "id" } } ] },
                  { "op": "observe", "registry": "center", "observer": "analytics", "channel": "SessionStarted",
                    "handler": [ { "read": "user.id" } ] },
                  { "op": "post", "registry": "center", "channel": "Login", "payload": { "id": 42 } },
                  { "op": "post", "registry": "center", "channel": "SessionStarted" }
                ]
                """),
        ])
}
