import Testing

@testable import ObserverHarness

/// Severities compare by seriousness, as swift-log's `Logger.Level` does.
@Suite struct SeverityTests {
    static let findings = [Severity.note, .error, .warning, .note, .error].enumerated().map { index, severity in
        Finding(rule: "rule-\(index)", severity: severity, message: "finding \(index)")
    }

    @Test func severitiesCompareBySeriousness() {
        #expect(Severity.note < .warning)
        #expect(Severity.warning < .error)
        #expect(Severity.allCases.sorted() == [.note, .warning, .error])
        #expect(Severity.allCases == [.error, .warning, .note], "listed most serious first, as reports group them")
    }

    @Test func warningOrWorseKeepsExactlyErrorsAndWarnings() {
        let kept = Self.findings.filter { $0.severity >= .warning }
        #expect(kept.map(\.severity) == [.error, .warning, .error])
        #expect(Self.findings.filter { $0.severity >= .error }.map(\.rule) == ["rule-1", "rule-4"])
        #expect(Self.findings.filter { $0.severity >= .note }.count == Self.findings.count)
    }

    @Test func aReportThresholdReadsTheSameWay() {
        let report = Report(
            scenario: "thresholds", eventCount: 0, replays: 1, findings: Self.findings.filter { $0.severity != .error })
        #expect(report.hasFindings(atOrAbove: .warning))
        #expect(!report.hasFindings(atOrAbove: .error))
        let notesOnly = Report(
            scenario: "notes", eventCount: 0, replays: 1, findings: Self.findings.filter { $0.severity == .note })
        #expect(!notesOnly.hasFindings(atOrAbove: .warning))
        #expect(notesOnly.hasFindings(atOrAbove: .note))
    }
}
