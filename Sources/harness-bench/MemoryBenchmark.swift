import Foundation
import ObserverHarness

/// Section 2: memory per recorded event of the app mix, from the recorder's
/// own accounting and from the peak resident set.
///
/// The recording is made in a child process (this executable with
/// `--measure-memory N`), so the peak resident set is the recording's and not
/// what earlier sections left behind: (VmHWM after − VmRSS before) / events.
struct MemoryBenchmark {
    struct Result {
        let events: Int
        /// The recorder's accounting: event chunks plus estimated tables.
        let recorderBytesPerEvent: Double
        let eventBytesPerEvent: Double
        /// Peak resident set growth while recording, per event; nil when the
        /// child could not be run.
        let peakRSSBytesPerEvent: Double?
    }

    let options: BenchOptions

    func run() -> Result {
        let events = options.memoryEvents
        if let child = runChild(events: events) { return child }
        // No child process: measure here; RSS would include earlier sections, so leave it out.
        let measured = Self.measure(events: events)
        return Result(
            events: measured.footprint.events, recorderBytesPerEvent: measured.footprint.bytesPerEvent,
            eventBytesPerEvent: measured.eventBytesPerEvent, peakRSSBytesPerEvent: nil)
    }

    private func runChild(events: Int) -> Result? {
        guard let executable = Platform.executableURL else { return nil }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--measure-memory", String(events)]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        // One line: events recorderBytesPerEvent eventBytesPerEvent rssBefore rssPeak
        let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard fields.count == 5, let recorded = Int(fields[0]), let recorder = Double(fields[1]),
            let eventBytes = Double(fields[2]), let before = Int(fields[3]), let peak = Int(fields[4])
        else {
            return nil
        }
        return Result(
            events: recorded, recorderBytesPerEvent: recorder, eventBytesPerEvent: eventBytes,
            peakRSSBytesPerEvent: Double(peak - before) / Double(recorded))
    }

    /// The child's side: record, then print one line for `runChild`.
    static func childMain(events: Int) {
        let before = Platform.residentBytes().current
        let measured = measure(events: events)
        let peak = Platform.residentBytes().peak
        let footprint = measured.footprint
        print(footprint.events, footprint.bytesPerEvent, measured.eventBytesPerEvent, before, peak)
    }

    private static func measure(events: Int) -> (footprint: MemoryFootprint, eventBytesPerEvent: Double) {
        var workload = AppWorkload(name: "memory")
        workload.record(events: events)
        let footprint = workload.harness.memoryFootprint
        return (footprint, Double(footprint.eventBytes) / Double(max(footprint.events, 1)))
    }
}
