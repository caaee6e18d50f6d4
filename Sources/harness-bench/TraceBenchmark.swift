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
        /// The general JSON parser alone (`JSONParser.parseValue`), one trace line at a time.
        let parsePerSecond: Double
        /// nil when `harness-cli` is not built next to harness-bench.
        let cliSeconds: Double?
        let cliNote: String?
        /// `harness-cli analyze`'s peak RSS less that of analysing a one-event
        /// trace (the runtime's own), per event.
        let cliPeakBytesPerEvent: Double?
        /// The same measure on each of ``TraceShape``'s traces.
        let shapes: [ShapeRow]
    }

    struct ShapeRow {
        let shape: TraceShape
        let events: Int
        let cliPeakBytesPerEvent: Double?
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
            FileHandle.standardError.write(
                Data(
                    "harness-bench: read \(readCount) events back, wrote \(recording.eventCount)\n".utf8))
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        let lines = try Data(contentsOf: url).split(separator: UInt8(ascii: "\n")).map { Array($0) }
        var parsed = 0
        let parseSeconds = Stopwatch.median(runs: options.traceRuns) {
            Stopwatch.seconds {
                parsed = 0
                for line in lines where (try? JSONParser.parseValue(line)) != nil { parsed += 1 }
            }
        }
        if parsed != lines.count {
            FileHandle.standardError.write(Data("harness-bench: parsed \(parsed) of \(lines.count) trace lines\n".utf8))
        }
        let (cliSeconds, cliNote) = cliWallTime(trace: url)
        let tiny = directory.appendingPathComponent("tiny.trace.jsonl")
        let one = Harness(name: "tiny")
        one.notificationCenter().post(name: Notification.Name("Tick"), object: nil)
        try one.writeTrace(to: tiny)
        let base = cliPeakResident(trace: tiny)
        /// Peak RSS over the one-event trace's, per event.
        func peakPerEvent(_ trace: URL, events: Int) -> Double? {
            guard let base, let peak = cliPeakResident(trace: trace) else { return nil }
            return Double(peak - base) / Double(events)
        }
        let cliPeak = peakPerEvent(url, events: recording.eventCount)
        var shapes: [ShapeRow] = []
        for shape in TraceShape.allCases {
            let shapeURL = directory.appendingPathComponent("\(shape.rawValue).trace.jsonl")
            let events = try shape.write(events: options.shapeEvents(shape), to: shapeURL)
            shapes.append(
                ShapeRow(shape: shape, events: events, cliPeakBytesPerEvent: peakPerEvent(shapeURL, events: events)))
            try? FileManager.default.removeItem(at: shapeURL)
        }
        return Result(
            size: options.traceEvents, events: recording.eventCount, bytes: bytes,
            writePerSecond: Double(recording.eventCount) / writeSeconds,
            readPerSecond: Double(recording.eventCount) / readSeconds,
            parsePerSecond: Double(lines.count) / parseSeconds,
            cliSeconds: cliSeconds, cliNote: cliNote, cliPeakBytesPerEvent: cliPeak, shapes: shapes)
    }

    /// `harness-cli analyze TRACE`'s peak RSS in bytes, measured by a child
    /// harness-bench whose only child it is.
    private func cliPeakResident(trace: URL) -> Int? {
        guard Platform.harnessCLI != nil, let executable = Platform.executableURL else { return nil }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--measure-cli-memory", trace.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The child's side of ``cliPeakResident(trace:)``: prints the peak RSS.
    static func cliMemoryChildMain(trace: String) -> Int32 {
        guard let cli = Platform.harnessCLI else { return 1 }
        let process = Process()
        process.executableURL = cli
        process.arguments = ["analyze", trace, "--format", "json", "--fail-on", "never"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return 1 }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return 1 }
        print(Platform.childrenPeakResidentBytes())
        return 0
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
                    if process.terminationStatus != 0 {
                        failure = "harness-cli exited with \(process.terminationStatus)"
                    }
                } catch {
                    failure = "cannot run harness-cli: \(error)"
                }
            }
        }
        return failure == nil ? (seconds, nil) : (nil, failure)
    }
}
