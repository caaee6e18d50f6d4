import Foundation
import ObserverHarness
import ObserverHarnessTesting
import ScopeJourneyApp
import Testing

/// What a twin's run must show: its rule at its marked line and no other
/// warning or error, or, for a near miss, no finding at all (notes included).
func twinFailures(_ twin: RuleTwin, _ report: Report) -> [String] {
    let got = report.findings.map { "\($0.rule) at \($0.site.map { "\($0.file):\($0.line)" } ?? "-"): \($0.message)" }
    guard let line = twin.line else { return report.findings.isEmpty ? [] : ["expected no finding: \(got)"] }
    let atLine = report.findings.filter {
        $0.rule == twin.rule && $0.site?.file == "ScopeJourneyApp/RuleTwins.swift" && $0.site?.line == line
    }
    // Notes of other rules may come with a bug (an observer dying registered).
    let others = report.findings.filter { $0.rule != twin.rule && $0.severity > .note }
    guard atLine.count == 1, report.findings.filter({ $0.rule == twin.rule }).count == 1, others.isEmpty else {
        return ["expected one \(twin.rule) at RuleTwins.swift:\(line) and nothing else but notes: \(got)"]
    }
    return []
}

/// The hooks a twin uses, on the running test's harness.
func twinHooks(_ harness: Harness) -> TwinHooks {
    TwinHooks(
        track: { harness.track($0) }, release: { harness.noteReleased($0) }, settle: { await harness.settle() })
}

/// Every rule page's example, live: each twin runs `runs` times, each run
/// under its own harness through the trait, in parallel with the others
/// and with its timing disturbed; the verdict is the same every run.
@Suite struct RuleTwinTests {
    static let runs = 50

    @Test(
        // Every finding in the twins' app is judged by `twinFailures`.
        .observerHarness(failingAt: .note, allowing: [.site("ScopeJourneyApp/RuleTwins.swift")]),
        arguments: RuleTwins.all, 0..<runs)
    func everyRunOfATwinHasTheSameVerdict(_ twin: RuleTwin, run: Int) async throws {
        let harness = try #require(Harness.current)
        await twin.run(twinHooks(harness))
        await harness.settle()
        for failure in twinFailures(twin, harness.analyze()) { Issue.record(Comment(rawValue: failure)) }
    }
}
