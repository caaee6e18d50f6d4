import Foundation
import Testing

/// Hostile input, through the real executable: every parser — scenarios, traces,
/// report and baseline files, the command line itself — answers hostile
/// input with `PATH:LINE:COLUMN: error: …` on standard error and exit
/// status 2; `golden update` and `--output` write by rename, and golden
/// reports stay inside their folder.
@Suite struct HostileInputTests {
    /// A fresh folder for one test.
    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = try folder().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Expects exit 2 and a first diagnostic line `PATH:LINE:COLUMN: error: …` mentioning `text`.
    private static func expectInputError(
        _ result: CLIResult, path: String, mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 2, "\(result.stderr)", sourceLocation: sourceLocation)
        let line = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        let pattern = "^" + NSRegularExpression.escapedPattern(for: path) + ":[0-9]+:[0-9]+: error: "
        #expect(line.range(of: pattern, options: .regularExpression) != nil, "\(line)", sourceLocation: sourceLocation)
        #expect(line.contains(text), "\(line)", sourceLocation: sourceLocation)
    }

    static let scenarioHeader = #"{"format": "observer-harness-scenario", "scenario": "s", "#

    /// Hostile documents and what their error says.
    static let hostileScenarios: [(name: String, bytes: [UInt8], message: String)] = [
        ("truncated", Array(#"{"format": "observer-harness-scenario", "steps": ["#.utf8), "unexpected end of input"),
        ("empty", [], "unexpected end of input"),
        ("not UTF-8", Array(scenarioHeader.utf8) + [0xFF] + Array(#""version": 1, "steps": []}"#.utf8), "UTF-8"),
        (
            "deeply nested",
            Array((scenarioHeader + #""version": 1, "steps": "# + String(repeating: "[", count: 50_000)).utf8),
            "nesting deeper than 64 levels"
        ),
        ("wrong type", Array((scenarioHeader + #""version": 1, "steps": "all of them"}"#).utf8), "must be a list"),
        (
            "duplicate key", Array((scenarioHeader + #""version": 1, "version": 1, "steps": []}"#).utf8),
            #"duplicate key "version""#
        ),
        (
            "number out of range", Array((scenarioHeader + #""version": 1e400, "steps": []}"#).utf8),
            "number out of range"
        ),
        ("negative zero", Array((scenarioHeader + #""version": -0, "steps": []}"#).utf8), "must be an integer"),
        (
            "2^64", Array((scenarioHeader + #""version": 18446744073709551616, "steps": []}"#).utf8),
            "must be an integer"
        ),
        (
            "unknown version", Array((scenarioHeader + #""version": 2, "steps": []}"#).utf8),
            "unsupported scenario version 2"
        ),
        ("huge", Array(repeating: UInt8(ascii: " "), count: (4 << 20) + 1), "larger than 4 MiB"),
    ]

    @Test(arguments: hostileScenarios.indices)
    func aHostileScenarioIsAPathLineColumnErrorWithExitTwo(index: Int) throws {
        let (name, bytes, message) = Self.hostileScenarios[index]
        let path = try Self.file("hostile.scenario.json", bytes)
        let result = try harnessCLI(["run", path])
        Self.expectInputError(result, path: path, mentioning: message)
        #expect(result.stdout.isEmpty, "\(name)")
    }

    @Test func anEndlessScenarioFileStopsAtTheSizeLimit() throws {
        let result = try harnessCLI(["run", "/dev/zero"])
        Self.expectInputError(
            result, path: "/dev/zero", mentioning: "the scenario file is larger than 4 MiB, the limit")
    }

    static let traceHeader = #"{"format":"observer-harness-trace","version":1}"#

    static let hostileTraces: [(name: String, bytes: [UInt8], message: String)] = [
        ("truncated header", Array(#"{"format":"observer-har"#.utf8), "unexpected end of input"),
        ("empty", [], "the trace is empty"),
        (
            "not UTF-8",
            Array((traceHeader + "\n" + #"{"string":1,"text":""#).utf8) + [0xC0, 0x80] + Array("\"}\n".utf8),
            "UTF-8"
        ),
        (
            "deeply nested",
            Array((traceHeader + "\n" + #"{"seq":"# + String(repeating: "[", count: 50_000) + "\n").utf8),
            "nesting deeper than"
        ),
        ("wrong type", Array((traceHeader + "\n" + #"{"seq":0,"kind":["post"]}"# + "\n").utf8), "must be a string"),
        (
            "duplicate key", Array((traceHeader + "\n" + #"{"seq":0,"kind":"post","kind":"post"}"# + "\n").utf8),
            #"duplicate key "kind""#
        ),
        (
            "number out of range", Array((traceHeader + "\n" + #"{"seq":1e400,"kind":"post"}"# + "\n").utf8),
            "number out of range"
        ),
        (
            "negative zero", Array((traceHeader + "\n" + #"{"seq":-0,"kind":"post"}"# + "\n").utf8),
            "whole number from 0 to"
        ),
        (
            "2^64", Array((traceHeader + "\n" + #"{"seq":0,"kind":"post","t":18446744073709551616}"# + "\n").utf8),
            "whole number from 0 to"
        ),
        (
            "unknown version", Array(#"{"format":"observer-harness-trace","version":99}"#.utf8),
            "unsupported trace version"
        ),
        (
            "huge line",
            Array((traceHeader + "\n" + #"{"string":1,"text":""#).utf8)
                + Array(repeating: UInt8(ascii: "x"), count: 16 << 20) + Array("\"}\n".utf8), "longer than 16 MiB"
        ),
    ]

    @Test(arguments: hostileTraces.indices)
    func aHostileTraceIsAPathLineColumnErrorWithExitTwo(index: Int) throws {
        let (name, bytes, message) = Self.hostileTraces[index]
        let path = try Self.file("hostile.trace.jsonl", bytes)
        let result = try harnessCLI(["analyze", path])
        Self.expectInputError(result, path: path, mentioning: message)
        #expect(result.stdout.isEmpty, "\(name)")
    }

    /// A line break in what an error quotes (a field's name) stays escaped:
    /// the diagnostic is one line, and no forged `PATH:1:1: error:` follows it.
    @Test func aLineBreakInAQuotedNameCannotForgeASecondDiagnostic() throws {
        let line = #"{"seq":0,"kind":"post","x\nfake.jsonl:1:1: error: spoofed":1}"#
        let path = try Self.file("forged.trace.jsonl", Array((Self.traceHeader + "\n" + line + "\n").utf8))
        let result = try harnessCLI(["analyze", path])
        Self.expectInputError(result, path: path, mentioning: "unknown field")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(#"x\u{A}fake.jsonl:1:1"#))
    }

    static let hostileReports: [(name: String, bytes: [UInt8], message: String)] = [
        ("truncated", Array(#"{"format": "observer-harness-report", "version": 1, "#.utf8), "unexpected end of input"),
        (
            "not UTF-8",
            Array(#"{"format": "observer-harness-report", "scenario": ""#.utf8) + [0xED, 0xA0, 0x80]
                + Array(#""}"#.utf8), "UTF-8"
        ),
        ("deeply nested", Array(("{\"findings\": " + String(repeating: "[", count: 50_000)).utf8), "nesting deeper"),
        ("duplicate key", Array(#"{"format": "observer-harness-report", "format": "x"}"#.utf8), "duplicate key"),
        (
            "number out of range", Array(#"{"format": "observer-harness-report", "version": 1e400}"#.utf8),
            "number out of range"
        ),
        (
            "unknown version", Array(#"{"format": "observer-harness-report", "version": 7}"#.utf8),
            "unsupported report version"
        ),
        ("wrong type", Array(#"{"format": 1}"#.utf8), "\"format\" must be a string"),
    ]

    @Test(arguments: hostileReports.indices)
    func aHostileReportFileIsAPathLineColumnErrorWithExitTwo(index: Int) throws {
        let (_, bytes, message) = Self.hostileReports[index]
        let path = try Self.file("hostile.report.json", bytes)
        Self.expectInputError(try harnessCLI(["merge", path]), path: path, mentioning: message)
    }

    @Test func anEndlessReportFileStopsAtTheSizeLimit() throws {
        Self.expectInputError(
            try harnessCLI(["merge", "/dev/zero"]), path: "/dev/zero", mentioning: "larger than 64 MiB")
    }

    @Test func aHostileBaselineIsAPathLineColumnErrorWithExitTwo() throws {
        let baseline = try Self.file("hostile.baseline.json", Array(#"{"format": "observer-harness-baseline", "#.utf8))
        let result = try harnessCLI(["run", examples + "/add-to-cart-broadcast.scenario.json", "--baseline", baseline])
        Self.expectInputError(result, path: baseline, mentioning: "unexpected end of input")
    }

    // MARK: The command line

    /// Bad usage, and the column of the argument at fault in `harness-cli ARGUMENTS…`.
    static let badUsage: [(arguments: [String], column: Int, message: String)] = [
        ([], 13, "missing command"),
        (["frobnicate"], 13, "unknown command 'frobnicate'"),
        (["run"], 17, "run needs at least one scenario file or folder"),
        (["run", "x", "--seed", "-1"], 26, "--seed must be a whole number"),
        (["run", "x", "--seed", "18446744073709551616"], 26, "--seed must be a whole number"),
        (["run", "x", "--seed", "+5"], 26, "--seed must be a whole number"),
        (["run", "x", "--seed"], 26, "--seed needs a value"),
        (["run", "x", "--format=yaml"], 19, "--format must be"),
        (["run", "x", "--fail-on", "sometimes"], 29, "--fail-on must be"),
        (["run", "--frobnicate", "x"], 17, "unknown option '--frobnicate'"),
        (["golden", "sideways"], 20, "golden needs 'check' or 'update', not 'sideways'"),
        (["analyze", "a.jsonl", "b.jsonl"], 29, "analyze takes exactly one trace file"),
        (["rules", "extra"], 19, "rules takes no arguments"),
        (["explain"], 21, "explain takes exactly one rule id"),
        (["golden", "check", "--format", "sarif"], 26, "golden does not take --format"),
        (["rules", "--seed", "1"], 19, "rules does not take --seed"),
        (["analyze", "t.jsonl", "--seed=1"], 29, "analyze does not take --seed"),
        (["explain", "x", "--fail-on", "never"], 23, "explain does not take --fail-on"),
        (["rules", "--format", "sarif"], 28, "--format must be text or json, not 'sarif'"),
        (["help", "nope"], 18, "no command named 'nope'"),
        (["help", "run", "analyze"], 22, "help takes one command"),
        (["ünïcödé"], 13, "unknown command 'ünïcödé'"),
        (["run", "ü", "--seed", "x"], 26, "--seed must be"),
        // An empty word (an unset shell variable) would read as the current folder.
        (["analyze", ""], 21, "a path is empty"),
        (["run", "x", ""], 19, "a path is empty"),
        (["golden", "check", ""], 26, "a path is empty"),
        (["run", "x", "--output", ""], 28, "--output needs a path, not an empty word"),
        (["run", "x", "--baseline="], 19, "--baseline needs a path, not an empty word"),
    ]

    @Test(arguments: badUsage.indices)
    func badUsageIsACommandLinePositionErrorWithExitTwo(index: Int) throws {
        let (arguments, column, message) = Self.badUsage[index]
        let result = try harnessCLI(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("<command line>:1:\(column): error: \(message)"), "\(result.stderr)")
        #expect(result.stderr.contains("USAGE: harness-cli"))
        #expect(result.stdout.isEmpty)
    }

    @Test func anUnknownRuleIsReportedAtItsArgument() throws {
        let result = try harnessCLI(["explain", "--output", "/dev/null", "duplicate"])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "<command line>:1:40: error: unknown rule 'duplicate' "
                    + "(did you mean 'duplicate-registration'?)"), "\(result.stderr)")
    }

    @Test func aLongCommandLineIsHandled() throws {
        // Few enough errors to fit a pipe's buffer: the helper reads stderr after stdout.
        let result = try harnessCLI(["run"] + Array(repeating: "/no/such/file", count: 500))
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("/no/such/file:1:1: error: no such file or folder"))
    }

    // MARK: Writing files

    /// A hard link to the old file keeps the old bytes only if the new file
    /// replaced it by a rename; a write in place would change both.
    @Test func outputIsWrittenToATemporaryFileAndRenamed() throws {
        let folder = try Self.folder()
        let output = folder.appendingPathComponent("report.json"), link = folder.appendingPathComponent("old.json")
        try Data("old\n".utf8).write(to: output)
        try FileManager.default.linkItem(at: output, to: link)
        let result = try harnessCLI([
            "run", examples + "/add-to-cart-delegate.scenario.json", "--format", "json",
            "--output", output.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: output, encoding: .utf8).contains("\"observer-harness-report\""))
        #expect(try String(contentsOf: link, encoding: .utf8) == "old\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(leftovers == ["old.json", "report.json"])
    }

    /// Endless input (`/dev/zero`) for every kind of file, under caps a run
    /// that read it whole would break: 256 MiB of memory and 60 s of CPU (the
    /// kernel ends the process past either, so a failure is a signal or an
    /// allocation failure, never a slow pass).
    @Test(arguments: [
        (["run", "/dev/zero"], "the scenario file is larger than 4 MiB, the limit"),
        (["analyze", "/dev/zero"], "the line is longer than 16 MiB, the limit for one line"),
        (["merge", "/dev/zero"], "the report is larger than 64 MiB, the limit"),
        (
            ["run", examples + "/add-to-cart-delegate.scenario.json", "--baseline", "/dev/zero"],
            "the baseline is larger than 64 MiB, the limit"
        ),
    ])
    func endlessInputIsRefusedWithinBoundedMemoryAndTime(arguments: [String], message: String) throws {
        #if os(Linux)
            let capped = "ulimit -d \(256 * 1024) && ulimit -t 60 && exec \"$0\" \"$@\""
            let result = try harnessCLI(
                ["-c", capped, try harnessCLIPath()] + arguments,
                executable: URL(fileURLWithPath: "/bin/sh"))
            #expect(result.status == 2)
            #expect(result.stderr == "/dev/zero:1:1: error: \(message)\n")
        #endif
    }

    @Test func anOutputFileThatCannotBeWrittenIsAnErrorWithExitTwo() throws {
        let output = try Self.folder().appendingPathComponent("no/such/folder/report.json").path
        let result = try harnessCLI(["run", examples + "/add-to-cart-delegate.scenario.json", "--output", output])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(output):1:1: error: cannot write"), "\(result.stderr)")
    }

    @Test func goldenUpdateReplacesEachReportByRename() throws {
        let folder = try Self.folder().appendingPathComponent("golden")
        try FileManager.default.copyItem(atPath: examples, toPath: folder.path)
        let report = folder.appendingPathComponent("add-to-cart-broadcast.report.json")
        let link = folder.deletingLastPathComponent().appendingPathComponent("kept.json")
        try Data("stale\n".utf8).write(to: report)
        try FileManager.default.linkItem(at: report, to: link)
        let result = try harnessCLI(["golden", "update", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("written  add-to-cart-broadcast.report.json"))
        #expect(try String(contentsOf: link, encoding: .utf8) == "stale\n")
        #expect(try harnessCLI(["golden", "check", folder.path]).status == 0)
    }

    /// A linked folder or scenario inside the golden folder is not followed:
    /// nothing is read from or written to where it points.
    @Test func goldenUpdateDoesNotFollowLinksOutOfTheFolder() throws {
        let root = try Self.folder()
        let golden = root.appendingPathComponent("golden"), outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: examples, toPath: outside.path)
        for file in try FileManager.default.contentsOfDirectory(atPath: outside.path)
        where file.hasSuffix(".report.json") {
            try FileManager.default.removeItem(at: outside.appendingPathComponent(file))
        }
        try FileManager.default.createSymbolicLink(
            at: golden.appendingPathComponent("linked"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(
            at: golden.appendingPathComponent("linked-file.scenario.json"),
            withDestinationURL: outside.appendingPathComponent("add-to-cart-broadcast.scenario.json"))
        try FileManager.default.copyItem(
            atPath: examples + "/add-to-cart-delegate.scenario.json",
            toPath: golden.appendingPathComponent("own.scenario.json").path)
        let result = try harnessCLI(["golden", "update", golden.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("written  own.report.json"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: outside.path).allSatisfy {
                !$0.hasSuffix(".report.json")
            })
        #expect(!FileManager.default.fileExists(atPath: golden.appendingPathComponent("linked-file.report.json").path))
        #expect(result.stdout.contains("skipped  linked: a link, not followed"), "said, not skipped in silence")
        #expect(result.stdout.contains("skipped  linked-file.scenario.json: a link, not followed"))
    }

    /// `run` only reads: a linked scenario and a linked folder are replayed,
    /// a folder reached twice (and a loop of links) once, and a dangling link
    /// is an error, never a scenario left out in silence.
    @Test func runFollowsLinksToScenariosAndFolders() throws {
        let root = try Self.folder()
        let scenarios = root.appendingPathComponent("scenarios"), shared = root.appendingPathComponent("shared")
        for folder in [scenarios, shared] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(
            atPath: examples + "/add-to-cart-delegate.scenario.json",
            toPath: shared.appendingPathComponent("delegate.scenario.json").path)
        try FileManager.default.createSymbolicLink(
            at: scenarios.appendingPathComponent("shared"), withDestinationURL: shared)
        try FileManager.default.createSymbolicLink(
            at: shared.appendingPathComponent("back"), withDestinationURL: scenarios)
        try FileManager.default.createSymbolicLink(
            at: scenarios.appendingPathComponent("broadcast.scenario.json"),
            withDestinationURL: URL(fileURLWithPath: examples + "/add-to-cart-broadcast.scenario.json"))
        let result = try harnessCLI(["run", scenarios.path, "--format", "json", "--fail-on", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "\"file\"").count - 1 == 2, "each scenario once")
        #expect(result.stdout.contains("scenarios/broadcast.scenario.json"))
        #expect(result.stdout.contains("scenarios/shared/delegate.scenario.json"))

        let dangling = scenarios.appendingPathComponent("gone.scenario.json")
        try FileManager.default.createSymbolicLink(
            at: dangling, withDestinationURL: root.appendingPathComponent("nowhere.json"))
        let broken = try harnessCLI(["run", scenarios.path, "--format", "json", "--fail-on", "never"])
        Self.expectInputError(broken, path: dangling.path, mentioning: "a symbolic link that leads to no file")
        #expect(broken.stdout.contains("scenarios/broadcast.scenario.json"), "the others still report")
    }

    /// A trace behind a loop of links is told as such, not as a missing file.
    @Test func aTraceBehindALoopOfLinksIsNamedAsOne() throws {
        let root = try Self.folder()
        let first = root.appendingPathComponent("a.jsonl"), second = root.appendingPathComponent("b.jsonl")
        try FileManager.default.createSymbolicLink(at: first, withDestinationURL: second)
        try FileManager.default.createSymbolicLink(at: second, withDestinationURL: first)
        let result = try harnessCLI(["analyze", first.path])
        Self.expectInputError(result, path: first.path, mentioning: "a symbolic link that leads to no file")
    }

    /// `golden check FILE` names what is wrong with the path: it is there, and not a folder.
    @Test func goldenCheckOfAFileSaysItIsNotAFolder() throws {
        let result = try harnessCLI(["golden", "check", examples + "/add-to-cart-delegate.scenario.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(":1:1: error: not a folder"), "\(result.stderr)")
    }

    /// A golden folder with no scenarios is a wrong path, as it is for `run`: a
    /// CI job pointed at it must not pass.
    @Test func goldenCheckOfAFolderWithNoScenariosIsAnError() throws {
        let empty = try Self.folder()
        let result = try harnessCLI(["golden", "check", empty.path])
        Self.expectInputError(result, path: empty.path, mentioning: "no *.scenario.json files under this folder")
    }

    /// A folder the scan may not list would leave its scenarios out: an
    /// error naming it. (Root lists any folder: the test needs another user.)
    @Test(.enabled(if: geteuid() != 0, "root may list a folder whatever its mode"))
    func aFolderThatCannotBeListedIsAnError() throws {
        let root = try Self.folder()
        let locked = root.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: examples + "/add-to-cart-delegate.scenario.json",
            toPath: root.appendingPathComponent("open.scenario.json").path)
        try FileManager.default.copyItem(
            atPath: examples + "/add-to-cart-broadcast.scenario.json",
            toPath: locked.appendingPathComponent("hidden.scenario.json").path)
        #expect(chmod(locked.path, 0) == 0)
        defer { _ = chmod(locked.path, 0o755) }
        for command in [["run", root.path, "--fail-on", "never"], ["golden", "check", root.path]] {
            let result = try harnessCLI(command)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("\(locked.path):1:1: error: cannot list this folder"), "\(result.stderr)")
        }
    }

    /// A FIFO where a golden report should be would block a reader forever.
    @Test func aGoldenReportThatIsNotARegularFileIsAnErrorNotAHang() throws {
        let golden = try Self.folder()
        try FileManager.default.copyItem(
            atPath: examples + "/add-to-cart-delegate.scenario.json",
            toPath: golden.appendingPathComponent("cart.scenario.json").path)
        let report = golden.appendingPathComponent("cart.report.json")
        #expect(mkfifo(report.path, 0o600) == 0)
        let result = try harnessCLI(["golden", "check", golden.path])
        Self.expectInputError(result, path: report.path, mentioning: "the golden report is not a regular file")
    }
}
