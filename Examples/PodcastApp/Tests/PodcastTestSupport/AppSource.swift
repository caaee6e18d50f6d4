import Foundation

/// Where the app's sources are, found from this file's path so the tests run
/// from any working directory.
public func appSourcesFolder(_ file: String = #filePath) -> URL {
    URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Podcast")
}

/// The 1-based line of `file` (in the app's sources) holding `marker`, so the
/// line a test expects follows the code when it is edited. Nil when no line
/// has it, or more than one does.
public func appSourceLine(containing marker: String, in file: String) -> Int? {
    guard let text = try? String(contentsOf: appSourcesFolder().appendingPathComponent(file), encoding: .utf8)
    else { return nil }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let hits = lines.indices.filter { lines[$0].hasSuffix(marker) }
    return hits.count == 1 ? hits[0] + 1 : nil
}
