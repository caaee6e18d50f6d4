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
        /// A link in the folder, not followed (a report is never written
        /// where a link points); the path below the folder.
        case unfollowedLink(String)
    }

    /// Every `*.scenario.json` under the folder, sorted by path, each named
    /// through the folder as it was given (`Golden/cart.scenario.json` for
    /// `Golden`), so messages quote paths the way the user wrote them.
    /// Links are not followed here: `golden update` writes each report beside
    /// its scenario, and must never write where a link points.
    package func scenarioFiles() -> [URL] { scanScenarioFiles(followingLinks: false).files }

    /// The scenario files, what the scan could not read (a folder it may not
    /// list: an error each, never a scenario silently left out), and the links
    /// it did not follow (each said, not skipped in silence).
    package func scanScenarioFiles(followingLinks: Bool) -> FolderScan {
        var scan = Self.scan(under: url, suffix: ".scenario.json", followingLinks: followingLinks)
        scan.files = scan.files.map(asGiven)
        return scan
    }

    /// `file`, found under the folder, as a path through the folder's own
    /// spelling (`url.relativePath`).
    private func asGiven(_ file: URL) -> URL {
        let folder = url.isFileURL ? url.relativePath : url.path
        return URL(fileURLWithPath: (folder.hasSuffix("/") ? folder : folder + "/") + relativePath(file))
    }

    /// Compares every scenario's report with its golden file.
    package func check(seed: UInt64 = 0) -> [Entry] {
        let scan = scanScenarioFiles(followingLinks: false)
        var entries: [Entry] = scan.problems.map(Entry.invalidScenario) + scan.unfollowedLinks.map(Entry.unfollowedLink)
        for scenarioURL in scan.files {
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
        let scan = scanScenarioFiles(followingLinks: false)
        var entries: [Entry] = scan.problems.map(Entry.invalidScenario) + scan.unfollowedLinks.map(Entry.unfollowedLink)
        for scenarioURL in scan.files {
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
        Self.scan(under: url, suffix: ".report.json", followingLinks: false).files.compactMap { reportURL in
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

    /// Files under `directory` whose names end in `suffix`, sorted, and the
    /// folders that could not be listed. Following links, a link is followed
    /// to a file (a dangling one is kept, so reading it reports it) or to a
    /// folder not listed already (so a loop of links ends, and a folder
    /// reached both ways is listed once, where it is); found files are named
    /// through `directory`, links included. Otherwise links are listed apart.
    static func scan(under directory: URL, suffix: String, followingLinks: Bool) -> FolderScan {
        var files: [URL] = []
        var problems: [InputError] = []
        var unfollowed: [String] = []
        var listed = Set<String>()
        // Named as the folder was given (`Golden/…`), as every message quotes paths.
        var given = directory.isFileURL ? directory.relativePath : directory.path
        while given.count > 1, given.hasSuffix("/") { given.removeLast() }
        var pending = [(folder: directory, shown: given)]
        var next = 0
        while next < pending.count {
            let (folder, shown) = pending[next]
            next += 1
            let real = folder.resolvingSymlinksInPath().standardizedFileURL.path
            guard listed.insert(real).inserted else { continue }
            let unreadable = UnreadableFolders()
            guard
                let enumerator = FileManager.default.enumerator(
                    at: URL(fileURLWithPath: real, isDirectory: true),
                    includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey], options: [.skipsHiddenFiles],
                    errorHandler: { url, error in
                        unreadable.add(url, error)
                        return true
                    })
            else {
                problems.append(InputError(path: shown, line: 1, column: 1, message: "cannot list this folder"))
                continue
            }
            for case let file as URL in enumerator {
                let path = file.standardizedFileURL.path
                guard path.hasPrefix(real + "/") else { continue }
                let shownPath = shown + "/" + path.dropFirst(real.count + 1)
                let values = try? file.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
                if values?.isSymbolicLink == true, !followingLinks {
                    unfollowed.append(String(path.dropFirst(real.count + 1)))
                    continue
                }
                if values?.isSymbolicLink == true {
                    var isFolder: ObjCBool = false
                    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                        // Listed after this folder, unless this folder lists it itself.
                        pending.append((file, shownPath))
                        continue
                    }
                } else if values?.isDirectory == true {
                    listed.insert(path)
                    continue
                }
                if file.lastPathComponent.hasSuffix(suffix) { files.append(URL(fileURLWithPath: shownPath)) }
            }
            for (url, reason) in unreadable.failures {
                let path = url.standardizedFileURL.path
                let shownPath = path.hasPrefix(real + "/") ? shown + "/" + path.dropFirst(real.count + 1) : shown
                problems.append(
                    InputError(
                        path: shownPath, line: 1, column: 1,
                        message: "cannot list this folder (\(reason)): its files would be left out"))
            }
        }
        return FolderScan(
            files: files.sorted { $0.path < $1.path }, problems: problems.sorted { $0.path < $1.path },
            unfollowedLinks: unfollowed.sorted())
    }
}

/// What a scan of a folder found.
package struct FolderScan: Sendable {
    package var files: [URL]
    /// Folders it could not list.
    package var problems: [InputError]
    /// Links it did not follow, below the folder (only a scan that follows none).
    package var unfollowedLinks: [String]
}

/// What a folder scan's enumerator could not read; its error handler runs
/// during the scan, on the scanning thread.
private final class UnreadableFolders: @unchecked Sendable {
    private(set) var failures: [(URL, String)] = []

    func add(_ url: URL, _ error: any Error) {
        let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? error.localizedDescription
        failures.append((url, reason))
    }
}
