/// The findings of one recording or scenario (SPEC §3).
public struct Report: Sendable, Equatable {
    /// The scenario's name, or the harness's.
    public var scenario: String
    /// Events recorded (for a scenario: in its first replay).
    public var eventCount: Int
    /// How many replays produced the findings (1 for a live recording).
    public var replays: Int
    /// In report order: by first event, then step, rule and message.
    public var findings: [Finding]

    public init(scenario: String, eventCount: Int, replays: Int, findings: [Finding]) {
        self.scenario = scenario
        self.eventCount = eventCount
        self.replays = replays
        self.findings = findings
    }

    /// How many findings have this severity.
    public func count(_ severity: Severity) -> Int { findings.count { $0.severity == severity } }

    /// Whether any finding is at least as severe as `threshold`.
    public func hasFindings(atOrAbove threshold: Severity) -> Bool {
        findings.contains { $0.severity <= threshold }
    }
}

/// Several reports from one run (SPEC §3 `observer-harness-report-set`).
public struct ReportSet: Sendable, Equatable {
    public var reports: [Report]
    public init(reports: [Report]) { self.reports = reports }
}
