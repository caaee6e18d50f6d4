import Foundation
import Testing

/// Where results go: `--output`, `--write-baseline` and `golden update`
/// replace regular files atomically and write in place to anything else;
/// standard streams that cannot be written end the run cleanly.
@Suite struct OutputSafetyTests {
    private static let clean = examples + "/add-to-cart-delegate.scenario.json"
    private static let broadcast = examples + "/add-to-cart-broadcast.scenario.json"

    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("output-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The file's type bits (`S_IFREG`, `S_IFIFO`, …), the file itself and not a link's target.
    private static func fileType(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    /// Runs harness-cli through the shell, so a test can close or redirect its streams.
    private static func shell(_ redirections: String, _ arguments: [String]) throws -> CLIResult {
        try harnessCLI(
            ["-c", "exec \"$0\" \"$@\" " + redirections, try harnessCLIPath()] + arguments,
            executable: URL(fileURLWithPath: "/bin/sh"))
    }

    // MARK: Outputs that would replace an input

    /// `--output TRACE` replaced the trace it analysed; a report written
    /// over a baseline being read, likewise. The input stays as it was.
    @Test func anOutputNamingAnInputIsAUsageError() throws {
        let folder = try Self.folder()
        let scenario = folder.appendingPathComponent("cart.scenario.json")
        try FileManager.default.copyItem(atPath: Self.broadcast, toPath: scenario.path)
        let before = try Data(contentsOf: scenario)
        let result = try harnessCLI(["run", scenario.path, "--output", scenario.path])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("error: --output '\(scenario.path)' would overwrite the input"), "\(result.stderr)")
        #expect(try Data(contentsOf: scenario) == before)
        let written = try harnessCLI(["run", scenario.path, "--write-baseline", scenario.path])
        #expect(written.status == 2)
        #expect(try Data(contentsOf: scenario) == before)
        // A report and a baseline in one file: the baseline would not read back.
        let both = folder.appendingPathComponent("both.json").path
        let clash = try harnessCLI(["run", scenario.path, "--output", both, "--write-baseline", both])
        #expect(clash.status == 2)
        #expect(clash.stderr.contains("error: --output and --write-baseline name the same file"), "\(clash.stderr)")
        #expect(!FileManager.default.fileExists(atPath: both))
    }

    /// Rewriting a baseline in place stays allowed: it is read before it is written.
    @Test func aBaselineMayBeRewrittenInPlace() throws {
        let baseline = try Self.folder().appendingPathComponent("baseline.json").path
        #expect(
            try harnessCLI(["run", Self.broadcast, "--write-baseline", baseline, "--fail-on", "never"]).status == 0)
        let again = try harnessCLI(["run", Self.broadcast, "--baseline", baseline, "--write-baseline", baseline])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test(arguments: [["--format", "json", "--format", "text"], ["--fail-on", "never", "--fail-on", "error"]])
    func anOptionGivenTwiceIsAUsageError(options: [String]) throws {
        let result = try harnessCLI(["run", Self.clean] + options)
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: \(options[2]) is given twice"), "\(result.stderr)")
    }

    // MARK: Files that are not regular

    @Test func outputToADeviceWritesInPlaceAndKeepsTheDevice() throws {
        // Creating a device node needs root, as in most CI containers, where the bug bit.
        #if os(Linux)
            guard getuid() == 0 else { return }
            let device = try Self.folder().appendingPathComponent("null").path
            // Major 1, minor 3: a second /dev/null.
            #expect(mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
            let result = try harnessCLI(["run", Self.clean, "--format", "json", "--output", device])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.fileType(device) == S_IFCHR)
        #endif
    }

