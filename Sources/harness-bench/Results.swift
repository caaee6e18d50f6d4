import Foundation

/// Everything one run measured, and how it compares with the targets.
struct Results {
    // Empty or nil: the section was not run (`--only`).
    var post: [PostBenchmark.Row] = []
    var bridge: BridgeBenchmark.Result?
    var small: SmallTestBenchmark.Result?
    var trait: TraitBenchmark.Result?
    var memory: MemoryBenchmark.Result?
    var analysis: [AnalysisBenchmark.Row] = []
    var trace: TraceBenchmark.Result?
    var replays: [ReplayBenchmark.Row] = []
    var interface: [InterfaceBenchmark.Row] = []
    var store: [StoreShapeBenchmark.Row] = []
    var growth: SuiteGrowthBenchmark.Result?

    struct Target {
        let description: String
        let measured: String
        let met: Bool?
    }

    /// The targets, each with what this run measured.
    var targets: [Target] {
        var targets: [Target] = []
        if let row = post.first(where: { $0.observers == 10 }) {
            let vsFoundation = row.foundationNanoseconds / row.instrumentedNanoseconds
            let vsPlain = row.instrumentedNanoseconds / row.plainNanoseconds
            targets.append(
                Target(
                    description: "post, N = 10: instrumented at least 2.5x faster than Foundation",
                    measured: format(vsFoundation, "%.1fx as fast"), met: vsFoundation >= 2.5))
            targets.append(
                Target(
                    description: "post, N = 10: instrumented within 1.5x of the closure array",
                    measured: format(vsPlain, "%.1fx the closure array"), met: vsPlain <= 1.5))
        }
        if let row = post.first(where: { $0.observers == 1 }) {
            let ratio = row.routedNanoseconds / row.foundationNanoseconds
            targets.append(
                Target(
                    description: "post, N = 1: Observers.center under a harness within 2x of Foundation",
                    measured: format(ratio, "%.2fx Foundation"), met: ratio <= 2))
        }
        for row in post where row.observers >= 10 {
            let ratio = row.routedNanoseconds / row.foundationNanoseconds
            targets.append(
                Target(
                    description: "post, N = \(row.observers): Observers.center under a harness below Foundation",
                    measured: format(ratio, "%.2fx Foundation"), met: ratio < 1))
        }
        if let small {
            // A debug build (what `swift test` makes of a dependency) has a target of its own.
            #if DEBUG
                let (build, bound) = ("debug", 50.0)
            #else
                let (build, bound) = ("release", 10.0)
            #endif
            targets.append(
                Target(
                    description: "small test (\(build)): at most \(Int(bound)) us more than on Foundation",
                    measured: format(small.overheadMicroseconds, "%.1f us"),
                    met: small.overheadMicroseconds <= bound))
        }
        if let growth {
            targets.append(
                Target(
                    description: "a long suite: its last tests cost at most 1.2x its first (CPU)",
                    measured: format(growth.ratio, "%.2fx"), met: growth.ratio <= 1.2))
        }
        if let trait {
            targets.append(
                Target(
                    description: "test trait, small test: at most 12 us more than without it",
                    measured: format(trait.smallOverheadMicroseconds, "%.1f us"),
                    met: trait.smallOverheadMicroseconds <= 12))
        }
        if let memory {
            targets.append(
                Target(
                    description: "at most 48 bytes per recorded event (recorder's accounting)",
                    measured: format(memory.recorderBytesPerEvent, "%.1f B"),
                    met: memory.recorderBytesPerEvent <= 48))
        }
        if let rss = memory?.peakRSSBytesPerEvent {
            targets.append(
                Target(
                    description: "at most 48 bytes per recorded event (peak RSS)",
                    measured: format(rss, "%.1f B"), met: rss <= 48))
        }
        if let slowest = analysis.map(\.perSecond).min() {
            targets.append(
                Target(
                    description: "analysis at least 5 M events/s",
                    measured: format(slowest / 1e6, "%.1f M/s at the slowest size"),
                    met: slowest >= 5e6))
        }
        if let largest = analysis.last, largest.size >= 10_000_000 {
            targets.append(
                Target(
                    description: "analysis at least 10 M events/s at 10^7 events",
                    measured: format(largest.perSecond / 1e6, "%.1f M/s"),
                    met: largest.perSecond >= 10e6))
        }
        if let first = analysis.first, let last = analysis.last, analysis.count > 1 {
            let growth = first.perSecond / last.perSecond
            targets.append(
                Target(
                    description: "analysis linear in events (time per event grows < 1.5x)",
                    measured: format(
                        growth, "%.2fx time per event, \(sizeLabel(first.size)) to \(sizeLabel(last.size))"),
                    met: growth < 1.5))
        }
        if let trace {
            targets.append(
                Target(
                    description: "trace read at least 1 M events/s",
                    measured: format(trace.readPerSecond / 1e6, "%.1f M/s"),
                    met: trace.readPerSecond >= 1e6))
            targets.append(
                Target(
                    description: "harness-cli analyze of \(sizeLabel(trace.size)) events in at most 2 s",
                    measured: trace.cliSeconds.map { format($0, "%.2f s") } ?? (trace.cliNote ?? "not run"),
                    met: trace.cliSeconds.map { $0 <= 2 }))
            targets.append(
                Target(
                    description: "harness-cli analyze: at most 64 B of peak RSS per event",
                    measured: trace.cliPeakBytesPerEvent.map { format($0, "%.1f B") } ?? "not measured",
                    met: trace.cliPeakBytesPerEvent.map { $0 <= 64 }))
            for row in trace.shapes {
                targets.append(
                    Target(
                        description:
                            "harness-cli analyze, \(row.shape.rawValue) trace: at most 64 B of peak RSS per event",
                        measured: row.cliPeakBytesPerEvent.map { format($0, "%.1f B") } ?? "not measured",
                        met: row.cliPeakBytesPerEvent.map { $0 <= 64 }))
            }
        }
        targets += bridgeTargets
        targets += interfaceTargets
        targets += storeTargets
        guard let first = replays.first, let last = replays.last else { return targets }
        let most = replays.map(\.replays).max() ?? 0
        let measured =
            (Set(replays.map(\.replays)).count == 1 ? "\(most) at every n" : "at most \(most)")
            + " (bound \(first.bound) at n = \(first.receivers) to \(last.bound) at n = \(last.receivers))"
        targets.append(
            Target(
                description: "at most 2 + 2*ceil(log2 n) replays for one conflicting pair",
                measured: measured, met: replays.allSatisfy { $0.found && $0.replays <= $0.bound }))
        return targets
    }
}

func format(_ value: Double, _ pattern: String) -> String {
    String(format: pattern, value)
}

/// A size as "10^5" when it is a power of ten (or whole sessions past one), else as it is.
func sizeLabel(_ events: Int) -> String {
    var power = 0, scale = 1
    while scale * 10 <= events { scale *= 10; power += 1 }
    return power >= 3 && events - scale < scale / 100 ? "10^\(power)" : String(events)
}
