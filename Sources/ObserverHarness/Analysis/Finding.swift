/// How serious a finding is. Severities compare by seriousness, as swift-log's
/// `Logger.Level` does: `note < warning < error`, so "warning or worse" reads
/// as it does there:
///
/// ```swift
/// let serious = harness.analyze().findings.filter { $0.severity >= .warning }  // errors and warnings
/// ```
///
/// `allCases` lists them most serious first, the order text reports group them in.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case error, warning, note

    private var seriousness: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    /// `note < warning < error`.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.seriousness < rhs.seriousness }
}

/// One misuse found in a recording or replay.
///
/// ```swift
/// let report = harness.analyze()
/// for finding in report.findings where finding.severity == .error {
///     print("\(finding.site?.description ?? "?"): \(finding.rule): \(finding.message)")
/// }
/// ```
public struct Finding: Sendable, Hashable {
    /// A rule id from the catalogue, e.g. `duplicate-registration`.
    public var rule: String
    public var severity: Severity
    /// What happened, to which objects, where.
    public var message: String
    public var registry: String?
    public var channel: String?
    /// The objects involved, by label (or `Type#id`).
    public var objects: [String]
    /// The 0-based top-level scenario step that led to it (replays only).
    public var step: Int?
    /// Where it happened: the user's line of the add, post or set-delegate
    /// the finding is about.
    public var site: CallSite?
    /// Sequence numbers of the events that show it.
    public var events: [Int]
    /// How to fix it.
    public var fix: String?
    /// How many times this finding happened: repeats of one rule with the
    /// same registry, channel, objects and site are one finding, and
    /// ``events`` holds the first few of them.
    public var count: Int = 1
    /// For an object kept alive: the chain of strong references that
    /// reaches it, root first and the object last (`feed (Feed)`,
    /// `Feed.subscribers[2]`, `Subscription.callback (closure)`,
    /// `profile (ProfileScreen)`), found in memory in live tests; empty otherwise.
    public var referenceChain: [String] = []
    /// The line of the scenario file where `step` is written (replays only):
    /// where SARIF points when the site is not a file in the repository.
    package var line: Int?

    public init(
        rule: String, severity: Severity, message: String, registry: String? = nil, channel: String? = nil,
        objects: [String] = [], step: Int? = nil, site: CallSite? = nil, events: [Int] = [],
        fix: String? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.registry = registry
        self.channel = channel
        self.objects = objects
        self.step = step
        self.site = site
        self.events = events
        self.fix = fix
    }

    public static func == (lhs: Finding, rhs: Finding) -> Bool {
        lhs.rule == rhs.rule && lhs.severity == rhs.severity && lhs.message == rhs.message
            && lhs.registry == rhs.registry && lhs.channel == rhs.channel && lhs.objects == rhs.objects
            && lhs.step == rhs.step && lhs.site == rhs.site && lhs.events == rhs.events && lhs.fix == rhs.fix
            && lhs.line == rhs.line && lhs.count == rhs.count && lhs.referenceChain == rhs.referenceChain
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rule)
        hasher.combine(message)
        hasher.combine(events)
    }

    /// Report order: by the first event, then step, rule and message, so the
    /// same input always lists findings the same way.
    static func reportOrder(_ a: Finding, _ b: Finding) -> Bool {
        let ea = a.events.first ?? Int.max, eb = b.events.first ?? Int.max
        if ea != eb { return ea < eb }
        let sa = a.step ?? Int.max, sb = b.step ?? Int.max
        if sa != sb { return sa < sb }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.message < b.message
    }
}
