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

    /// - Parameter everyRule: run the rules whose kinds of event do not
    ///   occur too (the tests check that skipping them changes nothing).
    static func findings(in trace: TraceIndex, everyRule: Bool = false) -> [Finding] {
        var findings = FindingAggregator()
        // Read once: in a debug build each read of the index's field copies the whole index.
        let present = trace.present
        let rules = RuleCatalog.rules
        let needs = RuleCatalog.needs
        var index = 0
        // A `while` loop: a debug build walks an array through unspecialised generic code.
        while index < rules.count {
            let rule = rules[index]
            index += 1
            guard everyRule || present.admits(needs[index - 1]) else { continue }
            // Folded rule by rule, so a rule's repeats never pile up with the others'.
            var ruleFindings = RuleFindings()
            rule.check(trace, into: &ruleFindings)
            let found = ruleFindings.inReportOrder()
            var position = 0
            while position < found.count {
                findings.add(found[position])
                position += 1
            }
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

extension Recording {
    /// The report, and the story of each finding in this recording (what the
    /// Markdown and HTML reports draw). The index is built once for both.
    package func analyzeTellingStories(name: String = "recording") -> (report: Report, stories: ReportStories) {
        let trace = TraceIndex(self)
        let report = Report(
            scenario: name, eventCount: eventCount, replays: 1, findings: Analyzer.findings(in: trace))
        var stories = ReportStories()
        for finding in report.findings { stories[finding] = FindingStory(finding, in: trace) }
        return (report, stories)
    }
}

extension Harness {
    /// Analyses everything recorded so far (the same report `harness-cli
    /// analyze` gives for this harness's trace).
    public func analyze() -> Report {
        recording().analyze(name: name)
    }
}
