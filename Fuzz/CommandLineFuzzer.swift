// libFuzzer entry point: the command line's parser. The input is the words
// after `harness-cli`, separated by NUL bytes (as argv is). `Fuzz/run.sh`
// compiles this file with Sources/harness-cli/Arguments.swift and Usage.swift,
// without the library: parsing touches no file.
//
// Every input must parse, or end in `<command line>:1:COLUMN: error: …` with
// the column inside the line (or just past its end) and a usage to show.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let words =
        count == 0
        ? []
        : bytes.split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    do {
        let arguments = try Arguments.parse(words)
        if case .help(let topic) = arguments.command { _ = topic?.text ?? CommandUsage.overview }
    } catch {
        let line = "harness-cli " + words.joined(separator: " ")
        let prefix = "<command line>:1:"
        let diagnostic = error.diagnostic(words)
        precondition(diagnostic.hasPrefix(prefix), "not a command-line diagnostic: \(diagnostic)")
        let column = Int(diagnostic.dropFirst(prefix.count).prefix { $0 != ":" }) ?? 0
        precondition(
            column >= 13 && column <= line.unicodeScalars.count + 2,
            "column \(column) is outside the line: \(diagnostic)")
        precondition(error.text(words).hasSuffix("\n"), "a usage error without its usage")
    }
    return 0
}
