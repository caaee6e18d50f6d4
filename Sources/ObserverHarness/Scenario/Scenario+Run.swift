extension Scenario {
    /// Replays the scenario, explores delivery orders and interleavings, and
    /// reports every finding. The same scenario and seed give the same report.
    public func run(seed: UInt64 = 0) throws(InputError) -> Report {
        try run(
            seed: seed, tellingStories: false, replayWorkBound: Replay.workBound,
            explorationWorkBudget: Explorer.workBudget
        ).report
    }

    /// ``run(seed:)`` with work bounds of its own (the fuzzer's sanitized
    /// build, many times slower, spends less).
    func run(seed: UInt64, replayWorkBound: Int, explorationWorkBudget: Int) throws(InputError) -> Report {
        try run(
            seed: seed, tellingStories: false, replayWorkBound: replayWorkBound,
            explorationWorkBudget: explorationWorkBudget
        ).report
    }

    /// The report, and the story of each finding from the replay that found
    /// it (what the Markdown and HTML reports draw).
    package func runTellingStories(seed: UInt64 = 0) throws(InputError) -> (report: Report, stories: ReportStories) {
        try run(
            seed: seed, tellingStories: true, replayWorkBound: Replay.workBound,
            explorationWorkBudget: Explorer.workBudget)
    }

    private func run(
        seed: UInt64, tellingStories: Bool, replayWorkBound: Int, explorationWorkBudget: Int
    ) throws(InputError) -> (report: Report, stories: ReportStories) {
        var explorer = Explorer(scenario: self, seed: seed)
        explorer.collectsStories = tellingStories
        explorer.replayWorkLimit = replayWorkBound
        explorer.workLimit = explorationWorkBudget
        var report = try explorer.run()
        for index in report.findings.indices {
            if let step = report.findings[index].step, steps.indices.contains(step) {
                report.findings[index].line = steps[step].position.line
            }
        }
        let reasons = Dictionary(suppressions.map { ($0.rule, $0.reason) }, uniquingKeysWith: { first, _ in first })
        report.suppressed = report.findings.compactMap { finding in
            reasons[finding.rule].map { SuppressedFinding(finding: finding, reason: $0) }
        }
        report.findings.removeAll { reasons[$0.rule] != nil }
        return (report, explorer.stories)
    }
}
