import Foundation
import Testing

@testable import ObserverHarness

/// The Markdown and HTML reports: for every rule with a golden scenario, the
/// first scenario (by path) that shows it is rendered both ways and compared
/// with `Pictures/NAME.md` and `Pictures/NAME.html`. To accept a change on
/// purpose, record them and read the diff:
///
///     HARNESS_PICTURES_RECORD=1 swift test --filter ReportPictureTests
@Suite struct ReportPictureTests {
    private static let pictures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Pictures")
    private static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden")

    /// Per rule with a golden scenario, the first scenario file showing it.
    static func scenarioPerRule() throws -> [URL] {
        var chosen: [String: URL] = [:]
        let files = GoldenDirectory(golden).scenarioFiles().sorted { $0.path < $1.path }
        for file in files {
            let reportFile = URL(
                fileURLWithPath: file.path.replacingOccurrences(of: ".scenario.json", with: ".report.json"))
            let reports = try ReportSet.load(contentsOf: reportFile).reports
            for rule in Set(reports.flatMap { $0.findings.map(\.rule) }) where chosen[rule] == nil {
                chosen[rule] = file
            }
        }
        var seen = Set<String>()
        return chosen.values.sorted { $0.path < $1.path }.filter { seen.insert($0.path).inserted }
    }

    private static func name(_ file: URL) -> String {
        file.lastPathComponent.replacingOccurrences(of: ".scenario.json", with: "")
    }

    private static func rendered(_ file: URL) throws -> (markdown: String, html: String) {
        let told = try Scenario.load(contentsOf: file).runTellingStories()
        let set = ReportSet(reports: [told.report])
        return (set.markdownText(stories: [told.stories]), set.htmlText(stories: [told.stories]))
    }

    @Test func everyRuleWithAGoldenScenarioHasMarkdownAndHTMLGoldens() throws {
        let files = try Self.scenarioPerRule()
        #expect(files.count >= 10)
        let record = ProcessInfo.processInfo.environment["HARNESS_PICTURES_RECORD"] != nil
        var expectedNames = Set<String>()
        for file in files {
            let (markdown, html) = try Self.rendered(file)
            for (text, suffix) in [(markdown, ".md"), (html, ".html")] {
                let golden = Self.pictures.appendingPathComponent(Self.name(file) + suffix)
                expectedNames.insert(golden.lastPathComponent)
                if record {
                    try FileManager.default.createDirectory(at: Self.pictures, withIntermediateDirectories: true)
                    try Data(text.utf8).write(to: golden)
                    continue
                }
                let expected = try? String(contentsOf: golden, encoding: .utf8)
                #expect(expected == text, "\(golden.lastPathComponent) differs; HARNESS_PICTURES_RECORD=1 to accept")
            }
        }
        if record { Issue.record("Recorded \(Self.pictures.path); read the diff, then run again without it.") }
        // No golden for a scenario that no longer stands for a rule.
        let present = Set((try? FileManager.default.contentsOfDirectory(atPath: Self.pictures.path)) ?? [])
        #expect(present == expectedNames)
    }

    @Test func renderingTwiceGivesTheSameBytes() throws {
        let file = Self.golden.appendingPathComponent("examples/reader-between-writers.scenario.json")
        let first = try Self.rendered(file), second = try Self.rendered(file)
        #expect(first.markdown == second.markdown)
        #expect(first.html == second.html)
    }

    @Test func everyMermaidBlockOfTheGoldensIsWellFormed() throws {
        var blocks = 0
        for file in try Self.scenarioPerRule() {
            for block in MermaidGrammar.blocks(in: try Self.rendered(file).markdown) {
                blocks += 1
                #expect(MermaidGrammar.problems(block) == [], "\(Self.name(file))")
            }
        }
        #expect(blocks >= 10)
    }

    @Test func hostileNamesAreEscapedInMermaidAndHTML() {
        let hostile = "a;b\"c#d<e>f:g\nend %%{init}%% -->> `x` &amp;"
        let story = FindingStory(
            participants: [
                .init(name: hostile, role: .object), .init(name: "center\nNote over P0: injected", role: .registry),
            ],
            steps: [
                .init(
                    sequence: 1, action: .registration, from: 0, to: 1, text: "add " + hostile, site: "<b>x.swift:1",
                    highlighted: true, leftOutBefore: 0),
                .init(
                    sequence: 9, action: .dealloc, from: 0, to: 0, text: "deallocated", site: nil,
                    highlighted: false, leftOutBefore: 7),
            ],
            leftOutAfter: 0,
            comparison: .init(
                first: ["\"X\" delivered to a then b"], other: ["end"],
                differences: [.init(what: "\"k\"", first: "1", other: "2;3")]))
        let diagram = MermaidSequence.diagram(story)
        #expect(MermaidGrammar.problems(diagram) == [])
        #expect(diagram.count == diagram.joined(separator: "\n").split(separator: "\n").count)
        var finding = Finding(rule: "r", severity: .error, message: hostile, events: [1])
        finding.fix = "<script>alert(1)</script>"
        var stories = ReportStories()
        stories[finding] = story
        let html = ReportSet(reports: [Report(scenario: "<s>", eventCount: 9, replays: 1, findings: [finding])])
            .htmlText(stories: [stories])
        #expect(!html.contains("<script"))
        #expect(!html.contains("<e>"))
        #expect(!html.contains("<b>x"))
        let markdown = ReportSet(reports: [Report(scenario: "s|t", eventCount: 9, replays: 1, findings: [finding])])
            .markdownText(stories: [stories])
        #expect(!markdown.contains("<script"))
        #expect(markdown.contains("| s\\|t |"))
    }

