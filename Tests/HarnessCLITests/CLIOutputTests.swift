import Foundation
import Testing

/// Whole outputs of the command line, compared with the text files in
/// `Expected/`: each holds the command, its exit status, standard output and
/// standard error. To accept a change on purpose, record them and read the diff:
///
///     HARNESS_CLI_RECORD=1 swift test --filter CLIOutputTests
@Suite struct CLIOutputTests {
    private static let expected = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Expected")

    /// A folder holding two bundled examples and their golden reports, so
    /// outputs name short relative paths and do not change when examples are added.
    private static func workFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("golden"),
            withIntermediateDirectories: true)
        for name in ["add-to-cart-broadcast", "add-to-cart-delegate"] {
            for suffix in [".scenario.json", ".report.json"] {
                try FileManager.default.copyItem(
                    atPath: examples + "/" + name + suffix,
                    toPath: folder.appendingPathComponent("golden/" + name + suffix).path)
            }
        }
        let bad = folder.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        try Data(
            """
            {"format": "observer-harness-scenario", "version": 1, "scenario": "bad",
             "steps": [ {"op": "frobnicate"} ]}

            """.utf8
        ).write(to: bad.appendingPathComponent("unknown-op.scenario.json"))
        try Data("{\"format\": \"observer-harness-scenario\", \"steps\": [".utf8)
            .write(to: bad.appendingPathComponent("cut.scenario.json"))
        return folder
    }

    /// The file's name, and the arguments after `harness-cli`.
    static let cases: [(name: String, arguments: [String])] = [
        ("help", ["help"]),
        ("help-run", ["help", "run"]),
        ("help-analyze", ["help", "analyze"]),
        ("help-golden", ["help", "golden"]),
        ("help-merge", ["help", "merge"]),
        ("help-rules", ["help", "rules"]),
        ("help-explain", ["help", "explain"]),
        ("help-help", ["help", "help"]),
        ("version", ["--version"]),
        ("usage-missing-command", []),
        ("usage-unknown-command", ["frobnicate"]),
        ("usage-option-golden-does-not-take", ["golden", "check", "--format", "sarif", "--write-baseline", "x.json"]),
        ("usage-run-without-paths", ["run", "--seed", "1"]),
        ("usage-rules-format", ["rules", "--format", "sarif"]),
        ("usage-help-unknown-topic", ["help", "nope"]),
        ("usage-run-fail-on-sometimes", ["run", "x", "--fail-on", "sometimes"]),
        ("usage-run-negative-seed", ["run", "x", "--seed", "-1"]),
        ("run-text", ["run", "golden/add-to-cart-broadcast.scenario.json", "--format", "text"]),
        ("run-json", ["run", "golden/add-to-cart-broadcast.scenario.json", "--format", "json"]),
        ("run-sarif", ["run", "golden/add-to-cart-broadcast.scenario.json", "--format", "sarif"]),
        ("run-junit", ["run", "golden/add-to-cart-broadcast.scenario.json", "--format", "junit"]),
        ("run-markdown", ["run", "golden/add-to-cart-broadcast.scenario.json", "--format", "markdown"]),
        ("run-html", ["run", "golden/add-to-cart-broadcast.scenario.json", "--format", "html"]),
        ("merge-markdown", ["merge", "golden/add-to-cart-broadcast.report.json", "--format", "markdown"]),
        ("run-clean", ["run", "golden/add-to-cart-delegate.scenario.json"]),
        ("error-unknown-op", ["run", "bad/unknown-op.scenario.json"]),
        ("error-truncated-json", ["run", "bad/cut.scenario.json"]),
        ("rules-text", ["rules", "--format", "text"]),
        ("explain-delegate-overwritten", ["explain", "delegate-overwritten"]),
        ("explain-unknown-rule", ["explain", "no-such-rule"]),
        ("run-folder-json", ["run", "golden", "--format", "json", "--fail-on", "never"]),
        ("golden-check", ["golden", "check", "golden"]),
    ]

    @Test(arguments: cases.indices)
    func theOutputIsTheExpectedText(index: Int) throws {
        let (name, arguments) = Self.cases[index]
        let result = try harnessCLI(arguments, in: try Self.workFolder())
        var actual = "$ harness-cli " + arguments.joined(separator: " ") + "\nexit status \(result.status)\n"
        actual += "--- standard output\n" + result.stdout
        if !result.stderr.isEmpty { actual += "--- standard error\n" + result.stderr }
        let file = Self.expected.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["HARNESS_CLI_RECORD"] != nil {
            try Data(actual.utf8).write(to: file)
            Issue.record("Recorded \(file.path); read its diff, then run again without HARNESS_CLI_RECORD.")
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("No expected output at \(file.path): record it with HARNESS_CLI_RECORD=1.")
            return
        }
        #expect(actual == expected, "\(Self.firstDifference(expected, actual))")
    }

    /// Where two texts first differ, line by line, and how to accept the change.
    private static func firstDifference(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        let expectedLine = line < old.count ? String(old[line]) : "(end)"
        let actualLine = line < new.count ? String(new[line]) : "(end)"
        return "line \(line + 1):\n- \(expectedLine)\n+ \(actualLine)\n"
            + "If the change is intended: HARNESS_CLI_RECORD=1 swift test --filter CLIOutputTests"
    }
}
