// libFuzzer entry point: the trace reader, then the analysis of whatever it
// reads, then every rendering (what `harness-cli analyze` does). `Fuzz/run.sh`
// compiles this file into one module with Sources/ObserverHarness.
//
// With OBSERVER_HARNESS_TRACE_SEEDS=DIR set, the binary instead writes seed
// traces to DIR — the baseline replay of every `*.scenario.json` under the
// folders it is given as arguments — and exits: the corpus comes from Golden/
// without a second build of the library.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Data(bytes: $0, count: count) } ?? Data()
    do {
        let trace = try Recording.readTrace(bytes, path: "fuzz.trace.jsonl")
        let report = trace.analyze()
        _ = report.jsonText()
        _ = report.text()
        _ = ReportSet(reports: [report]).sarifText(toolVersion: "fuzz")
        for warning in trace.warnings { precondition(warning.line >= 1, "a warning without a line: \(warning)") }
    } catch {
        precondition(
            error.path == "fuzz.trace.jsonl" && error.line >= 1 && error.column >= 1,
            "an input error without a position: \(error)")
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initializeTraceFuzzer(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
)
    -> CInt
{
    guard let output = ProcessInfo.processInfo.environment["OBSERVER_HARNESS_TRACE_SEEDS"] else { return 0 }
    let folders = (1..<Int(argc.pointee)).compactMap { argv.pointee[$0].map { String(cString: $0) } }
    var written = 0
    for folder in folders {
        let golden = GoldenDirectory(URL(fileURLWithPath: folder))
        for file in golden.scenarioFiles() {
            guard let scenario = try? Scenario.load(contentsOf: file),
                let result = try? Replay(scenario, schedule: Schedule()).run()
            else { continue }
            let name = golden.relativePath(file).replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: ".scenario.json", with: ".trace.jsonl")
            let target = URL(fileURLWithPath: output).appendingPathComponent(name)
            guard (try? result.recording.traceData(name: scenario.name).write(to: target)) != nil else { continue }
            written += 1
        }
    }
    print("wrote \(written) seed traces to \(output)")
    exit(written > 0 ? 0 : 1)
}
