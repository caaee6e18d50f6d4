import ObserverHarness

/// What a test expects of a harness's findings.
public struct FindingExpectation: Sendable {
    /// Rule ids that must each be reported exactly this many times.
    public var required: [String: Int]
    /// Rule ids tolerated (an allow-list); anything else at or above
    /// `threshold` fails.
    public var allowed: Set<String>
    public var threshold: Severity

    /// No finding at or above `threshold` except the `allowed` rules.
    public static func none(allowing allowed: Set<String> = [], atOrAbove threshold: Severity = .warning)
        -> FindingExpectation
    {
        FindingExpectation(required: [:], allowed: allowed, threshold: threshold)
    }

    /// Exactly these findings (by rule id, repeats counted) at or above
    /// `threshold`, and nothing else there.
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
    let report = harness.analyze()
    let here = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    check(report, expectation, here: here)
    return report
}

/// The same check for a report you already have (a scenario run, a trace).
public func assertFindings(
    in report: Report, _ expectation: FindingExpectation = .none(),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(report, expectation, here: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

private func check(_ report: Report, _ expectation: FindingExpectation, here: CodeLocation) {
    var remaining = expectation.required
    var unexpected: [Finding] = []
    for finding in report.findings where finding.severity >= expectation.threshold {
        if let count = remaining[finding.rule], count > 0 {
            remaining[finding.rule] = count - 1
        } else if !expectation.allowed.contains(finding.rule) {
            unexpected.append(finding)
        }
    }
    for finding in unexpected {
        var message = [finding.line(withSite: false), finding.fixLine].compactMap { $0 }.joined(separator: "\n")
        if expectation.required[finding.rule] != nil {
            message +=
                "\n(expected \(expectation.required[finding.rule]!) \(finding.rule) finding(s); this is one more)"
        }
        recordFailure(message, at: finding.site?.codeLocation ?? here)
    }
    for (rule, missing) in remaining.sorted(by: { $0.key < $1.key }) where missing > 0 {
        let known =
            RuleCatalog.descriptor(id: rule) == nil ? " (no rule has this id; `harness-cli rules` lists them)" : ""
        recordFailure(
            "expected \(missing) more \(rule) finding(s), but the harness reported "
                + "\(expectation.required[rule]! - missing)\(known)", at: here)
    }
}
