import Foundation
import ObserverHarness
import ObserverHarnessTesting
import ScopeJourneyApp
import Testing

/// What a twin's run must show: its rule at its marked line and nothing
/// else a test fails on, or, for a near miss, no finding at all.
func twinFailures(_ twin: RuleTwin, _ report: Report) -> [String] {
    let failing = report.findings.filter { $0.severity >= .warning }
    guard let line = twin.line else {
        return report.findings.isEmpty ? [] : ["expected no finding: \(report.findings.map(\.message))"]
    }
    let atLine = failing.filter {
        $0.rule == twin.rule && $0.site?.file == "ScopeJourneyApp/RuleTwins.swift" && $0.site?.line == line
    }
    guard atLine.count == 1, failing.count == 1 else {
        let got = failing.map { "\($0.rule) at \($0.site.map { "\($0.file):\($0.line)" } ?? "-"): \($0.message)" }
        return ["expected one \(twin.rule) at RuleTwins.swift:\(line): \(got)"]
    }
    return []
}

/// The hooks a twin uses, on the running test's harness.
func twinHooks(_ harness: Harness) -> TwinHooks {
    TwinHooks(release: { harness.noteReleased($0) }, settle: { await harness.settle() })
}

/// Every rule page's example, live: each twin runs `runs` times, each run
/// under its own harness through the trait, in parallel with the others
/// and with its timing disturbed; the verdict is the same every run.
@Suite struct RuleTwinTests {
    static let runs = 50

    @Test(
        .observerHarness(allowing: RuleTwins.all.map { FindingAllowance.rule($0.rule) }),
        arguments: RuleTwins.all, 0..<runs)
    func everyRunOfATwinHasTheSameVerdict(_ twin: RuleTwin, run: Int) async throws {
        let harness = try #require(Harness.current)
        await twin.run(twinHooks(harness))
        await harness.settle()
        for failure in twinFailures(twin, harness.analyze()) { Issue.record(Comment(rawValue: failure)) }
    }
}
