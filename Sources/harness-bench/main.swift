// harness-bench: measures ObserverHarness against its performance targets
// (BENCHMARKS.md). Run a release build; `--quick` is what CI runs.
import Foundation
import ObserverHarness

let options: BenchOptions
do {
    options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
if options.help {
    print(BenchOptions.usage)
    exit(0)
}
if case .measureMemory(let events) = options.mode {
    MemoryBenchmark.childMain(events: events)
    exit(0)
}
if case .writeTrace(let events, let path, let shape) = options.mode {
    do {
        let url = URL(fileURLWithPath: path)
        if let shape {
            _ = try shape.write(events: events, to: url)
        } else {
            try AppWorkload.recording(events: events).writeTrace(to: url, name: "app")
        }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("harness-bench: error: \(error)\n".utf8))
        exit(1)
    }
}
if case .measureCLIMemory(let trace) = options.mode {
    exit(TraceBenchmark.cliMemoryChildMain(trace: trace))
}

/// Progress goes to standard error so `--json` output stays clean.
func progress(_ text: String) {
    FileHandle.standardError.write(Data("harness-bench: \(text)\n".utf8))
}

do {
    var results = Results()
    let sections = options.sections
    func starting(_ section: BenchOptions.Section, _ what: String) -> Bool {
        guard let index = sections.firstIndex(of: section) else { return false }
        progress("\(index + 1)/\(sections.count) \(what)")
        return true
    }
    if starting(.post, "post cost") {
        results.post = PostBenchmark(options: options).run()
    }
    if starting(.bridge, "posts on Foundation's default center once names are bridged") {
        results.bridge = BridgeBenchmark(options: options).run()
    }
    if starting(.small, "small-test overhead") {
        results.small = SmallTestBenchmark(options: options).run()
    }
    if starting(.trait, "test-trait cost per test") {
        results.trait = TraitBenchmark(options: options).run()
    }
    if starting(.memory, "memory per event (\(sizeLabel(options.memoryEvents)) events in a child process)") {
        results.memory = MemoryBenchmark(options: options).run()
    }
    var traceRecording: Recording?
    if starting(.analysis, "analysis throughput") {
        (results.analysis, traceRecording) = AnalysisBenchmark(options: options).run()
    }
    if starting(.trace, "trace write/read and harness-cli analyze") {
        results.trace = try TraceBenchmark(options: options).run(recording: traceRecording)
    }
    if starting(.replays, "replays") {
        results.replays = try ReplayBenchmark(options: options).run()
    }
    if starting(.interface, "the interface product's cost per call") {
        results.interface = InterfaceBenchmark(options: options).run()
    }
    if starting(.store, "the store shape: n weak subscribers, subscribed 11 times, 10 changes") {
        results.store = StoreShapeBenchmark(options: options).run()
    }
    if starting(.growth, "a long suite: the last tests, after many call sites, against the first") {
        results.growth = SuiteGrowthBenchmark(options: options).run()
    }
    print(
        options.json ? results.json : results.table(machine: Machine.description, judged: !options.isQuick),
        terminator: "")
} catch {
    FileHandle.standardError.write(Data("harness-bench: error: \(error)\n".utf8))
    exit(1)
}
