import ObserverHarness

/// Section 3: events analysed per second (every trace rule, as `analyze()`
/// runs them) on recordings of the app mix at growing sizes.
struct AnalysisBenchmark {
    struct Row {
        /// The size asked for, and the events recorded (whole sessions, a few more).
        let size: Int
        let events: Int
        let perSecond: Double
        let findings: Int
    }

    let options: BenchOptions

    /// The rows, and the recording of `options.traceEvents` (kept for the
    /// trace section when it is one of the sizes).
    func run() -> (rows: [Row], traceRecording: Recording?) {
        var rows: [Row] = []
        var kept: Recording?
        for size in options.analysisSizes {
            let recording = AppWorkload.recording(events: size)
            if size == options.traceEvents { kept = recording }
            var findings = 0
            let seconds = Stopwatch.median(
                runs: options.analysisRuns(events: size), warmups: size >= 10_000_000 ? 0 : 1
            ) {
                Stopwatch.seconds { findings = recording.analyze(name: "app").findings.count }
            }
            rows.append(
                Row(
                    size: size, events: recording.eventCount, perSecond: Double(recording.eventCount) / seconds,
                    findings: findings))
        }
        return (rows, kept)
    }
}
