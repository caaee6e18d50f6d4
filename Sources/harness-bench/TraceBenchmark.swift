import Foundation
import ObserverHarness

/// Section 4: trace write and read throughput, and the wall time of the real
/// `harness-cli analyze` on the same trace.
struct TraceBenchmark {
    struct Result {
        /// The size asked for, and the events recorded (whole sessions, a few more).
        let size: Int
        let events: Int
        let bytes: Int
        let writePerSecond: Double
        let readPerSecond: Double
        /// nil when `harness-cli` is not built next to harness-bench.
        let cliSeconds: Double?
        let cliNote: String?
    }

    let options: BenchOptions

    func run(recording given: Recording?) throws -> Result {
        let recording = given ?? AppWorkload.recording(events: options.traceEvents)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("harness-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("app.trace.jsonl")

        let writeSeconds = try Stopwatch.median(runs: options.traceRuns) {
            try Stopwatch.seconds { try recording.writeTrace(to: url, name: "app") }
        }
        var readCount = 0
        let readSeconds = try Stopwatch.median(runs: options.traceRuns) {
            try Stopwatch.seconds { readCount = try Recording.readTrace(from: url).recording.eventCount }
        }
        if readCount != recording.eventCount {
            FileHandle.standardError.write(Data(
                "harness-bench: read \(readCount) events back, wrote \(recording.eventCount)\n".utf8))
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        let (cliSeconds, cliNote) = cliWallTime(trace: url)
        return Result(size: options.traceEvents, events: recording.eventCount, bytes: bytes,
                      writePerSecond: Double(recording.eventCount) / writeSeconds,
                      readPerSecond: Double(recording.eventCount) / readSeconds,
                      cliSeconds: cliSeconds, cliNote: cliNote)
    }

    /// Median wall time of `harness-cli analyze TRACE --format json` (output
    /// discarded), process start to exit.
    private func cliWallTime(trace: URL) -> (Double?, String?) {
        guard let cli = Platform.harnessCLI else {
            return (nil, "harness-cli is not built next to harness-bench (run `swift build -c release` first)")
        }
        var failure: String?
        let seconds = Stopwatch.median(runs: options.cliRuns) {
            let process = Process()
            process.executableURL = cli
            process.arguments = ["analyze", trace.path, "--format", "json", "--fail-on", "never"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return Stopwatch.seconds {
                do {
                    try process.run()
                    process.waitUntilExit()
                    if process.terminationStatus != 0 { failure = "harness-cli exited with \(process.terminationStatus)" }
                } catch {
                    failure = "cannot run harness-cli: \(error)"
                }
            }
        }
        return failure == nil ? (seconds, nil) : (nil, failure)
    }
}
