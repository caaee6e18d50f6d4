/// Runs every rule of the catalogue over a recording.
enum Analyzer {
    /// Findings of every trace rule, in report order. Findings found by
    /// replay (ordering dependence) are merged in by the caller.
    static func findings(in recording: Recording) -> [Finding] {
        // Nothing happened, so no rule can fire: a test that never touched a
        // registry (most tests of a suite under the test trait) skips building
        // the index and the rules' tables.
        guard recording.eventCount > 0 else { return [] }
        return findings(in: TraceIndex(recording))
    }

    static func findings(in trace: TraceIndex) -> [Finding] {
        var findings = FindingAggregator()
        var ruleFindings: [Finding] = []
        for rule in RuleCatalog.rules {
            rule.check(trace, into: &ruleFindings)
            // Folded rule by rule, so a rule's repeats never pile up with the others'.
            for finding in ruleFindings.sorted(by: Finding.reportOrder) { findings.add(finding) }
            ruleFindings.removeAll(keepingCapacity: true)
        }
        return findings.findings.sorted(by: Finding.reportOrder)
    }
}

extension Recording {
    /// Analyses this recording: a report with one finding per misuse.
    public func analyze(name: String = "recording") -> Report {
        Report(scenario: name, eventCount: eventCount, replays: 1, findings: Analyzer.findings(in: self))
    }
}

extension Harness {
    /// Analyses everything recorded so far (the same report `harness-cli
    /// analyze` gives for this harness's trace).
    public func analyze() -> Report {
        recording().analyze(name: name)
    }
}
