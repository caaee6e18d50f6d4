import Foundation
import ObserverHarness

/// Runs one command and returns the exit status.
struct HarnessCommand {
    let arguments: Arguments
    let output: Output

    init(_ arguments: Arguments) {
        self.arguments = arguments
        output = Output(file: arguments.output)
    }

    var format: Arguments.Format { arguments.format ?? (output.isTerminal ? .text : .json) }

    func execute() -> Int32 {
        switch arguments.command {
        case .version:
            return emit("harness-cli \(version)\n")
        case .help(let topic):
            return emit(topic?.text ?? CommandUsage.overview)
        case .rules:
            return listRules()
        case .explain(let rule):
            return explain(rule)
        case .run(let paths):
            return run(paths)
        case .analyze(let trace):
            return analyze(trace)
        case .goldenCheck(let directory):
            return golden(directory, update: false)
        case .goldenUpdate(let directory):
            return golden(directory, update: true)
        case .merge(let files):
            return merge(files)
        }
    }

    // MARK: Commands

    private func run(_ paths: [String]) -> Int32 {
        var files: [URL] = []
        var invalid = false
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                let reason = InputFile.missingReason(path)
                output.error("\(path):1:1: error: \(reason == "no such file" ? "no such file or folder" : reason)")
                invalid = true
                continue
            }
            if isDirectory.boolValue {
                // Only read: links are followed, to files and to folders.
                let scan = GoldenDirectory(URL(fileURLWithPath: path)).scanScenarioFiles(followingLinks: true)
                for problem in scan.problems { output.error(problem.description) }
                if scan.files.isEmpty, scan.problems.isEmpty {
                    output.error("\(path):1:1: error: no *.scenario.json files under this folder")
                }
                invalid = invalid || scan.files.isEmpty || !scan.problems.isEmpty
                files += scan.files
            } else {
                files.append(URL(fileURLWithPath: path))
            }
        }
        // A scenario named twice (a file and its folder, overlapping folders) is replayed once.
        var seen = Set<String>()
        files = files.filter { seen.insert($0.standardizedFileURL.resolvingSymlinksInPath().path).inserted }
        var reports: [Report] = []
        var stories: [ReportStories] = []
        for file in files {
            do {
                let scenario = try Scenario.load(contentsOf: file)
                var report: Report
                if drawsStories {
                    let told = try scenario.runTellingStories(seed: arguments.seed)
                    report = told.report
                    stories.append(told.stories)
                } else {
                    report = try scenario.run(seed: arguments.seed)
                }
                report.file = RepositoryFiles.displayPath(of: file)
                reports.append(report)
            } catch {
                output.error(error.description)
                invalid = true
            }
        }
        // Valid scenarios still report when others are invalid: nothing is lost.
        let status = reports.isEmpty ? 0 : render(reports, stories: stories)
        if status == 2 { return 2 }
        return invalid ? 2 : status
    }

    private func analyze(_ path: String) -> Int32 {
        // The recording is let go before the report is rendered: the two
        // together were the peak memory of a trace with many findings.
        let analysed: (report: Report, stories: ReportStories?)
        do {
            let trace = try Recording.readTrace(from: URL(fileURLWithPath: path))
            for warning in trace.warnings { output.error(warning.description) }
            if drawsStories {
                let told = trace.recording.analyzeTellingStories(name: trace.name)
                analysed = (told.report, told.stories)
            } else {
                analysed = (trace.analyze(), nil)
            }
        } catch {
            output.error("\(error)")
            return 2
        }
        guard let stories = analysed.stories else { return render([analysed.report]) }
        return render([analysed.report], stories: [stories])
    }

    /// Combines report files (single reports or sets) from sharded runs. The
    /// same scenario from two shards must agree; the result is sorted, so
    /// shard order does not matter.
    private func merge(_ paths: [String]) -> Int32 {
        var merged: [String: (report: Report, path: String)] = [:]
        var invalid = false
        for path in paths {
            do {
                for report in try ReportSet.load(contentsOf: URL(fileURLWithPath: path), path: path).reports {
                    let key = (report.file ?? "") + "\u{1F}" + report.scenario
                    if let earlier = merged[key] {
                        if earlier.report.jsonText() != report.jsonText() {
                            output.error(
                                "\(path):1:1: error: scenario \"\(report.scenario)\" is also in "
                                    + "\(earlier.path), with a different report")
                            invalid = true
                        }
                        continue
                    }
                    merged[key] = (report, path)
                }
            } catch {
                output.error(error.description)
                invalid = true
            }
        }
        if invalid { return 2 }
        let reports = merged.values.map(\.report).sorted { ($0.scenario, $0.file ?? "") < ($1.scenario, $1.file ?? "") }
        // A merge is a set even when one report came in, so tools read one shape.
        return render(reports, asSet: true)
    }

    private func golden(_ directory: String, update: Bool) -> Int32 {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            output.error("\(directory):1:1: error: no such folder")
            return 2
        }
        guard isDirectory.boolValue else {
            output.error("\(directory):1:1: error: not a folder: golden files are a folder of scenarios")
            return 2
        }
        let golden = GoldenDirectory(URL(fileURLWithPath: directory))
        let entries = update ? golden.update(seed: arguments.seed) : golden.check(seed: arguments.seed)
        // A folder with nothing to compare is a wrong path, not a pass.
        let compared = entries.contains { entry in
            switch entry {
            case .unfollowedLink: false
            default: true
            }
        }
        if !compared {
            let links = entries.isEmpty ? "" : " (links are not followed in a golden folder)"
            output.error("\(directory):1:1: error: no *.scenario.json files under this folder\(links)")
            return 2
        }
        var lines: [String] = []
        var failed = false
        var invalid = false
        for entry in entries {
            switch entry {
            case .matched(let scenario): lines.append("ok       \(scenario)")
            case .written(let report): lines.append("written  \(report)")
            case .mismatched(let scenario, let diff):
                failed = true
                lines.append("MISMATCH \(scenario)\n\(diff)")
            case .missingReport(let scenario):
                failed = true
                lines.append("MISSING  \(scenario): no report beside it (run `harness-cli golden update \(directory)`)")
            case .orphanedReport(let report):
                failed = true
                lines.append("ORPHAN   \(report): no scenario beside it")
            case .invalidScenario(let error):
                invalid = true
                output.error(error.description)
            case .unfollowedLink(let link):
                lines.append("skipped  \(link): a link, not followed (a report is never written where a link points)")
            }
        }
        let matched = entries.filter { if case .matched = $0 { true } else { false } }.count
        lines.append(
            "\(matched) of \(golden.scenarioFiles().count) golden reports match"
                + (failed && !update ? "; to accept the changes: harness-cli golden update \(directory)" : ""))
        do { try output.write(lines.joined(separator: "\n") + "\n", escaping: true) } catch {
            output.error(output.writeFailure(error, what: "results"))
            return 2
        }
        if invalid { return 2 }
        return failed && !update ? 1 : 0
    }

    private func listRules() -> Int32 {
        let rules = RuleCatalog.all
        if format == .json {
            let items = rules.map { rule in
                "  {\"id\": \(quote(rule.id)), \"severity\": \(quote(rule.severity.rawValue)), "
                    + "\"summary\": \(quote(rule.summary))}"
            }
            return emit("[\n" + items.joined(separator: ",\n") + "\n]\n", escaping: false)
        }
        let width = rules.map(\.id.count).max() ?? 0
        let lines = rules.map { rule in
            rule.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) + "  " + rule.summary
        }
        return emit(lines.joined(separator: "\n") + "\n")
    }

    private func explain(_ id: String) -> Int32 {
        guard let rule = RuleCatalog.descriptor(id: id) else {
            let known = RuleCatalog.all.map(\.id)
            let close = known.filter { $0.contains(id) || id.contains($0) }.first
            let words = Array(CommandLine.arguments.dropFirst())
            let error = Arguments.UsageError(
                message: "unknown rule '\(id)'" + (close.map { " (did you mean '\($0)'?)" } ?? "")
                    + "; `harness-cli rules` lists them",
                argument: words.lastIndex(of: id))
            output.error(error.diagnostic(words))
            return 2
        }
        return emit(
            """
            \(rule.id) (\(rule.severity.rawValue))

            \(rule.summary)

            \(rule.explanation)

            Fix: \(rule.fix)

            \(rule.isLiveOnly ? Self.liveOnlyNote : examples("Fires on (↓ marks the step whose line a finding is reported at):", rule.triggeringExamples))
            \(rule.isLiveOnly ? "" : examples("Clean near miss:", rule.cleanExamples))
            """)
    }

    /// What a live-only rule's page says in place of scenario examples.
    static let liveOnlyNote = """
        Live tests only: scenarios have no test scopes. The ScopeBoundaries article shows the bug and its
        near miss in Swift.

        """

    /// A rule's examples under a heading, each steps list indented.
    private func examples(_ heading: String, _ examples: [RuleExample]) -> String {
        let bodies = examples.map { example in
            let registries = example.registries.map { "  registries: \($0)\n" } ?? ""
            return registries
                + example.steps.split(separator: "\n", omittingEmptySubsequences: false)
                .map { "  \($0)" }.joined(separator: "\n")
        }
        return heading + "\n\n" + bodies.joined(separator: "\n\n") + "\n"
    }

    // MARK: Rendering

    /// Markdown and HTML draw each finding's story from the events.
    private var drawsStories: Bool { format == .markdown || format == .html }

    /// `stories`: per report, for Markdown and HTML; none for a merge (JSON
    /// reports keep event numbers, not events).
    private func render(_ reports: [Report], stories: [ReportStories] = [], asSet: Bool = false) -> Int32 {
        var set = ReportSet(reports: reports)
        // Read before writing: `--baseline F --write-baseline F` compares with the old F.
        var baseline: Baseline?
        if let path = arguments.baseline {
            do { baseline = try Baseline.load(contentsOf: URL(fileURLWithPath: path), path: path) } catch {
                output.error(error.description)
                return 2
            }
        }
        if let path = arguments.writeBaseline {
            do { try OutputFile.write(Baseline(set).jsonText(), to: path) } catch {
                output.error("\(path):1:1: error: cannot write the baseline: \(error.message)")
                return 2
            }
        }
        if let baseline { set = set.applying(baseline) }
        let single = set.reports.count == 1 && !asSet
        let contents: OutputContents
        switch format {
        case .text:
            contents = .text(single ? set.reports[0].text() : set.text())
        case .json:
            // Bytes, not text: the report of a large trace is written without a copy.
            contents = .bytes(single ? set.reports[0].jsonBytes() : set.jsonBytes())
        case .sarif:
            let repository = RepositoryFiles(root: FileManager.default.currentDirectoryPath)
            contents = .text(
                set.sarifText(
                    toolVersion: version, baselineUsed: arguments.baseline != nil,
                    locate: repository.path(for:)))
        case .junit:
            contents = .text(set.junitText(failingAt: severityThreshold))
        case .markdown:
            contents = .text(set.markdownText(stories: stories))
        case .html:
            contents = .text(set.htmlText(stories: stories))
        }
        // Markdown is read on terminals too; HTML, JSON, SARIF and JUnit escape their own.
        do { try output.write(contents, escaping: format == .text || format == .markdown) } catch {
            output.error(output.writeFailure(error, what: "report"))
            return 2
        }
        guard let threshold = severityThreshold else { return 0 }
        return set.reports.contains { $0.hasFindings(atOrAbove: threshold) } ? 1 : 0
    }

    private var severityThreshold: Severity? {
        switch arguments.failOn {
        case .error: .error
        case .warning: .warning
        case .note: .note
        case .never: nil
        }
    }

    private func emit(_ text: String, escaping: Bool = true) -> Int32 {
        do { try output.write(text, escaping: escaping) } catch {
            output.error(output.writeFailure(error, what: "output"))
            return 2
        }
        return 0
    }

    private func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
