import Foundation
import Testing

/// Runs the real `harness-cli` executable built next to the test bundle.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

// harness-cli is a macOS, Linux and Windows tool: there are no processes to
// start on iOS, tvOS, watchOS or visionOS, where this target only builds.
#if os(macOS) || os(Linux) || os(Windows)
    func harnessCLI(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        executable: URL? = nil
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = try executable ?? URL(fileURLWithPath: harnessCLIPath())
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
#else
    struct ProcessesUnavailable: Error {}

    func harnessCLI(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        executable: URL? = nil
    ) throws -> CLIResult {
        throw ProcessesUnavailable()
    }
#endif

/// The path of the built executable.
func harnessCLIPath() throws -> String { try builtExecutable().path }

private func builtExecutable() throws -> URL {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent("harness-cli")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    let fallback = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("harness-cli")
    try #require(FileManager.default.isExecutableFile(atPath: fallback.path), "harness-cli not built next to the tests")
    return fallback
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let examples = packageRoot.appendingPathComponent("Golden/examples").path

@Test func failOnNeverExitsZeroDespiteErrors() throws {
    #expect(try harnessCLI(["run", examples, "--fail-on", "never"]).status == 0)
}

@Test func runOnAFolderWritesAReportSet() throws {
    let result = try harnessCLI(["run", examples, "--fail-on", "never", "--format", "json"])
    #expect(result.stdout.contains("\"format\": \"observer-harness-report-set\""))
}

/// A scenario named twice, or a folder and a file in it, is replayed once.
@Test func aScenarioNamedTwiceIsReplayedOnce() throws {
    let once = try harnessCLI(["run", examples, "--fail-on", "never", "--format", "json"])
    let file = examples + "/add-to-cart-broadcast.scenario.json"
    let twice = try harnessCLI(["run", examples, file, examples + "/", "--fail-on", "never", "--format", "json"])
    #expect(twice.status == 0)
    #expect(twice.stdout == once.stdout)
}

@Test func helpAndVersionWorkEverywhere() throws {
    #expect(try harnessCLI(["--help"]).status == 0)
    #expect(try harnessCLI(["--help"]).stdout == harnessCLI(["help"]).stdout)
    #expect(try harnessCLI(["--version"]).stdout.hasPrefix("harness-cli "))
    #expect(try harnessCLI(["golden", "check", "--version"]).stdout.hasPrefix("harness-cli "))
}

/// `COMMAND --help` (wherever it is on the line) and `help COMMAND` print that
/// command's own usage, which is also what a usage error in it shows.
@Test(arguments: ["run", "analyze", "golden", "merge", "rules", "explain", "help"])
func helpForACommandIsItsOwnUsage(command: String) throws {
    let usage = try harnessCLI(["help", command])
    #expect(usage.status == 0)
    #expect(usage.stdout.hasPrefix("OVERVIEW: "))
    #expect(usage.stdout.contains("USAGE: harness-cli \(command)"))
    #expect(try harnessCLI([command, "--help"]).stdout == usage.stdout)
    #expect(try harnessCLI(["--help", command, "x"]).stdout == usage.stdout)
    let misuse = try harnessCLI([command, "--no-such-option"])
    #expect(misuse.status == 2)
    #expect(misuse.stderr.hasSuffix("\n\n" + usage.stdout), "\(misuse.stderr)")
}

@Test func reportBytesAreIdenticalAcrossRuns() throws {
    let first = try harnessCLI(["run", examples, "--fail-on", "never", "--format", "json"])
    let second = try harnessCLI(["run", examples, "--fail-on", "never", "--format", "json"])
    #expect(first.stdout == second.stdout)
}

@Test func outputOptionWritesTheReportToAFile() throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString).json")
    let result = try harnessCLI(["run", examples + "/add-to-cart-broadcast.scenario.json", "--output", output.path])
    // Standard error says why when the run did not end as it should (a sanitizer's report, say).
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(try String(contentsOf: output, encoding: .utf8).contains("broadcast-as-command"))
}

@Test func goldenCheckPassesOnTheBundledExamples() throws {
    let result = try harnessCLI(["golden", "check", examples])
    #expect(result.status == 0, "\(result.stdout)")
}

@Test func goldenCheckExitsOneOnAMismatch() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-golden-\(UUID().uuidString)")
    try FileManager.default.copyItem(atPath: examples, toPath: folder.path)
    let report = folder.appendingPathComponent("add-to-cart-broadcast.report.json")
    try Data("{}\n".utf8).write(to: report)
    let result = try harnessCLI(["golden", "check", folder.path])
    #expect(result.status == 1)
    #expect(result.stdout.contains("MISMATCH add-to-cart-broadcast.scenario.json"))
    #expect(result.stdout.contains("+++ add-to-cart-broadcast.report.json (actual)"))
}
