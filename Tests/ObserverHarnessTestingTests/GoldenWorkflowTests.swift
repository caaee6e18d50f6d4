import Foundation
import ObserverHarnessTesting
import Testing

@testable import ObserverHarness

/// A temporary golden folder with one scenario.
private func makeGoldenFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let scenario = """
        { "format": "observer-harness-scenario", "version": 1, "scenario": "twice",
          "registries": { "center": { "kind": "notification-center" } },
          "steps": [
            { "op": "create", "object": "screen" },
            { "op": "observe", "registry": "center", "observer": "screen", "channel": "Ping", "handler": [] },
            { "op": "observe", "registry": "center", "observer": "screen", "channel": "Ping", "handler": [] },
            { "op": "post", "registry": "center", "channel": "Ping" } ] }
        """
    try Data(scenario.utf8).write(to: folder.appendingPathComponent("twice.scenario.json"))
    return folder
}

@Test func goldenCheckListsAMissingReport() throws {
    let folder = try makeGoldenFolder()
    #expect(GoldenDirectory(folder).check() == [.missingReport(scenario: "twice.scenario.json")])
}

@Test func goldenUpdateWritesReportsThatThenMatch() throws {
    let folder = try makeGoldenFolder()
    #expect(GoldenDirectory(folder).update() == [.written(report: "twice.report.json")])
    #expect(GoldenDirectory(folder).check() == [.matched(scenario: "twice.scenario.json")])
    // A second update changes nothing.
    #expect(GoldenDirectory(folder).update() == [.matched(scenario: "twice.scenario.json")])
}

@Test func goldenCheckShowsAUnifiedDiffOnMismatch() throws {
    let folder = try makeGoldenFolder()
    _ = GoldenDirectory(folder).update()
    let report = folder.appendingPathComponent("twice.report.json")
    let edited = try String(contentsOf: report, encoding: .utf8).replacingOccurrences(
        of: "\"errors\": 1", with: "\"errors\": 0")
    try Data(edited.utf8).write(to: report)
    let entries = GoldenDirectory(folder).check()
    guard case .mismatched(let scenario, let diff)? = entries.first else {
        Issue.record("expected a mismatch, got \(entries)")
        return
    }
    #expect(scenario == "twice.scenario.json")
    #expect(diff.contains("--- twice.report.json (golden)"))
    #expect(diff.contains("-    \"errors\": 0,"))
    #expect(diff.contains("+    \"errors\": 1,"))
    #expect(diff.contains("@@ -"))
}

@Test func goldenCheckListsOrphanedReports() throws {
    let folder = try makeGoldenFolder()
    try Data("{}".utf8).write(to: folder.appendingPathComponent("gone.report.json"))
    #expect(GoldenDirectory(folder).check().contains(.orphanedReport(report: "gone.report.json")))
}

@Test func unifiedDiffCollapsesUnchangedRunsIntoHunks() {
    let expected = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
    let actual = expected.replacingOccurrences(of: "line 3\n", with: "line three\n")
        .replacingOccurrences(of: "line 18\n", with: "line eighteen\n")
    let diff = LineDiff.unified(expected: expected, actual: actual, expectedLabel: "a", actualLabel: "b")
    #expect(diff.components(separatedBy: "\n@@ ").count == 3, "two separate hunks")
    #expect(!diff.contains("line 10"), "unchanged lines far from a change are collapsed")
    #expect(diff.contains("-line 3\n+line three"))
}

@Test func recordModeMissingWritesAMissingFileAndNeverOverwrites() throws {
    let folder = try makeGoldenFolder()
    let report = Report(scenario: "x", eventCount: 1, replays: 1, findings: [])
    withKnownIssue("recording always reports, so it never passes silently") {
        assertGolden(report, named: "x", directory: folder, record: .missing)
    }
    let file = GoldenFile(folder.appendingPathComponent("x.report.json"))
    #expect(file.compare(report.jsonText()) == .matches)
    // A different report with .missing: not rewritten, reported as a diff.
    let changed = Report(scenario: "y", eventCount: 1, replays: 1, findings: [])
    withKnownIssue("a mismatch fails") {
        assertGolden(changed, named: "x", directory: folder, record: .missing)
    }
    #expect(file.compare(report.jsonText()) == .matches)
}

@Test func recordModeNeverFailsOnAMissingFileWithoutWriting() throws {
    let folder = try makeGoldenFolder()
    let report = Report(scenario: "x", eventCount: 1, replays: 1, findings: [])
    withKnownIssue("missing golden file") {
        assertGolden(report, named: "never", directory: folder, record: .never)
    }
    #expect(GoldenFile(folder.appendingPathComponent("never.report.json")).compare("") == .missing)
}

@Test func scopedRecordModeFailedRewritesADifferentFile() throws {
    let folder = try makeGoldenFolder()
    let file = GoldenFile(folder.appendingPathComponent("scoped.report.json"))
    try file.write("old\n")
    let report = Report(scenario: "x", eventCount: 1, replays: 1, findings: [])
    withKnownIssue("recording reports") {
        withGoldenRecording(.failed) { assertGolden(report, named: "scoped", directory: folder) }
    }
    #expect(file.compare(report.jsonText()) == .matches)
}

@Test func matchingGoldenFilePasses() throws {
    let folder = try makeGoldenFolder()
    let report = Report(scenario: "x", eventCount: 1, replays: 1, findings: [])
    try GoldenFile(folder.appendingPathComponent("same.report.json")).write(report.jsonText())
    assertGolden(report, named: "same", directory: folder, record: .never)
}
