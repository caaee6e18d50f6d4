// libFuzzer entry point: the report reader (`harness-cli merge`), then every
// rendering of what it reads. `Fuzz/run.sh` compiles this file into one module
// with Sources/ObserverHarness.
//
// Every input must end in a report set or an InputError at a real position,
// and a report set written as JSON must read back to the same JSON.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    do {
        let set = try ReportSet.parse(bytes, path: "fuzz.report.json")
        let json = set.jsonText()
        _ = set.text()
        _ = set.sarifText(toolVersion: "fuzz")
        _ = set.junitText(failingAt: .note)
        _ = Baseline(set).jsonText()
        let again = try ReportSet.parse(Array(json.utf8), path: "written.json")
        precondition(again.jsonText() == json, "a written report set does not read back as written")
    } catch {
        precondition(
            error.path == "fuzz.report.json" && error.line >= 1 && error.column >= 1,
            "an input error without a position: \(error)")
    }
    return 0
}
