import ObserverHarness

/// What a test expects of a harness's findings.
public struct FindingExpectation: Sendable {
    /// Rule ids that must each be reported exactly this many times.
    public var required: [String: Int]
    /// Rule ids tolerated (an allow-list); anything else at or above
    /// `threshold` fails.
    public var allowed: Set<String>
    public var threshold: Severity
    /// Sites and rule-at-site pairs tolerated as well (the trait's `allowing:`).
    var allowances: [FindingAllowance] = []
    /// False: a finding that is not expected never fails (`OBSERVER_HARNESS_FAIL_ON=never`).
    var failsOnUnexpected = true

    func allows(_ finding: Finding) -> Bool {
        allowed.contains(finding.rule) || allowances.contains { $0.allows(finding) }
    }

    /// No finding at or above `threshold` except the `allowed` rules.
    public static func none(allowing allowed: Set<String> = [], atOrAbove threshold: Severity = .warning)
        -> FindingExpectation
    {
        FindingExpectation(required: [:], allowed: allowed, threshold: threshold)
    }

    /// Exactly these findings (by rule id, repeats counted, at any severity),
    /// and nothing else at or above `threshold`.
    public static func exactly(_ rules: [String], atOrAbove threshold: Severity = .warning) -> FindingExpectation {
        FindingExpectation(
            required: rules.reduce(into: [:]) { $0[$1, default: 0] += 1 }, allowed: [],
            threshold: threshold)
    }
}

/// Analyses the harness and fails once per unexpected finding, at the
/// finding's call site (the add, post or set-delegate line), with its fix.
///
/// ```swift
/// @Test func cartWiringIsClean() {
///     let harness = Harness()
///     let app = CartApp(center: harness.notificationCenter())
///     app.tapAddToCart()
///     assertFindings(harness, .none())
/// }
/// ```
///
/// - Returns: the report, for further checks.
@discardableResult
public func assertFindings(
    _ harness: Harness, _ expectation: FindingExpectation = .none(),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Report {
    HarnessedTest.running?.noteChecked(harness)
    let report = harness.analyze()
    let here = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    check(report, expectation, here: here, alreadyReported: harness.reportedLeakFindings())
    return report
}

/// The same check for a report you already have (a scenario run, a trace).
public func assertFindings(
    in report: Report, _ expectation: FindingExpectation = .none(),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(report, expectation, here: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

private func check(
    _ report: Report, _ expectation: FindingExpectation, here: CodeLocation,
    alreadyReported: (Finding) -> Bool = { _ in false }
) {
    for failure in expectationFailures(report, expectation, alreadyReported: alreadyReported) {
        recordFailure(failure.message, at: failure.location ?? here)
    }
}

/// One failure of a findings check: at the finding's site, or nil where the
/// check was made (an expected finding that is missing).
struct ExpectationFailure {
    var message: String
    var location: CodeLocation?
}

/// What fails `expectation` in `report`: each unexpected finding at or above
/// the threshold, and each expected one that is missing. A finding stands
/// for its repeats (`count`), and an expected rule is counted at any
/// severity: a test may demonstrate a note.
/// `alreadyReported`: findings another assertion failed on (a leak
/// `assertNoLeaks` reported), which count for expectations but are not
/// reported again.
func expectationFailures(
    _ report: Report, _ expectation: FindingExpectation, alreadyReported: (Finding) -> Bool = { _ in false }
) -> [ExpectationFailure] {
    var remaining = expectation.required
    var reported: [String: Int] = [:]
    var unexpected: [Finding] = []
    for finding in report.findings {
        if let count = remaining[finding.rule] {
            reported[finding.rule, default: 0] += finding.count
            let taken = min(count, finding.count)
            remaining[finding.rule] = count - taken
            // Repeats past the expected count are unexpected, like any other finding.
            if taken == finding.count { continue }
        }
        if finding.severity >= expectation.threshold, expectation.failsOnUnexpected, !expectation.allows(finding),
            !alreadyReported(finding)
        {
            unexpected.append(finding)
        }
    }
    var failures: [ExpectationFailure] = []
    for finding in unexpected {
        var message = [finding.line(withSite: false), finding.fixLine].compactMap { $0 }.joined(separator: "\n")
        if let expected = expectation.required[finding.rule] {
            message +=
                "\n(expected \(expected) \(finding.rule) finding(s), repeats counted; "
                + "the harness reported \(reported[finding.rule] ?? 0))"
        }
        failures.append(ExpectationFailure(message: message, location: finding.site?.codeLocation))
    }
    for (rule, missing) in remaining.sorted(by: { $0.key < $1.key }) where missing > 0 {
        let known =
            RuleCatalog.descriptor(id: rule) == nil ? " (no rule has this id; `harness-cli rules` lists them)" : ""
        failures.append(
            ExpectationFailure(
                message: "expected \(missing) more \(rule) finding(s), but the harness reported "
                    + "\(reported[rule] ?? 0) (repeats counted)\(known)", location: nil))
    }
    return failures
}
