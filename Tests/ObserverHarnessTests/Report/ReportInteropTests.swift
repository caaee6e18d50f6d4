import Foundation
import Testing

@testable import ObserverHarness

@Suite struct ReportInteropTests {
    private static func sampleSet() throws -> ReportSet {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden/examples")
        var reports: [Report] = []
        for name in ["add-to-cart-broadcast", "observer-outlives-screen"] {
            var report = try Scenario.load(contentsOf: examples.appendingPathComponent("\(name).scenario.json")).run()
            report.file = "Golden/examples/\(name).scenario.json"
            reports.append(report)
        }
        return ReportSet(reports: reports)
    }

    @Test func aReportSetReadsBackEqualToWhatWasWritten() throws {
        var set = try Self.sampleSet()
        set.reports[0].suppressed = [SuppressedFinding(finding: set.reports[0].findings[0], reason: "accepted")]
        set.reports[0].hiddenByBaseline = 2
        let text = set.jsonText()
        let read = try ReportSet.parse(Array(text.utf8), path: "set.json")
        #expect(read == set)
        #expect(read.jsonText() == text)
        #expect(read.reports[0].findings[0].line != nil)
    }

    /// A post made straight on Foundation's center is sited at
    /// `NotificationCenter.default:0`: `merge` read such a report as bad input.
    @Test func aFindingSitedAtLineZeroReadsBack() throws {
        let finding = Finding(
            rule: "escaped-test-scope", severity: .note, message: "m",
            site: CallSite(file: "NotificationCenter.default", line: 0), events: [0])
        let report = Report(scenario: "live", eventCount: 1, replays: 1, findings: [finding])
        let read = try ReportSet.parse(Array(report.jsonText().utf8), path: "one.json")
        #expect(read.reports == [report])
        #expect(read.reports.first?.findings.first?.site?.description == "NotificationCenter.default:0")
    }

    @Test func aSingleReportReadsAsASetOfOne() throws {
        let report = try Self.sampleSet().reports[1]
        let read = try ReportSet.parse(Array(report.jsonText().utf8), path: "one.json")
        #expect(read.reports == [report])
    }

    @Test(arguments: [
        (#"{"format": "observer-harness-report", "version": 2}"#, "one.json:1:50: error: unsupported report version"),
        (#"{"format": "other"}"#, "one.json:1:12: error: \"format\" must be"),
        (
            #"{"format": "observer-harness-report", "version": 1, "scenario": "x", "summary": {"events": -1}, "findings": []}"#,
            "one.json:1:92: error: \"events\" must be a whole number"
        ),
        (
            #"{"format": "observer-harness-report", "version": 1, "scenario": "x", "summary": {"events": 1}, "findings": [], "extra": 1}"#,
            "one.json:1:112: error: unknown field \"extra\""
        ),
        ("[1, 2", "one.json:1:6: error:"),
        (
            #"{"format": "observer-harness-report", "version": 1, "scenario": "x", "summary": {"events": 1}, "#
                + #""findings": [{"rule": "r", "severity": "error", "message": "m", "chain": ["a", 2]}]}"#,
            "one.json:1:175: error: \"chain\" must list links"
        ),
    ])
    func aBadReportFileIsAnErrorAtItsPosition(text: String, expected: String) {
        #expect(throws: InputError.self) { try ReportSet.parse(Array(text.utf8), path: "one.json") }
        do {
            _ = try ReportSet.parse(Array(text.utf8), path: "one.json")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error.description)")
        }
    }

    @Test func fingerprintsIgnoreLineNumbersButNotFiles() {
        let finding = Finding(
            rule: "duplicate-registration", severity: .error,
            message: "x registered twice (at Cart.swift:12 and again at Cart.swift:14:3)",
            site: CallSite(file: "Cart.swift", line: 14))
        var moved = finding
        moved.message = "x registered twice (at Cart.swift:40 and again at Cart.swift:42:3)"
        moved.site = CallSite(file: "Cart.swift", line: 42)
        var elsewhere = finding
        elsewhere.site = CallSite(file: "Checkout.swift", line: 14)
        #expect(finding.fingerprint(scenario: "s") == moved.fingerprint(scenario: "s"))
        #expect(finding.fingerprint(scenario: "s") != elsewhere.fingerprint(scenario: "s"))
        #expect(finding.fingerprint(scenario: "s") != finding.fingerprint(scenario: "t"))
        #expect(
            Finding.withoutLineNumbers("at Cart.swift:12, key a:b, time 10:30") == "at Cart.swift, key a:b, time 10:30")
    }

    @Test func baselineRoundTripHidesExactlyItsFindings() throws {
        let set = try Self.sampleSet()
        let total = set.reports.map(\.findings.count).reduce(0, +)
        let baseline = try Baseline.parse(Array(Baseline(set).jsonText().utf8), path: "baseline.json")
        #expect(baseline.entries.count == total)
        let hidden = set.applying(baseline)
        #expect(hidden.reports.allSatisfy { $0.findings.isEmpty })
        #expect(hidden.reports.map(\.hiddenByBaseline).reduce(0, +) == total)
        // A baseline of the first report only leaves the second report's findings.
        let partial = Baseline(ReportSet(reports: [set.reports[0]]))
        let shown = set.applying(partial)
        #expect(shown.reports[0].findings.isEmpty)
        #expect(shown.reports[1].findings == set.reports[1].findings)
    }

    @Test func xmlEscapingLeavesNoMarkupOrForbiddenCharacters() {
        #expect(
            ReportSet.xmlEscaped("a<b>&\"c'\u{1}\u{FFFE}\n\té") == "a&lt;b&gt;&amp;&quot;c&apos;\u{FFFD}\u{FFFD}\n\té")
    }
}

/// A name from the app that holds a line break stays on its finding's line
/// in the text report (one compiler-style line per finding), written as the
/// terminal's escaping writes other controls.
@Test func aLineBreakInANameStaysOnItsFindingsLine() throws {
    let report = try InlineScenario(
        #"[ { "op": "post", "registry": "center", "channel": "Evil\nName\u2028", "site": "A.swift:1" } ]"#
    ).report()
    let lines = report.text().split(separator: "\n", omittingEmptySubsequences: false)
    let finding = try #require(lines.first { $0.contains("[unobserved-post]") })
    #expect(finding.hasPrefix("A.swift:1: note: \"Evil\\u{A}Name\\u{2028}\""))
    #expect(lines.count == 5, "the summary, a blank line, the finding, its fix, and the end")
}

/// A name holding "\r\n" (one `Character`) keeps a Markdown table row on one
/// line, and reads back whole from a JUnit attribute.
@Test func aCarriageReturnAndNewlineInANameBreakNeitherMarkdownNorJUnit() throws {
    let name = "line1\nline2\r\nline3\u{2028}end"
    let report = Report(
        scenario: name, eventCount: 1, replays: 1,
        findings: [Finding(rule: "unobserved-post", severity: .error, message: "posted \"\(name)\"")])
    let set = ReportSet(reports: [report, report])
    let row = try #require(set.markdownText().split(separator: "\n").first { $0.hasPrefix("| line1") })
    #expect(row.hasSuffix("|"), "the summary row stays one line: \(row)")
    let junit = set.junitText(failingAt: .error)
    #expect(junit.contains(#"name="line1&#10;line2&#13;&#10;line3"#))
    #expect(!junit.contains("\r"))
}
