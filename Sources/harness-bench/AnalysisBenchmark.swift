import ObserverHarness

/// Section 3: events analysed per second (every trace rule, as `analyze()`
/// runs them) on recordings of the app mix at growing sizes.
struct AnalysisBenchmark {
    struct Row {
        /// The size asked for, and the events recorded (whole sessions, a few more).
        let size: Int
        let events: Int
        let perSecond: Double
        /// Events per second of this thread's CPU time (median): what the
        /// analysis costs, without the waits a loaded machine adds to wall time.
        let cpuPerSecond: Double
        /// Pages touched for the first time per event, in the median run.
        let pageFaultsPerEvent: Double
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
            var cpuSeconds: [Double] = []
            var faults: [Int] = []
            let seconds = Stopwatch.median(
                runs: options.analysisRuns(events: size), warmups: size >= 10_000_000 ? 0 : 1
            ) {
                let cpuStart = Platform.threadCPUSeconds()
                let faultsStart = Platform.minorPageFaults()
                let wall = Stopwatch.seconds { findings = recording.analyze(name: "app").findings.count }
                cpuSeconds.append(Platform.threadCPUSeconds() - cpuStart)
                faults.append(Platform.minorPageFaults() - faultsStart)
                return wall
            }
            // The warm-up's figures are left out, as its time is.
            let timed = size >= 10_000_000 ? 0 : 1
            let cpu = Stopwatch.median(Array(cpuSeconds.dropFirst(timed)))
            let pageFaults = Stopwatch.median(Array(faults.dropFirst(timed)).map(Double.init))
            rows.append(
                Row(
                    size: size, events: recording.eventCount, perSecond: Double(recording.eventCount) / seconds,
                    cpuPerSecond: Double(recording.eventCount) / cpu,
                    pageFaultsPerEvent: pageFaults / Double(recording.eventCount), findings: findings))
        }
        return (rows, kept)
    }
}
