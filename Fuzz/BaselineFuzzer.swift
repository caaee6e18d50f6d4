// libFuzzer entry point: the baseline reader (`--baseline FILE`), then writing
// what it read and applying it. `Fuzz/run.sh` compiles this file into one
// module with Sources/ObserverHarness.
//
// Every input must end in a baseline or an InputError at a real position, and
// a baseline written out must read back to the same text.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBaseline(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    do {
        let baseline = try Baseline.parse(bytes, path: "fuzz.baseline.json")
        let text = baseline.jsonText()
        let again = try Baseline.parse(Array(text.utf8), path: "written.json")
        precondition(again.jsonText() == text, "a written baseline does not read back as written")
        let finding = Finding(rule: "broadcast-as-command", severity: .error, message: "m")
        let set = ReportSet(reports: [Report(scenario: "s", eventCount: 1, replays: 1, findings: [finding])])
        _ = set.applying(baseline).jsonText()
    } catch {
        precondition(
            error.path == "fuzz.baseline.json" && error.line >= 1 && error.column >= 1,
            "an input error without a position: \(error)")
    }
    return 0
}
