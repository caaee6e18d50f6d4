import ObserverHarness

/// What a test run under its own harness checks at its end: the options of
/// the `.observerHarness` trait and of ``ObserverHarnessTestCase``.
///
/// ```swift
/// ObserverHarnessOptions(failingAt: .error, allowing: ["single-receiver-broadcast"])
/// ```
public struct ObserverHarnessOptions: Sendable, Hashable {
    /// False runs the test without a harness.
    public var isEnabled: Bool
    /// Findings this severe or more fail the test (`.warning`: errors and warnings).
    public var threshold: Severity
    /// Rule ids the test demonstrates, repeats counted: each must be reported
    /// that many times, and does not fail the test.
    public var expected: [String]
    /// Findings tolerated: by rule, by the site in the app, or both.
    public var allowed: [FindingAllowance]
    /// Which thread the harness's notification centers post on (see `Harness.PostThread`).
    public var posts: Harness.PostThread
    /// Attaches the recorded trace beside the report when the test fails on findings.
    public var attachesTrace: Bool

    public init(
        isEnabled: Bool = true, failingAt threshold: Severity = .warning, expecting expected: [String] = [],
        allowing allowed: [FindingAllowance] = [], posts: Harness.PostThread = .caller,
        attachingTrace attachesTrace: Bool = false
    ) {
        self.isEnabled = isEnabled
        self.threshold = threshold
        self.expected = expected
        self.allowed = allowed
        self.posts = posts
        self.attachesTrace = attachesTrace
    }

    /// The check `assertFindings` makes with these options.
    var expectation: FindingExpectation {
        var expectation = FindingExpectation.exactly(expected, atOrAbove: threshold)
        expectation.allowances = allowed
        return expectation
    }
}

/// A finding a test tolerates: every finding of a rule, every finding at a
/// site of the app (a file, or a line of it), or one rule at one site. A
/// string literal names a rule.
///
/// ```swift
/// @Test(.observerHarness(allowing: ["dangling-registration", .site("LegacyProductList.swift")]))
/// ```
public struct FindingAllowance: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The rule id allowed, or nil for any rule.
    public var rule: String?
    /// The file allowed (`File.swift` or `Module/File.swift`), or nil for any.
    public var file: String?
    /// The line of `file` allowed, or nil for every line.
    public var line: Int?

    /// Every finding of the rule `id`.
    public static func rule(_ id: String) -> FindingAllowance { FindingAllowance(rule: id, file: nil, line: nil) }

    /// Every finding at `site`: `"File.swift"` or `"File.swift:42"` (a
    /// `Module/File.swift` form names one module's file).
    public static func site(_ site: String) -> FindingAllowance {
        let (file, line) = Self.parse(site)
        return FindingAllowance(rule: nil, file: file, line: line)
    }

    /// Findings of the rule `id` at `site` only.
    public static func rule(_ id: String, at site: String) -> FindingAllowance {
        let (file, line) = Self.parse(site)
        return FindingAllowance(rule: id, file: file, line: line)
    }

    public init(stringLiteral rule: String) { self.init(rule: rule, file: nil, line: nil) }

    private init(rule: String?, file: String?, line: Int?) {
        self.rule = rule
        self.file = file
        self.line = line
    }

    private static func parse(_ site: String) -> (String, Int?) {
        if let colon = site.lastIndex(of: ":"), let line = Int(site[site.index(after: colon)...]) {
            return (String(site[..<colon]), line)
        }
        return (site, nil)
    }

    /// Whether it tolerates `finding`.
    public func allows(_ finding: Finding) -> Bool {
        if let rule, rule != finding.rule { return false }
        guard let file else { return true }
        guard let site = finding.site, site.file == file || site.file.hasSuffix("/" + file) else { return false }
        return line == nil || line == site.line
    }

    public var description: String {
        let site = file.map { file in line.map { "\(file):\($0)" } ?? file }
        switch (rule, site) {
        case (let rule?, let site?): return "\(rule) at \(site)"
        case (let rule?, nil): return rule
        case (nil, let site?): return "any finding at \(site)"
        case (nil, nil): return "any finding"
        }
    }
}
