// libFuzzer entry point: the scenario parser, then the replay and exploration
// of whatever parses, then every rendering. `Fuzz/run.sh` compiles this file
// into one module with Sources/ObserverHarness, so it may use internal API.
//
// Every input must end in a report or an InputError at a real position:
// a trap, a leak of the time budget (`-timeout`) or of memory (`-rss_limit_mb`)
// is a finding.
//
// This sanitized build replays 7-70x slower than a release build (70x where
// a unit of work allocates: ASan's allocator records a stack per malloc), so
// its bounds are a tenth of the release ones, 50,000 units of work per replay
// and 200,000 per exploration: then `-timeout=10` holds every input to what a
// release build spends in well under 10 s on its whole budget, and a loop the
// bounds do not charge (2,000 dead observers delivered to on every post, say)
// still runs far past it.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    do {
        let report = try Scenario.parse(bytes, path: "fuzz.scenario.json").run(
            seed: 0, replayWorkBound: Replay.workBound / 10, explorationWorkBudget: Explorer.workBudget / 10)
        _ = report.jsonText()
        _ = report.text()
        _ = ReportSet(reports: [report]).sarifText(toolVersion: "fuzz")
    } catch {
        precondition(
            error.path == "fuzz.scenario.json" && error.line >= 1 && error.column >= 1,
            "an input error without a position: \(error)")
    }
    return 0
}
