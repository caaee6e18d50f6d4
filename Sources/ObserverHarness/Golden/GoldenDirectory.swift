import Foundation

/// A folder of golden files: `NAME.scenario.json` beside the report it must
/// produce, `NAME.report.json` (`harness-cli golden check` / `golden update`).
package struct GoldenDirectory: Sendable {
    package let url: URL

    package init(_ url: URL) { self.url = url }

    /// What one scenario's golden comparison found.
    package enum Entry: Sendable, Equatable {
        case matched(scenario: String)
        /// The report differs; `diff` is a unified diff, expected → actual.
        case mismatched(scenario: String, diff: String)
        /// The scenario has no report file yet.
        case missingReport(scenario: String)
        /// A report with no scenario beside it.
        case orphanedReport(report: String)
        case invalidScenario(InputError)
        case written(report: String)
    }

    /// Every `*.scenario.json` under the folder, sorted by path, each named
    /// through the folder as it was given (`Golden/cart.scenario.json` for
    /// `Golden`), so messages quote paths the way the user wrote them.
    package func scenarioFiles() -> [URL] { Self.files(under: url, suffix: ".scenario.json").map(asGiven) }

    /// `file`, found under the folder, as a path through the folder's own
    /// spelling (`url.relativePath`).
    private func asGiven(_ file: URL) -> URL {
        let folder = url.isFileURL ? url.relativePath : url.path
        return URL(fileURLWithPath: (folder.hasSuffix("/") ? folder : folder + "/") + relativePath(file))
    }

    /// Compares every scenario's report with its golden file.
    package func check(seed: UInt64 = 0) -> [Entry] {
        var entries: [Entry] = []
        for scenarioURL in scenarioFiles() {
            let name = relativePath(scenarioURL)
            let reportURL = Self.reportURL(for: scenarioURL)
            let actual: String
            do {
                actual = try Scenario.load(contentsOf: scenarioURL).run(seed: seed).jsonText()
            } catch {
                entries.append(.invalidScenario(error))
                continue
            }
            let expected: String
            do {
                guard let text = try Self.readReport(reportURL) else {
                    entries.append(.missingReport(scenario: name))
                    continue
                }
                expected = text
            } catch {
                entries.append(.invalidScenario(error))
                continue
            }
            if expected == actual {
                entries.append(.matched(scenario: name))
            } else {
                entries.append(
                    .mismatched(
                        scenario: name,
                        diff: LineDiff.unified(
                            expected: expected, actual: actual, expectedLabel: relativePath(reportURL) + " (golden)",
                            actualLabel: relativePath(reportURL) + " (actual)")))
            }
        }
        entries += orphans()
        return entries
    }

    /// Rewrites every scenario's report (each file atomically). Orphaned
    /// reports are listed, not deleted.
    package func update(seed: UInt64 = 0) -> [Entry] {
        var entries: [Entry] = []
        for scenarioURL in scenarioFiles() {
            do {
                let text = try Scenario.load(contentsOf: scenarioURL).run(seed: seed).jsonText()
                let reportURL = Self.reportURL(for: scenarioURL)
                if try Self.readReport(reportURL) == text {
                    entries.append(.matched(scenario: relativePath(scenarioURL)))
                    continue
                }
                do throws(SystemError) {
                    try OutputFile.write(text, to: reportURL.path)
                } catch {
                    entries.append(
                        .invalidScenario(
                            InputError(
                                path: relativePath(reportURL), line: 1, column: 1,
                                message: "cannot write the report: \(error.message)")))
                    continue
                }
                entries.append(.written(report: relativePath(reportURL)))
            } catch {
                entries.append(.invalidScenario(error))
            }
        }
        return entries + orphans()
    }

    private func orphans() -> [Entry] {
        Self.files(under: url, suffix: ".report.json").compactMap { reportURL in
            let scenario = reportURL.deletingLastPathComponent().appendingPathComponent(
                String(reportURL.lastPathComponent.dropLast(".report.json".count)) + ".scenario.json")
            return FileManager.default.fileExists(atPath: scenario.path)
                ? nil : .orphanedReport(report: relativePath(reportURL))
        }
    }

    /// The golden report's text, nil when there is none. Only a regular file
    /// (or a link to one) is read, and at most ``GoldenFile/maxFileBytes``:
    /// a FIFO or a device named like a report is an error, not a hang.
    static func readReport(_ url: URL) throws(InputError) -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard
            (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
                || (try? url.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile)
                    == true
        else {
            throw InputError(
                path: url.relativePath, line: 1, column: 1, message: "the golden report is not a regular file")
        }
        let bytes = try InputFile.read(
            url, path: url.relativePath, maxBytes: GoldenFile.maxFileBytes, what: "golden report")
        return String(decoding: bytes, as: UTF8.self)
    }

    static func reportURL(for scenarioURL: URL) -> URL {
        let name = String(scenarioURL.lastPathComponent.dropLast(".scenario.json".count))
        return scenarioURL.deletingLastPathComponent().appendingPathComponent(name + ".report.json")
    }

    /// The path below the golden folder, as messages show it.
    func relativePath(_ file: URL) -> String {
        let base = url.standardizedFileURL.path, path = file.standardizedFileURL.path
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : file.lastPathComponent
    }

    /// Files under `directory` whose names end in `suffix`, sorted; links are
    /// not followed out of the folder.
    static func files(under directory: URL, suffix: String) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var result: [URL] = []
        for case let file as URL in enumerator where file.lastPathComponent.hasSuffix(suffix) {
            if (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { result.append(file) }
        }
        return result.sorted { $0.path < $1.path }
    }
}
