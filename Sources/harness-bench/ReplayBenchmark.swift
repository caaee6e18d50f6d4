import ObserverHarness

/// Section 5: how many replays exploration needs to find the one conflicting
/// pair among n receivers of one post.
///
/// Receiver n/3 writes a key and receiver 2n/3 reads it; every other receiver
/// increments a shared counter (increments commute, so they do not conflict).
struct ReplayBenchmark {
    struct Row {
        let receivers: Int
        let replays: Int
        /// 2 + 2·⌈log₂ n⌉.
        let bound: Int
        let found: Bool
        let seconds: Double
        /// This thread's CPU time for the same run.
        let cpuSeconds: Double
    }

    let options: BenchOptions

    func run() throws -> [Row] {
        try options.receiverCounts.map { receivers in
            let scenario = try Scenario.parse(
                Array(Self.scenarioJSON(receivers: receivers).utf8),
                path: "one-pair-among-\(receivers).scenario.json")
            var report: Report?
            let cpuStart = Platform.threadCPUSeconds()
            let seconds = try Stopwatch.seconds { report = try scenario.run() }
            let cpuSeconds = Platform.threadCPUSeconds() - cpuStart
            let found = report?.findings.contains { $0.rule == "ordering-dependence" } ?? false
            return Row(
                receivers: receivers, replays: report?.replays ?? 0, bound: Self.bound(receivers),
                found: found, seconds: seconds, cpuSeconds: cpuSeconds)
        }
    }

    static func bound(_ receivers: Int) -> Int {
        var log = 0
        while (1 << log) < receivers { log += 1 }
        return 2 + 2 * log
    }

    static func scenarioJSON(receivers: Int) -> String {
        let writer = receivers / 3
        let reader = max(2 * receivers / 3, writer + 1)
        var steps: [String] = [#"{ "op": "create", "object": "sender" }"#]
        for index in 0..<receivers { steps.append(#"{ "op": "create", "object": "r\#(index)" }"#) }
        for index in 0..<receivers {
            let effect =
                switch index {
                case writer: #"{ "set": "selection", "value": 1 }"#
                case reader: #"{ "read": "selection" }"#
                default: #"{ "increment": "refreshes" }"#
                }
            steps.append(
                #"{ "op": "observe", "registry": "center", "observer": "r\#(index)", "#
                    + #""channel": "SelectionDidChange", "handler": [ \#(effect) ] }"#)
        }
        steps.append(#"{ "op": "post", "registry": "center", "channel": "SelectionDidChange", "sender": "sender" }"#)
        return """
            { "format": "observer-harness-scenario", "version": 1, "scenario": "one-pair-among-\(receivers)",
              "registries": { "center": { "kind": "notification-center" } },
              "steps": [
            \(steps.joined(separator: ",\n"))
            ] }
            """
    }
}
