/// The findings of one recording or scenario.
public struct Report: Sendable, Equatable {
    /// The scenario's name, or the harness's.
    public var scenario: String
    /// Events recorded (for a scenario: in its first replay).
    public var eventCount: Int
    /// How many replays produced the findings (1 for a live recording).
    public var replays: Int
    /// How many orders the scenario's decision points allow in all (delivery
    /// orders of its posts times interleavings of its `concurrently` steps,
    /// `Int.max` when more), of which ``replays`` were explored; nil when
    /// there was no choice (a live recording, or a scenario with one order).
    package var orders: Int?
    /// In report order: by first event, then step, rule and message.
    public var findings: [Finding]
    /// Findings the scenario's `"suppress"` accepts, with the reason; they
    /// never fail a run.
    public var suppressed: [SuppressedFinding]
    /// How many findings a baseline hid as already known.
    public var hiddenByBaseline: Int
    /// The scenario file, relative to the working directory, when the command
    /// line ran it (golden reports leave it out: they must not depend on where
    /// they are run from).
    public var file: String?

    public init(
        scenario: String, eventCount: Int, replays: Int, findings: [Finding],
        suppressed: [SuppressedFinding] = [], hiddenByBaseline: Int = 0, file: String? = nil
    ) {
        self.scenario = scenario
        self.eventCount = eventCount
        self.replays = replays
        self.findings = findings
        self.suppressed = suppressed
        self.hiddenByBaseline = hiddenByBaseline
        self.file = file
    }

    /// How many findings have this severity.
    public func count(_ severity: Severity) -> Int { findings.count { $0.severity == severity } }

    /// Whether any finding is at least as severe as `threshold`.
    public func hasFindings(atOrAbove threshold: Severity) -> Bool {
        findings.contains { $0.severity >= threshold }
    }
}

/// A finding a scenario suppressed, and the reason it gave.
public struct SuppressedFinding: Sendable, Equatable {
    public var finding: Finding
    public var reason: String

    public init(finding: Finding, reason: String) {
        self.finding = finding
        self.reason = reason
    }
}

/// Several reports from one run (`observer-harness-report-set`).
public struct ReportSet: Sendable, Equatable {
    public var reports: [Report]
    public init(reports: [Report]) { self.reports = reports }
}
