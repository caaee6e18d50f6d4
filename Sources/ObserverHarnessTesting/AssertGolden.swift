import Foundation
import ObserverHarness

/// When golden assertions (re)write their files.
public enum GoldenRecordMode: String, Sendable {
    /// Never write; a missing or different file fails.
    case never
    /// Write files that do not exist yet.
    case missing
    /// Write files that are missing or differ.
    case failed
    /// Write every file.
    case all

    @TaskLocal static var scoped: GoldenRecordMode?

    /// The mode in force: the assertion's parameter, then a scoped
    /// ``withGoldenRecording(_:operation:)``, then `OBSERVER_HARNESS_RECORD`.
    /// With none of those, `.missing` locally and `.never` when `CI` is set:
    /// CI never records unless asked explicitly.
    static func resolve(_ explicit: GoldenRecordMode?) -> GoldenRecordMode {
        if let explicit { return explicit }
        if let scoped { return scoped }
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["OBSERVER_HARNESS_RECORD"], let mode = GoldenRecordMode(rawValue: text) {
            return mode
        }
        return environment["CI"].map { !$0.isEmpty && $0 != "0" && $0 != "false" } == true ? .never : .missing
    }

    /// A value of `OBSERVER_HARNESS_RECORD` that is no mode, when the
    /// environment decides (it then counts as unset): the assertion fails
    /// with it, as a bad `OBSERVER_HARNESS_FAIL_ON` fails every test.
    static func environmentProblem(_ explicit: GoldenRecordMode?) -> String? {
        guard explicit == nil, scoped == nil,
            let text = ProcessInfo.processInfo.environment["OBSERVER_HARNESS_RECORD"], !text.isEmpty,
            GoldenRecordMode(rawValue: text) == nil
        else { return nil }
        return "OBSERVER_HARNESS_RECORD must be never, missing, failed or all, not '\(text)': "
            + "the golden assertions record as if it were unset"
    }
}

/// Runs `operation` with golden assertions in `mode` (unless an assertion
/// passes its own).
public func withGoldenRecording<T>(_ mode: GoldenRecordMode, operation: () throws -> T) rethrows -> T {
    try GoldenRecordMode.$scoped.withValue(mode, operation: operation)
}

/// Compares a report's JSON with `NAME.report.json` in the package's
/// `Golden/` folder (or `directory`). On a mismatch the failure names the
/// file, shows a unified diff, says how to re-record, and writes the actual
/// report to the artifacts folder (`OBSERVER_HARNESS_ARTIFACTS`, default a
/// temporary folder).
public func assertGolden(
    _ report: Report, named name: String, directory: URL? = nil, record: GoldenRecordMode? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertGolden(
        text: report.jsonText(), named: name, directory: directory, record: record,
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// ``assertGolden(_:named:directory:record:fileID:filePath:line:column:)`` for any text.
public func assertGolden(
    text actual: String, named name: String, directory: URL? = nil, record: GoldenRecordMode? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let here = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let folder = directory ?? GoldenFile.packageGoldenDirectory(containing: "\(filePath)") else {
        recordFailure("No Golden/ folder: \(filePath) is not inside a package; pass `directory:`.", at: here)
        return
    }
    guard let file = GoldenFile(named: name, in: folder) else {
        recordFailure(
            "The golden name \"\(name)\" would leave \(folder.path): use a relative name with no \"..\" "
                + "component and no symbolic link on the way, such as \"checkout/add-to-cart\".", at: here)
        return
    }
    let mode = GoldenRecordMode.resolve(record)
    if let problem = GoldenRecordMode.environmentProblem(record) { recordFailure(problem, at: here) }
    let comparison = file.compare(actual)
    let shouldWrite =
        mode == .all || (mode == .failed && comparison != .matches)
        || (mode != .never && comparison == .missing)
    if shouldWrite {
        do {
            try file.write(actual)
            recordFailure(
                "Recorded \(file.url.path) (record mode: \(mode.rawValue)). Check it in, then re-run "
                    + "without recording to verify.", at: here)
        } catch {
            recordFailure("Could not record \(file.url.path): \(error.localizedDescription)", at: here)
        }
        return
    }
    switch comparison {
    case .matches:
        return
    case .missing:
        recordFailure(
            "No golden file at \(file.url.path). Record it with OBSERVER_HARNESS_RECORD=missing "
                + "(or `record: .missing`); CI never records on its own.", at: here)
    case .differs(let diff):
        let artifact = writeArtifact(actual, named: name)
        recordFailure(
            """
            The report differs from \(file.url.path):
            \(diff)
            Actual report written to \(artifact ?? "(could not write an artifact)").
            If the change is intended, re-record with OBSERVER_HARNESS_RECORD=failed (or `record: .failed`).
            """, at: here)
    }
}

private func writeArtifact(_ text: String, named name: String) -> String? {
    guard let file = GoldenFile(named: name, in: artifactsFolder()) else { return nil }
    return (try? file.write(text)).map { file.url.path }
}

/// Where failing tests leave files for people and CI to pick up:
/// `OBSERVER_HARNESS_ARTIFACTS`, or `observer-harness-artifacts` in the
/// temporary folder.
func artifactsFolder() -> URL {
    ProcessInfo.processInfo.environment["OBSERVER_HARNESS_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("observer-harness-artifacts")
}
