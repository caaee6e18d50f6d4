import Foundation
import Testing

/// What messages show: paths exactly as the user gave them, and no control
/// character from the input reaching the terminal.
@Suite struct MessageTests {
    /// A folder holding `sub/bad.scenario.json`, whose step 0 has an unknown
    /// op, and a valid `good/cart.scenario.json`.
    private static func folderWithABadScenario(op: String = "zap") throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("messages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let text = #"{"format":"observer-harness-scenario","version":1,"scenario":"x","steps":[{"op":"\#(op)"}]}"#
        try Data(text.utf8).write(to: root.appendingPathComponent("sub/bad.scenario.json"))
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("good"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: examples + "/add-to-cart-delegate.scenario.json",
            toPath: root.appendingPathComponent("good/cart.scenario.json").path)
        return root
    }

    // MARK: Paths as given

    @Test(arguments: [
        (["run", "sub/bad.scenario.json"], "sub/bad.scenario.json"),
        (["run", "./sub/../sub/bad.scenario.json"], "./sub/../sub/bad.scenario.json"),
        (["run", "sub"], "sub/bad.scenario.json"),
        (["run", "./sub/"], "./sub/bad.scenario.json"),
        (["golden", "check", "sub"], "sub/bad.scenario.json"),
        (["golden", "update", "sub"], "sub/bad.scenario.json"),
    ])
    func anInvalidScenarioIsQuotedByThePathAsGiven(arguments: [String], quoted: String) throws {
        let root = try Self.folderWithABadScenario()
        let result = try harnessCLI(arguments, in: root)
        #expect(result.status == 2)
        #expect(result.stderr == "\(quoted):1:81: error: unknown op \"zap\"\n")
    }

    @Test(arguments: [
        (["analyze", "missing.trace.jsonl"], "missing.trace.jsonl:1:1: error: cannot read the trace: no such file"),
        (["merge", "./missing.json"], "./missing.json:1:1: error: cannot read the report: no such file"),
        (
            ["run", "good", "--baseline", "missing.json"],
            "missing.json:1:1: error: cannot read the baseline: no such file"
        ),
        (["run", "sub/none.scenario.json"], "sub/none.scenario.json:1:1: error: no such file or folder"),
    ])
    func aMissingFileIsQuotedByThePathAsGiven(arguments: [String], message: String) throws {
        let root = try Self.folderWithABadScenario()
        let result = try harnessCLI(arguments, in: root)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
    }

    // MARK: Control characters

    /// A title change (`ESC ] 0 ; … BEL`) and a screen clear (`ESC [ 2 J`).
    private static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
    private static let escaped = #"\u{1B}]0;pwned\u{7}\u{1B}[2J"#

    @Test func controlCharactersInAnErrorAreEscaped() throws {
        // Written as JSON escapes, read as the raw characters.
        let root = try Self.folderWithABadScenario(op: #"\u001b]0;pwned\u0007\u001b[2J"#)
        let result = try harnessCLI(["run", "sub/bad.scenario.json"], in: root)
        #expect(result.status == 2)
        #expect(result.stderr == "sub/bad.scenario.json:1:81: error: unknown op \"\(Self.escaped)\"\n")
    }

    @Test func controlCharactersInATextReportAreEscapedAndJSONKeepsThemAsEscapes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("messages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let scenario = try String(contentsOfFile: examples + "/add-to-cart-broadcast.scenario.json", encoding: .utf8)
            .replacingOccurrences(of: "\"AddToCart\"", with: #""AddToCart\u001b]0;pwned\u0007\u001b[2J""#)
        try Data(scenario.utf8).write(to: root.appendingPathComponent("cart.scenario.json"))
        let text = try harnessCLI(["run", "cart.scenario.json", "--format", "text"], in: root)
        #expect(text.status == 1)
        #expect(text.stdout.contains("\"AddToCart\(Self.escaped)\""), "\(text.stdout)")
        #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        let json = try harnessCLI(["run", "cart.scenario.json", "--format", "json"], in: root)
        #expect(json.stdout.contains(#"AddToCart\u001b]0;pwned\u0007\u001b[2J"#), "\(json.stdout)")
        #expect(!json.stdout.unicodeScalars.contains { $0.value == 0x1B })
    }

    /// Bidirectional marks reorder what a terminal shows, as overrides do.
    @Test func bidirectionalMarksInATextReportAreEscaped() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let scenario = try String(contentsOfFile: examples + "/add-to-cart-broadcast.scenario.json", encoding: .utf8)
            .replacingOccurrences(of: "\"AddToCart\"", with: #""AddToCart\u200e\u200f\u061c\u202e""#)
        try Data(scenario.utf8).write(to: root.appendingPathComponent("cart.scenario.json"))
        let text = try harnessCLI(["run", "cart.scenario.json", "--format", "text"], in: root)
        #expect(text.stdout.contains(#""AddToCart\u{200E}\u{200F}\u{61C}\u{202E}""#), "\(text.stdout)")
        #expect(!text.stdout.unicodeScalars.contains { [0x200E, 0x200F, 0x061C, 0x202E].contains($0.value) })
    }

    /// A scenario beside the working folder (`../app/x.scenario.json`) is named
    /// so in every format: the same on every machine, never an absolute path.
    /// SARIF writes it as a URI reference: a space or `#` in a folder's name is
    /// percent-encoded, not read as a fragment.
    @Test func aScenarioBesideTheWorkingFolderIsNamedRelativeToIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("beside-\(UUID().uuidString)")
        let app = root.appendingPathComponent("app #1")
        let work = root.appendingPathComponent("work")
        for folder in [app, work] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let scenario = try String(contentsOfFile: examples + "/add-to-cart-broadcast.scenario.json", encoding: .utf8)
        try Data(scenario.utf8).write(to: app.appendingPathComponent("cart.scenario.json"))
        let given = "../app #1/cart.scenario.json"
        let json = try harnessCLI(["run", given, "--format", "json"], in: work)
        #expect(json.stdout.contains(#""file": "../app #1/cart.scenario.json""#), "\(json.stdout)")
        #expect(!json.stdout.contains(root.path))
        let junit = try harnessCLI(["run", given, "--format", "junit"], in: work)
        #expect(junit.stdout.contains(#"file="../app #1/cart.scenario.json""#))
        let sarif = try harnessCLI(["run", given, "--format", "sarif"], in: work)
        #expect(sarif.stdout.contains(#""uri": "../app%20%231/cart.scenario.json""#), "\(sarif.stdout)")
        #expect(!sarif.stdout.contains(root.path))
    }
}