    @Test func aPageDrawsABoundedNumberOfPicturesAndSaysHowManyItLeftOut() {
        let story = FindingStory(
            participants: [.init(name: "o", role: .object), .init(name: "r", role: .registry)],
            steps: [
                .init(
                    sequence: 1, action: .registration, from: 0, to: 1, text: "add", site: nil,
                    highlighted: true, leftOutBefore: 0)
            ], leftOutAfter: 0, comparison: nil)
        let findings = (0..<(HTMLTimeline.maxTimelines + 2)).map {
            Finding(rule: "r", severity: .note, message: "m\($0)", events: [1])
        }
        var stories = ReportStories()
        for finding in findings { stories[finding] = story }
        let set = ReportSet(reports: [Report(scenario: "s", eventCount: 2, replays: 1, findings: findings)])
        let html = set.htmlText(stories: [stories])
        #expect(html.components(separatedBy: "<svg").count - 1 == HTMLTimeline.maxTimelines)
        #expect(html.contains("2 timelines left out"))
        let markdown = set.markdownText(stories: [stories])
        #expect(markdown.components(separatedBy: "```mermaid").count - 1 == MermaidSequence.maxDiagrams)
        #expect(markdown.contains("\(findings.count - MermaidSequence.maxDiagrams) diagrams left out"))
    }

    @Test func aReportReadFromJSONHasNoDiagramAndSaysWhy() throws {
        let file = Self.golden.appendingPathComponent("examples/observer-outlives-screen.scenario.json")
        let report = try Scenario.load(contentsOf: file).run()
        let markdown = ReportSet(reports: [report]).markdownText()
        #expect(!markdown.contains("```mermaid"))
        #expect(markdown.contains("No diagram: this report was read from JSON"))
        let html = ReportSet(reports: [report]).htmlText()
        #expect(!html.contains("<svg"))
        #expect(html.contains("No timeline"))
    }

    @Test func theHTMLPageLoadsNothingFromElsewhere() throws {
        let file = Self.golden.appendingPathComponent("examples/theme-loop-outlives-screen.scenario.json")
        let html = try Self.rendered(file).html
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("@import"))
        #expect(!html.contains("url("))
        #expect(!html.contains("src="))
        // The only URL is the SVG namespace, which is a name, not a request.
        #expect(
            html.components(separatedBy: "http").count - 1 == html.components(separatedBy: "xmlns=\"http").count - 1)
    }

    /// A finding only another delivery order shows is told from that
    /// order's replay: its event numbers are that replay's.
    @Test func aFindingOfAnotherOrderIsToldFromTheReplayThatFoundIt() throws {
        let told = try ReplayTests.FindingsOfEveryOrder.addThenRemove(order: "unspecified").parse()
            .runTellingStories()
        let finding = try #require(told.report.findings.first { $0.rule == "unbalanced-removal" })
        let story = try #require(told.stories[finding])
        // In that order cleaner's removal comes first, then closer's delivery adds panel.
        let deliveries = story.steps.filter { $0.action == .delivery }.map { story.participants[$0.to].name }
        #expect(deliveries == ["cleaner", "closer"])
        let removal = try #require(story.steps.firstIndex { $0.highlighted && $0.action == .removal })
        #expect(
            story.steps[removal...].contains {
                $0.action == .registration && story.participants[$0.from].name == "panel"
            })
    }

    @Test func aLongStoryIsTrimmedToTheFindingsEventsAndSaysHowManyWereLeftOut() {
        // One observer registered, then 500 posts to another channel, then released while registered.
        var recorder = [Event(kind: .track, object: 1, registration: 0)]
        recorder.append(Event(kind: .add, registry: 1, channel: 1, object: 1, registration: 1))
        for _ in 0..<500 { recorder.append(Event(kind: .post, registry: 1, channel: 2, subject: 2)) }
        recorder.append(Event(kind: .appRelease, object: 1))
        let recording = Recording(
            events: EventLog(recorder), strings: ["", "A", "B"],
            objects: [
                ObjectInfo(typeName: "-"), ObjectInfo(typeName: "Screen", label: "screen"),
                ObjectInfo(typeName: "Sender"),
            ],
            registries: [
                RegistryInfo(name: "-", kind: .subject),
                RegistryInfo(name: "center", kind: .notificationCenter, dedupe: false, order: .unspecified),
            ],
            sites: [CallSite(file: "-", line: 0)], siteLocations: [nil])
        let finding = Finding(rule: "r", severity: .error, message: "m", events: [1, 502])
        let story = FindingStory(finding, in: TraceIndex(recording))
        #expect(story != nil)
        guard let story else { return }
        #expect(story.steps.count <= FindingStory.maxSteps)
        #expect(story.steps.filter(\.highlighted).map(\.sequence) == [1, 502])
        #expect(story.leftOut > 400)
        let markdown = MermaidSequence.diagram(story).joined(separator: "\n")
        #expect(markdown.contains("events left out"))
        #expect(MermaidGrammar.problems(MermaidSequence.diagram(story)) == [])
    }
}