    @Test func outputToAFIFOWritesIntoItAndKeepsTheFIFO() throws {
        let fifo = try Self.folder().appendingPathComponent("report.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader is open before the run, so the run's open does not wait and
        // this test cannot hang: a FIFO replaced by a file just reads nothing.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let result = try harnessCLI(["run", Self.clean, "--format", "json", "--output", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(reader, &buffer, buffer.count)
        #expect(count > 0)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).contains("\"observer-harness-report\""))
        #expect(Self.fileType(fifo) == S_IFIFO)
    }

    @Test func outputThroughASymbolicLinkReplacesTheTargetAndKeepsTheLink() throws {
        let folder = try Self.folder()
        let target = folder.appendingPathComponent("target.json"), link = folder.appendingPathComponent("link.json")
        try Data("old\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target.json")
        let result = try harnessCLI(["run", Self.clean, "--format", "json", "--output", link.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "target.json")
        #expect(try String(contentsOf: target, encoding: .utf8).contains("\"observer-harness-report\""))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["link.json", "target.json"])
    }

    @Test func aBaselineThroughADanglingLinkCreatesTheTarget() throws {
        let folder = try Self.folder()
        let link = folder.appendingPathComponent("baseline.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real-baseline.json")
        let result = try harnessCLI(["run", Self.clean, "--format", "json", "--write-baseline", link.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real-baseline.json")
        #expect(
            try String(contentsOf: folder.appendingPathComponent("real-baseline.json"), encoding: .utf8)
                .contains("observer-harness-baseline"))
    }

    // MARK: Temporary files

    @Test func aWriteRemovesTemporaryFilesThatAKilledRunLeft() throws {
        let folder = try Self.folder()
        // Process 2^31 - 2 does not exist; its run was killed mid-write.
        let stale = folder.appendingPathComponent(".report.json.harness-tmp-2147483646-1f")
        try Data("half a rep".utf8).write(to: stale)
        let result = try harnessCLI([
            "run", Self.clean, "--format", "json",
            "--output", folder.appendingPathComponent("report.json").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.json"])
    }

    @Test func goldenUpdateRemovesTemporaryFilesThatAKilledUpdateLeft() throws {
        let golden = try Self.folder().appendingPathComponent("golden")
        try FileManager.default.copyItem(atPath: examples, toPath: golden.path)
        let report = golden.appendingPathComponent("add-to-cart-broadcast.report.json")
        try Data("stale\n".utf8).write(to: report)
        let stale = golden.appendingPathComponent(".add-to-cart-broadcast.report.json.harness-tmp-2147483646-2a")
        try Data("{".utf8).write(to: stale)
        let result = try harnessCLI(["golden", "update", golden.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: golden.path).allSatisfy { !$0.hasPrefix(".") })
    }

    // MARK: Baselines

    @Test func aBaselineReadAndRewrittenInOneRunComparesWithTheOldOne() throws {
        let baseline = try Self.folder().appendingPathComponent("baseline.json").path
        #expect(try harnessCLI(["run", Self.clean, "--write-baseline", baseline]).status == 0)
        // The broadcast is new to the old baseline, so the run fails, then records it.
        let result = try harnessCLI([
            "run", Self.broadcast, "--format", "json",
            "--baseline", baseline, "--write-baseline", baseline,
        ])
        #expect(result.status == 1, "\(result.stdout)")
        let again = try harnessCLI(["run", Self.broadcast, "--format", "json", "--baseline", baseline])
        #expect(again.status == 0, "\(again.stdout)")
    }

    // MARK: Messages

    @Test(arguments: [
        ("plain/report.json", "a part of the path is not a folder"),
        ("no-such-folder/report.json", "no such file or folder"),
        (".", "it is a folder"),
    ])
    func anUnwritableOutputSaysWhyInPlainWords(output: String, reason: String) throws {
        let folder = try Self.folder()
        try Data("x\n".utf8).write(to: folder.appendingPathComponent("plain"))
        let result = try harnessCLI(["run", Self.clean, "--output", output], in: folder)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(output):1:1: error: cannot write the report: \(reason)\n")
    }

    // MARK: Standard streams

    @Test(arguments: [
        (">/dev/full", "no space left on the device"),
        (">&-", "it is closed"),
    ])
    func anUnwritableStandardOutputIsExitTwoWithAMessage(redirection: String, reason: String) throws {
        let result = try Self.shell(redirection, ["run", Self.broadcast, "--format", "text"])
        #expect(result.status == 2)
        #expect(result.stderr == "harness-cli: error: cannot write the report to standard output: \(reason)\n")
    }

    @Test func aClosedStandardErrorIsExitTwoWhenADiagnosticIsDue() throws {
        let result = try Self.shell("2>&-", ["run", "no-such.scenario.json"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
    }

    @Test func aClosedStandardErrorDoesNotMatterWhenNothingIsSaid() throws {
        let result = try Self.shell("2>&-", ["run", Self.clean, "--format", "json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"observer-harness-report\""))
    }

    @Test func aClosedStandardOutputIsNotReusedForAnOutputFile() throws {
        // With descriptor 1 closed, the next file opened would get number 1.
        let output = try Self.folder().appendingPathComponent("report.json").path
        let result = try Self.shell(">&-", ["run", Self.clean, "--format", "json", "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("{\n"))
    }

    #if os(macOS) || os(Linux) || os(Windows)
        @Test func aPipeWithNoReaderIsExitTwoNotASignal() throws {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            close(ends[0])
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try harnessCLIPath())
            process.arguments = ["run", Self.clean, "--format", "json"]
            process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 2)
            #expect(
                stderr == "harness-cli: error: cannot write the report to standard output: "
                    + "the reading end of the pipe is closed\n")
        }
    #endif
}
