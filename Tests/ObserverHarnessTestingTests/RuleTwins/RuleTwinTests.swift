import Foundation
import ObserverHarness
import ObserverHarnessTesting
import ScopeJourneyApp
import Testing

/// A finding as a twin's verdict reads it: from the harness's report, or
/// from the order check the twin ran.
struct TwinFinding {
    let rule: String
    let severity: Severity
    let site: CallSite?
    let message: String

    init(_ finding: Finding) {
        (rule, severity, site, message) = (finding.rule, finding.severity, finding.site, finding.message)
    }
    init(rule: String, severity: Severity, site: CallSite?, message: String) {
        (self.rule, self.severity, self.site, self.message) = (rule, severity, site, message)
    }
}

/// What a twin's run must show: its rule at its marked line and no other
/// warning or error, or, for a near miss, no finding at all (notes included).
/// `besideOthers` says whether the run's test may run beside others (the
/// trait's), which a twin `onlyBesideOthers` needs to show its bug.
func twinFailures(_ twin: RuleTwin, _ findings: [TwinFinding], besideOthers: Bool) -> [String] {
    let got = findings.map { "\($0.rule) at \($0.site.map { "\($0.file):\($0.line)" } ?? "-"): \($0.message)" }
    guard let line = twin.line, besideOthers || !twin.onlyBesideOthers else {
        return findings.isEmpty ? [] : ["expected no finding: \(got)"]
    }
    let atLine = findings.filter { $0.rule == twin.rule && $0.site?.file == twin.file && $0.site?.line == line }
    // Notes of other rules may come with a bug (an observer dying registered).
    let others = findings.filter { $0.rule != twin.rule && $0.severity > .note }
    guard atLine.count == 1, findings.filter({ $0.rule == twin.rule }).count == 1, others.isEmpty else {
        return ["expected one \(twin.rule) at \(twin.file):\(line) and nothing else but notes: \(got)"]
    }
    return []
}

/// One run of a twin under `harness`, the test's: the findings its report
/// and its order checks give. The twin does what its rule page asks of a
/// test (settling where the rule needs it), and nothing more.
func runTwin(_ twin: RuleTwin, under harness: Harness) async -> [TwinFinding] {
    let orderFindings = OrderFindings()
    let hooks = TwinHooks(
        track: { harness.track($0) }, release: { harness.noteReleased($0) }, settle: { await harness.settle() },
        noteAction: { key, value in harness.noteAction(value.map { .set(key, value: $0) } ?? .increment(key)) },
        checkOrder: { body in
            orderFindings.add(checkOrderIndependence { order in body(Harness().notificationCenter(order: order)) })
        })
    await twin.run(hooks)
    return harness.analyze().findings.map(TwinFinding.init) + orderFindings.all
}

/// What the order checks of one run found, as findings: a dependence at its
/// first receiver's registration, and what the budget left untried at the
/// post it names.
final class OrderFindings: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [TwinFinding] = []
    var all: [TwinFinding] { lock.withLock { found } }

    func add(_ check: OrderIndependenceCheck<Int>) {
        var new = check.dependences.map {
            TwinFinding(rule: "ordering-dependence", severity: .error, site: $0.receivers.first?.site, message: $0.post)
        }
        if let unexplored = check.unexplored {
            // "\"Twins.StockChanged\" posted at ScopeJourneyApp/RuleTwinPages.swift:123"
            let site = unexplored.split(separator: " ").last.flatMap { text -> CallSite? in
                let parts = text.split(separator: ":")
                guard parts.count == 2, let line = Int(parts[1]) else { return nil }
                return CallSite(file: String(parts[0]), line: line)
            }
            new.append(TwinFinding(rule: "exploration-limit", severity: .note, site: site, message: unexplored))
        }
        lock.withLock { found += new }
    }
}

/// The twins' app files: every finding there is judged by `twinFailures`.
/// So is every `escaped-test-scope` note: a registration for every name
/// (`wildcard-misses-foundation-posts`'s bug) also hears other suites'
/// posts that no test owns, each a note at that suite's line.
let twinSites: [FindingAllowance] = [
    .site("ScopeJourneyApp/RuleTwins.swift"), .site("ScopeJourneyApp/RuleTwinPages.swift"),
    .rule("escaped-test-scope"),
]

/// One run of a twin in a table.
struct TwinRun: Sendable, CustomTestStringConvertible {
    let twin: RuleTwin
    let run: Int
    var testDescription: String { "\(twin), run \(run)" }

    /// Each twin `runs` times (or its `runsAtMost`).
    static func table(_ runs: Int) -> [TwinRun] {
        RuleTwins.all.flatMap { twin in (0..<min(runs, twin.runsAtMost)).map { TwinRun(twin: twin, run: $0) } }
    }
}

/// One run of a twin in a trait test: its verdict, as issues.
func check(_ run: TwinRun) async throws {
    let harness = try #require(Harness.current)
    let findings = await runTwin(run.twin, under: harness)
    for failure in twinFailures(run.twin, findings, besideOthers: true) { Issue.record(Comment(rawValue: failure)) }
}

/// Every rule page's example, live: each twin runs `runs` times, each run
/// under its own harness through the trait, in parallel with the others
/// and with its timing disturbed; the verdict is the same every run.
@Suite struct RuleTwinTests {
    static let runs = 50

    @Test(
        .observerHarness(failingAt: .note, allowing: twinSites),
        arguments: TwinRun.table(runs))
    func everyRunOfATwinHasTheSameVerdict(_ run: TwinRun) async throws { try await check(run) }
}

/// The same table one run at a time, through the trait: a twin's verdict
/// does not depend on the others running beside it.
@Suite(.serialized) struct SerializedRuleTwinTests {
    static let runs = 50

    @Test(
        .observerHarness(failingAt: .note, allowing: twinSites),
        arguments: TwinRun.table(runs))
    func everyRunOfATwinAloneHasTheSameVerdict(_ run: TwinRun) async throws { try await check(run) }
}