/// A small grammar of the Mermaid `sequenceDiagram` subset the reports
/// write: participants declared before use, arrows well formed, blocks
/// balanced, every text only literal characters and entity codes.
enum MermaidGrammar {
    static func blocks(in markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == "```mermaid" {
                current = []
            } else if line == "```", let block = current {
                blocks.append(block)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func problems(_ lines: [String]) -> [String] {
        var problems: [String] = []
        guard lines.first == "sequenceDiagram" else { return ["the block does not start with sequenceDiagram"] }
        var declared = Set<String>()
        var depth = 0
        let arrows = ["-->>", "->>", "--x", "-x"]
        func checkText(_ text: Substring, _ line: String) {
            var rest = text[...]
            while let scalar = rest.unicodeScalars.first {
                if scalar == "#" {
                    // An entity: #123; or #name;
                    guard let end = rest.firstIndex(of: ";") else {
                        problems.append("unterminated entity in: \(line)")
                        return
                    }
                    let body = rest[rest.index(after: rest.startIndex)..<end]
                    if body.isEmpty || !body.allSatisfy({ $0.isLetter || $0.isNumber }) {
                        problems.append("bad entity in: \(line)")
                    }
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                if !MermaidSequence.isLiteral(scalar) { problems.append("unescaped \(scalar) in: \(line)") }
                rest = rest.dropFirst()
            }
        }
        for line in lines.dropFirst() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("participant ") {
                let parts = trimmed.dropFirst("participant ".count).split(separator: " ", maxSplits: 2)
                guard parts.count == 3, parts[1] == "as", parts[0].allSatisfy({ $0.isLetter || $0.isNumber }) else {
                    problems.append("bad participant: \(line)")
                    continue
                }
                declared.insert(String(parts[0]))
                checkText(parts[2], line)
            } else if trimmed.hasPrefix("Note over ") {
                guard let colon = trimmed.firstIndex(of: ":") else {
                    problems.append("note without text: \(line)")
                    continue
                }
                for name in trimmed[trimmed.index(trimmed.startIndex, offsetBy: 10)..<colon].split(separator: ",")
                where !declared.contains(String(name)) {
                    problems.append("undeclared \(name): \(line)")
                }
                checkText(trimmed[trimmed.index(after: colon)...].dropFirst(), line)
            } else if trimmed.hasPrefix("rect rgb(") {
                depth += 1
            } else if trimmed.hasPrefix("alt ") {
                depth += 1
                checkText(trimmed.dropFirst(4), line)
            } else if trimmed.hasPrefix("else ") {
                if depth == 0 { problems.append("else outside a block") }
                checkText(trimmed.dropFirst(5), line)
            } else if trimmed == "end" {
                depth -= 1
                if depth < 0 { problems.append("end without a block") }
            } else if let colon = trimmed.firstIndex(of: ":") {
                let head = trimmed[..<colon]
                guard let arrow = arrows.first(where: { head.contains($0) }),
                    let range = head.range(of: arrow)
                else {
                    problems.append("no arrow: \(line)")
                    continue
                }
                for name in [head[..<range.lowerBound], head[range.upperBound...]]
                where !declared.contains(String(name)) {
                    problems.append("undeclared \(name): \(line)")
                }
                checkText(trimmed[trimmed.index(after: colon)...].dropFirst(), line)
            } else {
                problems.append("unknown statement: \(line)")
            }
        }
        if depth != 0 { problems.append("unbalanced blocks") }
        return problems
    }
}
