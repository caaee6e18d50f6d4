/// A replay or the exploration was cut by one of its documented bounds: what
/// lies past the bound was not checked. Not a bug in the app, and never a
/// `notification-cycle`: the replay and the explorer report it as they cut.
struct ExplorationLimitRule: Rule {
    let descriptor = RuleDescriptor(
        id: "exploration-limit", severity: .note, category: .delivery,
        summary: "A replay or the exploration was cut by a documented bound; what was left unexplored.",
        explanation: """
            Replays and their exploration are bounded so that every scenario finishes: each replay may spend \
            500,000 units of work (a step, an effect, a delivery to a live or dead observer, a value a loop \
            takes, 64 registrations or other entries looked through or 64 bytes of values copied or compared, \
            each one unit) and nest handlers 256 deep across channels; an \
            exploration tries at most 5,000 replays and 2,000,000 units of work in all, and samples the orders \
            of a post or a concurrent step with more than 720. Past a bound the harness stops and says so: the \
            findings cover what ran, not what was cut. Live, the order check (`checkOrderIndependence`, \
            `assertOrderIndependent`) runs its body at most 1,000 times: what that left untried is the check's \
            `unexplored`, naming the post; `assertOrderIndependent` passes on the orders it tried. The search \
            for mistyped channel names (`channel-name-typo`) spends at most 50,000,000 character comparisons \
            per trace; past them it stops and this note says so.
            """,
        fix: "Split the scenario into smaller ones that each exercise one wiring, or give fewer receivers and "
            + "posts; a chain of handlers nested hundreds deep is usually a loop that should end.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "ticker", "methods": {
                      "tick": [ { "increment": "ticks" }, { "invoke": { "object": "self", "method": "tick" } } ] } },
                  ↓{ "op": "invoke", "object": "ticker", "method": "tick", "site": "Ticker.swift:12" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "ticker", "methods": {
                      "tick": [ { "increment": "ticks" } ] } },
                  { "op": "invoke", "object": "ticker", "method": "tick" },
                  { "op": "invoke", "object": "ticker", "method": "tick" }
                ]
                """)
        ])

    /// The replay, the explorer and the typo search (`channel-name-typo`)
    /// make these findings; a trace alone has no bound to report.
    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {}
}
