import Foundation
import Testing

/// Runs the real `harness-cli` executable built next to the test bundle.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

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

private func temporaryFile(_ name: String, _ contents: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent(name)
    try Data(contents.utf8).write(to: file)
    return file.path
}

@Test func runExitsOneWhenAScenarioHasAnError() throws {
    let result = try harnessCLI(["run", examples + "/add-to-cart-broadcast.scenario.json", "--format", "json"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("\"rule\": \"broadcast-as-command\""))
    // Sorted keys; `file` names the scenario as it was given.
    #expect(result.stdout.hasPrefix("{\n  \"file\": "))
}

@Test func runExitsZeroOnACleanScenario() throws {
    let result = try harnessCLI(["run", examples + "/add-to-cart-delegate.scenario.json"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("\"errors\": 0"))
}

@Test func failOnNeverExitsZeroDespiteErrors() throws {
    #expect(try harnessCLI(["run", examples, "--fail-on", "never"]).status == 0)
}

@Test func runOnAFolderWritesAReportSet() throws {
    let result = try harnessCLI(["run", examples, "--fail-on", "never", "--format", "json"])
    #expect(result.stdout.contains("\"format\": \"observer-harness-report-set\""))
}

@Test func textFormatStartsFindingsWithTheirCallSite() throws {
    let result = try harnessCLI(["run", examples + "/add-to-cart-broadcast.scenario.json", "--format", "text"])
    #expect(result.stdout.contains("\nProductCell.swift:22: error: One post of \"AddToCart\""))
}

@Test func invalidScenarioIsAPathLineColumnErrorWithExitTwo() throws {
    let path = try temporaryFile(
        "bad.scenario.json",
        """
        {"format": "observer-harness-scenario", "version": 1, "scenario": "bad",
         "steps": [ {"op": "frobnicate"} ]}
        """)
    let result = try harnessCLI(["run", path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("\(path):2:20: error: unknown op \"frobnicate\""))
}

@Test func truncatedJSONIsAnErrorNotACrash() throws {
    let path = try temporaryFile("cut.scenario.json", "{\"format\": \"observer-harness-scenario\", \"steps\": [")
    let result = try harnessCLI(["run", path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("\(path):1:"))
    #expect(result.stderr.contains("error:"))
}

@Test func badUsageExitsTwoWithUsage() throws {
    let result = try harnessCLI(["frobnicate"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("USAGE: harness-cli"))
    #expect(try harnessCLI(["run", "x", "--fail-on", "sometimes"]).status == 2)
    #expect(try harnessCLI(["run", "x", "--seed", "-1"]).status == 2)
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

@Test func rulesListsEveryRuleAndExplainDescribesOne() throws {
    let rules = try harnessCLI(["rules", "--format", "text"])
    #expect(rules.status == 0)
    for id in ["notify-after-dealloc", "duplicate-registration", "ordering-dependence", "channel-name-typo"] {
        #expect(rules.stdout.contains(id))
    }
    let explain = try harnessCLI(["explain", "delegate-overwritten"])
    #expect(explain.status == 0)
    #expect(explain.stdout.contains("Fix:"))
    #expect(try harnessCLI(["explain", "no-such-rule"]).status == 2)
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

@Test func sarifHasTheFieldsCodeScanningRequires() throws {
    let result = try harnessCLI(["run", examples + "/add-to-cart-broadcast.scenario.json", "--format", "sarif"])
    for field in [
        "\"$schema\"", "\"version\": \"2.1.0\"", "\"informationUri\"", "\"defaultConfiguration\"",
        "\"ruleId\": \"broadcast-as-command\"", "\"startLine\": 22", "\"partialFingerprints\"",
    ] {
        #expect(result.stdout.contains(field), "missing \(field)")
    }
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
