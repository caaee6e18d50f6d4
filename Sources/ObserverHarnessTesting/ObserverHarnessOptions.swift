import Foundation
import ObserverHarness

/// What a test run under its own harness checks at its end: the options of
/// the `.observerHarness` trait and of ``ObserverHarnessTestCase``.
///
/// ```swift
/// ObserverHarnessOptions(failingAt: .error, allowing: ["single-receiver-broadcast"])
/// ```
///
/// An option the code leaves out takes its value from the environment, then
/// from the default: `OBSERVER_HARNESS_FAIL_ON` (`error`, `warning`, `note` or
/// `never`) for ``threshold`` and ``failsOnFindings``,
/// `OBSERVER_HARNESS_KEEP_REPORTS` (`all` or `failing`) for
/// ``keepsEveryReport``. An option the code gives wins over the environment.
public struct ObserverHarnessOptions: Sendable, Hashable {
    /// False runs the test without a harness.
    public var isEnabled: Bool
    /// Findings this severe or more fail the test (`.warning`: errors and
    /// warnings). Set in code, it wins over `OBSERVER_HARNESS_FAIL_ON`, as
    /// `failingAt:` does: findings fail the test again.
    public var threshold: Severity {
        didSet { failsOnFindings = true }
    }
    /// False: no finding fails the test, whatever its severity
    /// (`OBSERVER_HARNESS_FAIL_ON=never`); expected findings are still
    /// counted, and a missing one still fails.
    public var failsOnFindings: Bool
    /// Rule ids the test demonstrates, repeats counted: each must be reported
    /// that many times, and does not fail the test.
    public var expected: [String]
    /// Findings tolerated: by rule, by the site in the app, or both.
    public var allowed: [FindingAllowance]
    /// Which thread the harness's notification centers post on (see `Harness.PostThread`).
    public var posts: Harness.PostThread
    /// Attaches the recorded trace beside the report when the test fails on findings.
    public var attachesTrace: Bool
    /// Keeps the reports of every test, passing ones included (attached in
    /// Swift Testing, written to the artifacts folder under XCTest); by
    /// default only a failing test's are kept.
    public var keepsEveryReport: Bool

    /// `threshold` and `keepsEveryReport`, when nil, come from the
    /// environment (see above), then default to `.warning` and false.
    public init(
        isEnabled: Bool = true, failingAt threshold: Severity? = nil, expecting expected: [String] = [],
        allowing allowed: [FindingAllowance] = [], posts: Harness.PostThread = .caller,
        attachingTrace attachesTrace: Bool = false, keepingEveryReport keepsEveryReport: Bool? = nil
    ) {
        let environment = HarnessEnvironment.current
        self.isEnabled = isEnabled
        if let threshold {
            self.threshold = threshold
            failsOnFindings = true
        } else {
            self.threshold = environment.failOn?.threshold ?? .warning
            failsOnFindings = environment.failOn != .never
        }
        self.expected = expected
        self.allowed = allowed
        self.posts = posts
        self.attachesTrace = attachesTrace
        self.keepsEveryReport = keepsEveryReport ?? environment.keepsEveryReport ?? false
    }

    /// The check `assertFindings` makes with these options.
    var expectation: FindingExpectation {
        // Under `never`, expected findings count at any severity, and nothing else fails.
        var expectation = FindingExpectation.exactly(expected, atOrAbove: failsOnFindings ? threshold : .note)
        expectation.allowances = allowed
        expectation.failsOnUnexpected = failsOnFindings
        return expectation
    }
}

/// What the environment says about the options a test leaves out: how
/// `SNAPSHOT_TESTING_RECORD` sets swift-snapshot-testing's record mode, for a
/// CI job that wants to see notes, or every test's report, without editing
/// tests. Read when a test starts (and again when it ends, for its problems).
package struct HarnessEnvironment: Sendable, Equatable {
    package static let failOnVariable = "OBSERVER_HARNESS_FAIL_ON"
    package static let keepReportsVariable = "OBSERVER_HARNESS_KEEP_REPORTS"

    package enum FailOn: String, Sendable, CaseIterable {
        case error, warning, note, never

        var threshold: Severity? { Severity(rawValue: rawValue) }
    }

    package var failOn: FailOn?
    package var keepsEveryReport: Bool?
    /// A line for each variable whose value is not one it takes (which then
    /// counts as unset): each harnessed test fails with it.
    package var problems: [String] = []

    /// Replaces the process's environment for the task: how the package's
    /// tests set the variables without changing the process they share.
    @TaskLocal package static var override: [String: String]?

    package static var current: HarnessEnvironment {
        if let override { return HarnessEnvironment(override) }
        // The two variables alone: each test reads them, and the whole
        // environment would be copied into a dictionary each time.
        var variables: [String: String] = [:]
        for name in [failOnVariable, keepReportsVariable] {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        return HarnessEnvironment(variables)
    }

    package init(_ variables: [String: String]) {
        if let text = variables[Self.failOnVariable], !text.isEmpty {
            failOn = FailOn(rawValue: text.lowercased())
            if failOn == nil {
                problems.append(
                    "\(Self.failOnVariable) must be error, warning, note or never, not '\(text)': "
                        + "the tests use the option in the code, or warning")
            }
        }
        if let text = variables[Self.keepReportsVariable], !text.isEmpty {
            switch text.lowercased() {
            case "all": keepsEveryReport = true
            case "failing": keepsEveryReport = false
            default:
                problems.append(
                    "\(Self.keepReportsVariable) must be all or failing, not '\(text)': "
                        + "the tests keep the reports of failing tests only")
            }
        }
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
