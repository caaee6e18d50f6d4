import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// SARIF, JUnit, baselines, suppressions and merge, through the real executable.
@Suite struct InteropTests {
    /// A throwaway repository: `scenarios/` with copies of the bundled
    /// examples, and the app files a test chooses to create.
    struct Repository {
        let root: URL

        init(appFiles: [String] = []) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("repo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("scenarios"),
                withIntermediateDirectories: true)
            for name in ["add-to-cart-broadcast", "add-to-cart-delegate", "observer-outlives-screen"] {
                try FileManager.default.copyItem(
                    atPath: examples + "/\(name).scenario.json",
                    toPath: root.appendingPathComponent("scenarios/\(name).scenario.json").path)
            }
            for file in appFiles { try write(file, "// app code\n") }
        }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func read(_ path: String) throws -> String {
            try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }

        func run(_ arguments: [String]) throws -> CLIResult {
            try harnessCLI(arguments, in: root)
        }
    }

    private static let broadcast = "scenarios/add-to-cart-broadcast.scenario.json"

    private static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: SARIF

    @Test func sarifCarriesEveryFieldCodeScanningRequires() throws {
        let repository = try Repository(appFiles: ["App/Views/ProductCell.swift"])
        let result = try repository.run(["run", "scenarios", "--format", "sarif", "--fail-on", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        let log = try Self.json(result.stdout)
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        for key in ["name", "version", "informationUri"] { #expect(driver[key] is String, "driver.\(key)") }
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let listed = try harnessCLI(["rules", "--format", "text"]).stdout.split(separator: "\n")
        #expect(rules.count == listed.count, "every rule of `harness-cli rules`")
        for rule in rules {
            #expect(rule["id"] is String)
            for key in ["shortDescription", "fullDescription", "help"] {
                #expect((rule[key] as? [String: Any])?["text"] is String, "\(rule["id"] ?? "?").\(key)")
            }
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(["error", "warning", "note"].contains(level ?? ""))
        }
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        for result in results {
            #expect(result["ruleId"] is String)
            #expect(["error", "warning", "note"].contains(result["level"] as? String ?? ""))
            #expect((result["message"] as? [String: Any])?["text"] is String)
            let fingerprint = (result["partialFingerprints"] as? [String: Any])?["observerHarness/v1"] as? String
            #expect(fingerprint?.count == 16)
            let location = try #require(
                (result["locations"] as? [[String: Any]])?.first?["physicalLocation"]
                    as? [String: Any])
            let uri = try #require((location["artifactLocation"] as? [String: Any])?["uri"] as? String)
            #expect(!uri.hasPrefix("/"), "repository-relative, not \(uri)")
            #expect(((location["region"] as? [String: Any])?["startLine"] as? Int ?? 0) >= 1)
        }
    }

    @Test func sarifPointsAtTheRepositoryFileTheSiteNames() throws {
        let repository = try Repository(appFiles: ["App/Views/ProductCell.swift", "App/Other/Unrelated.swift"])
        let result = try repository.run(["run", Self.broadcast, "--format", "sarif"])
        #expect(result.stdout.contains("\"uri\": \"App/Views/ProductCell.swift\""))
        #expect(result.stdout.contains("\"startLine\": 22"))
    }

    @Test func sarifFallsBackToTheScenarioStepWhenTheSiteIsNoRepositoryFile() throws {
        let repository = try Repository()
        let result = try repository.run(["run", Self.broadcast, "--format", "sarif"])
        let postLine =
            try #require(
                try repository.read(Self.broadcast).split(
                    separator: "\n",
                    omittingEmptySubsequences: false
                ).firstIndex { $0.contains("\"op\": \"post\"") }) + 1
        #expect(result.stdout.contains("\"uri\": \"\(Self.broadcast)\""))
        #expect(result.stdout.contains("\"startLine\": \(postLine)"))
    }

    @Test func sarifFingerprintsStayTheSameWhenCodeOnlyMoves() throws {
        let repository = try Repository()
        let before = try repository.run(["run", Self.broadcast, "--format", "sarif"])
        let moved = try repository.read(Self.broadcast).replacingOccurrences(
            of: "ProductCell.swift:22",
            with: "ProductCell.swift:31")
        try repository.write(Self.broadcast, moved)
        let after = try repository.run(["run", Self.broadcast, "--format", "sarif"])
        func fingerprints(_ text: String) throws -> [String] {
            let runs = try #require(try Self.json(text)["runs"] as? [[String: Any]])
            return (runs[0]["results"] as? [[String: Any]] ?? []).compactMap {
                ($0["partialFingerprints"] as? [String: Any])?["observerHarness/v1"] as? String
            }
        }
        #expect(try fingerprints(before.stdout).count == 1)
        #expect(try fingerprints(before.stdout) == fingerprints(after.stdout))
        #expect(after.stdout.contains("\"startLine\": 31") || after.stdout.contains("scenario.json"))
    }

    // MARK: JUnit

    @Test func junitIsWellFormedWithOneCasePerScenarioAndTheFindingInTheBody() throws {
        let repository = try Repository()
        // Markup and a control character in a channel name must not break the XML.
        let hostile = try repository.read(Self.broadcast).replacingOccurrences(
            of: "\"AddToCart\"",
            with: "\"Add<To>&Cart\\\"\\u0001\"")
        try repository.write(
            "scenarios/hostile.scenario.json",
            hostile.replacingOccurrences(of: "\"add-to-cart-broadcast\"", with: "\"hostile\""))
        let result = try repository.run(["run", "scenarios", "--format", "junit"])
        #expect(result.status == 1)
        let xml = try JUnitDocument(result.stdout)
        #expect(
            xml.cases.map(\.name).sorted()
                == ["add-to-cart-broadcast", "add-to-cart-delegate", "hostile", "observer-outlives-screen"])
        let failing = xml.cases.filter { $0.failure != nil }
        #expect(Set(failing.map(\.name)) == ["add-to-cart-broadcast", "hostile", "observer-outlives-screen"])
        let broadcast = try #require(xml.cases.first { $0.name == "add-to-cart-broadcast" }?.failure)
        #expect(broadcast.body.contains("ProductCell.swift:22: error: One post of \"AddToCart\" made 2 receivers"))
        #expect(broadcast.body.contains("fix: Deliver the command to one receiver"))
        #expect(broadcast.message.contains("broadcast-as-command"))
        let hostileBody = try #require(xml.cases.first { $0.name == "hostile" }?.failure?.body)
        #expect(hostileBody.contains("Add<To>&Cart\"\u{FFFD}"))
        #expect(xml.suiteAttributes["tests"] == "4" && xml.suiteAttributes["failures"] == "3")
    }

    @Test func junitFailsNothingWhenFailOnIsNever() throws {
        let repository = try Repository()
        let result = try repository.run(["run", Self.broadcast, "--format", "junit", "--fail-on", "never"])
        #expect(result.status == 0)
        let xml = try JUnitDocument(result.stdout)
        #expect(xml.cases.count == 1 && xml.cases[0].failure == nil)
        #expect(xml.cases[0].output.contains("broadcast-as-command"))
    }

    // MARK: Baselines

    @Test func baselineRoundTripHidesExactlyTheKnownFindings() throws {
        let repository = try Repository()
        let first = try repository.run(["run", "scenarios", "--format", "json", "--write-baseline", "baseline.json"])
        #expect(first.status == 1)
        let known = try Self.findingCount(first.stdout)
        #expect(known >= 2)

        let again = try repository.run(["run", "scenarios", "--format", "json", "--baseline", "baseline.json"])
        #expect(again.status == 0, "\(again.stdout)")
        #expect(try Self.findingCount(again.stdout) == 0)
        #expect(try Self.baselinedCount(again.stdout) == known)

        // A new bug: a second tap target observing AddToCart on a new screen.
        let text = try repository.read(Self.broadcast)
        let newBug = text.replacingOccurrences(of: "\"add-to-cart-broadcast\"", with: "\"wishlist-broadcast\"")
            .replacingOccurrences(of: "AddToCart", with: "AddToWishlist")
        try repository.write("scenarios/wishlist-broadcast.scenario.json", newBug)
        let withNew = try repository.run(["run", "scenarios", "--format", "json", "--baseline", "baseline.json"])
        #expect(withNew.status == 1)
        let set = try Self.json(withNew.stdout)
        let reports = try #require(set["reports"] as? [[String: Any]])
        let reported = reports.flatMap { report in
            ((report["findings"] as? [[String: Any]]) ?? []).map { "\(report["scenario"] ?? "")/\($0["rule"] ?? "")" }
        }
        #expect(reported == ["wishlist-broadcast/broadcast-as-command"])
        #expect(try Self.baselinedCount(withNew.stdout) == known)
    }

    @Test func baselineFileIsSortedAndReviewable() throws {
        let repository = try Repository()
        _ = try repository.run(["run", "scenarios", "--write-baseline", "baseline.json", "--fail-on", "never"])
        let baseline = try Self.json(try repository.read("baseline.json"))
        #expect(baseline["format"] as? String == "observer-harness-baseline")
        let entries = try #require(baseline["findings"] as? [[String: Any]])
        let keys = entries.map { "\($0["scenario"] ?? "") \($0["rule"] ?? "")" }
        #expect(keys == keys.sorted())
        #expect(entries.allSatisfy { ($0["message"] as? String)?.isEmpty == false })
    }

    @Test func invalidBaselineIsAPathLineColumnError() throws {
        let repository = try Repository()
        try repository.write(
            "baseline.json",
            """
            {"format": "observer-harness-baseline", "version": 1,
             "findings": [ {"fingerprint": "not-hex"} ]}
            """)
        let result = try repository.run(["run", Self.broadcast, "--baseline", "baseline.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("baseline.json:2:32: error: \"fingerprint\" must be 16 hexadecimal digits"))
    }

    // MARK: Suppressions

    @Test func suppressedFindingIsReportedWithItsReasonAndDoesNotFail() throws {
        let repository = try Repository()
        let text = try repository.read(Self.broadcast).replacingOccurrences(
            of: "\"steps\": [",
            with: """
                "suppress": [ { "rule": "broadcast-as-command", "reason": "both lists are meant to count taps" } ],
                  "steps": [
                """)
        try repository.write(Self.broadcast, text)
        let json = try repository.run(["run", Self.broadcast, "--format", "json"])
        #expect(json.status == 0)
        let report = try Self.json(json.stdout)
        #expect((report["findings"] as? [Any])?.isEmpty == true)
        let suppressed = try #require((report["suppressed"] as? [[String: Any]])?.first)
        #expect(suppressed["rule"] as? String == "broadcast-as-command")
        #expect(suppressed["reason"] as? String == "both lists are meant to count taps")
        #expect((report["summary"] as? [String: Any])?["suppressed"] as? Int == 1)

        let textOutput = try repository.run(["run", Self.broadcast, "--format", "text"])
        #expect(textOutput.stdout.contains("suppressed error: One post of \"AddToCart\""))
        #expect(textOutput.stdout.contains("both lists are meant to count taps"))

        let sarif = try repository.run(["run", Self.broadcast, "--format", "sarif"])
        #expect(sarif.stdout.contains("\"justification\": \"both lists are meant to count taps\""))
    }

    @Test(arguments: [
        (#"[ { "rule": "broadcast-as-comand", "reason": "x" } ]"#, "unknown rule \"broadcast-as-comand\""),
        (#"[ { "rule": "broadcast-as-command" } ]"#, "a suppression needs \"reason\""),
        (#"[ { "rule": "broadcast-as-command", "reason": "  " } ]"#, "a suppression needs a \"reason\""),
        (#"{ "rule": "broadcast-as-command" }"#, "\"suppress\" must be a list"),
    ])
    func invalidSuppressionIsAPathLineColumnError(suppress: String, message: String) throws {
        let repository = try Repository()
        let text = try repository.read(Self.broadcast).replacingOccurrences(
            of: "\"steps\": [",
            with: "\"suppress\": \(suppress),\n\"steps\": [")
        try repository.write(Self.broadcast, text)
        let result = try repository.run(["run", Self.broadcast])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(Self.broadcast):8:"), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    // MARK: Merge

    @Test func mergeCombinesShardsInAnOrderIndependentReportSet() throws {
        let repository = try Repository()
        _ = try repository.run(["run", Self.broadcast, "--format", "json", "--output", "shard1.json"])
        _ = try repository.run([
            "run", "scenarios/add-to-cart-delegate.scenario.json",
            "scenarios/observer-outlives-screen.scenario.json", "--format", "json",
            "--output", "shard2.json",
        ])
        let merged = try repository.run(["merge", "shard1.json", "shard2.json", "--format", "json"])
        let reversed = try repository.run(["merge", "shard2.json", "shard1.json", "--format", "json"])
        #expect(merged.status == 1)
        #expect(merged.stdout == reversed.stdout)
        let set = try Self.json(merged.stdout)
        #expect(set["format"] as? String == "observer-harness-report-set")
        let names = (set["reports"] as? [[String: Any]] ?? []).compactMap { $0["scenario"] as? String }
        #expect(names == ["add-to-cart-broadcast", "add-to-cart-delegate", "observer-outlives-screen"])
        // The same findings as one unsharded run.
        let whole = try repository.run(["run", "scenarios", "--format", "json"])
        #expect(try Self.findingCount(whole.stdout) == Self.findingCount(merged.stdout))
        let sarif = try repository.run(["merge", "shard1.json", "shard2.json", "--format", "sarif"])
        #expect(sarif.stdout.contains("\"uri\": \"\(Self.broadcast)\""))
    }

    @Test func mergeRefusesTwoDifferentReportsOfOneScenario() throws {
        let repository = try Repository()
        _ = try repository.run(["run", Self.broadcast, "--format", "json", "--output", "a.json"])
        let edited = try repository.read("a.json").replacingOccurrences(of: "\"replays\": 2", with: "\"replays\": 3")
        try repository.write("b.json", edited)
        let same = try repository.run(["merge", "a.json", "a.json", "--format", "json"])
        #expect(same.status == 1)
        let different = try repository.run(["merge", "a.json", "b.json"])
        #expect(different.status == 2)
        #expect(different.stderr.contains("b.json:1:1: error: scenario \"add-to-cart-broadcast\" is also in a.json"))
    }

    @Test(arguments: [
        (#""errors": 1"#, #""errors": 0"#, #""errors": "#, #"the summary says 0 errors, but "findings" has 1"#),
        (#""notes": 0"#, #""notes": 3"#, #""notes": "#, #"the summary says 3 notes, but "findings" has 0"#),
        (
            #""errors": 1"#, #""errors": 1, "suppressed": 2"#, #""suppressed": "#,
            #"the summary says 2 suppressed, but "suppressed" has 0"#
        ),
    ])
    func mergeRefusesAReportWhoseSummaryContradictsItsFindings(
        original: String, edited: String, key: String,
        message: String
    ) throws {
        let repository = try Repository()
        _ = try repository.run(["run", Self.broadcast, "--format", "json", "--output", "a.json"])
        let text = try repository.read("a.json")
        let range = try #require(text.range(of: original))
        let editedText = text.replacingCharacters(in: range, with: edited)
        try repository.write("edited.json", editedText)
        // The stated count's line and column (1-based, in scalars).
        let before = editedText[..<(try #require(editedText.range(of: key))).upperBound]
        let line = before.count { $0 == "\n" } + 1
        let column = before.split(separator: "\n", omittingEmptySubsequences: false).last!.unicodeScalars.count + 1
        let result = try repository.run(["merge", "edited.json"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "edited.json:\(line):\(column): error: \(message)\n")
    }

    @Test func mergeReportsABadFileAtItsPosition() throws {
        let repository = try Repository()
        try repository.write(
            "bad.json",
            """
            {"format": "observer-harness-report", "version": 1, "scenario": "x",
             "summary": {"events": 1}, "findings": [ {"rule": "r", "severity": "fatal", "message": "m"} ]}
            """)
        let result = try repository.run(["merge", "bad.json"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("bad.json:2:68: error: \"severity\" must be error, warning or note"),
            "\(result.stderr)")
    }

    private static func baselinedCount(_ text: String) throws -> Int {
        let json = try Self.json(text)
        let reports = json["reports"] as? [[String: Any]] ?? [json]
        return reports.compactMap { ($0["summary"] as? [String: Any])?["baselined"] as? Int }.reduce(0, +)
    }

    private static func findingCount(_ text: String) throws -> Int {
        let json = try Self.json(text)
        let reports = json["reports"] as? [[String: Any]] ?? [json]
        return reports.map { ($0["findings"] as? [Any])?.count ?? 0 }.reduce(0, +)
    }
}

/// A JUnit document read with Foundation's XML parser: it fails on anything
/// that is not well-formed.
struct JUnitDocument {
    struct Case {
        var name: String
        var failure: (message: String, body: String)?
        var output = ""
    }

    private(set) var cases: [Case] = []
    private(set) var suiteAttributes: [String: String] = [:]

    init(_ text: String) throws {
        #if canImport(FoundationXML) || canImport(Darwin)
            let delegate = Collector()
            let parser = XMLParser(data: Data(text.utf8))
            parser.delegate = delegate
            let parsed = parser.parse()
            try #require(parsed, "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")\n\(text)")
            cases = delegate.cases
            suiteAttributes = delegate.suiteAttributes
        #endif
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var cases: [Case] = []
        var suiteAttributes: [String: String] = [:]
        private var text = ""
        private var failureMessage = ""

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            text = ""
            switch name {
            case "testsuite": suiteAttributes = attributes
            case "testcase": cases.append(Case(name: attributes["name"] ?? ""))
            case "failure": failureMessage = attributes["message"] ?? ""
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "failure": cases[cases.count - 1].failure = (failureMessage, text)
            case "system-out": cases[cases.count - 1].output = text
            default: break
            }
        }
    }
}
