import Foundation
import ObserverHarnessTesting
import Testing

@testable import ObserverHarness

/// A golden name cannot leave its folder — no `..`, no absolute
/// path, no symbolic link on the way — so neither a comparison reads nor a
/// recording writes anywhere else.
@Suite struct GoldenNameTests {
    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("golden-name-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static let report = Report(scenario: "x", eventCount: 1, replays: 1, findings: [])

    @Test(arguments: ["checkout", "checkout/add-to-cart", "a.b", "..hidden-but-inside", "é/ü"])
    func aRelativeNameInsideTheFolderNamesAReportThere(name: String) throws {
        let folder = try Self.folder()
        let file = try #require(GoldenFile(named: name, in: folder))
        #expect(file.url.path == folder.path + "/" + name + ".report.json")
    }

    @Test(arguments: ["../escape", "a/../../escape", "/etc/passwd", "a//b", "./a", "a/.", "", "a\\..\\b", "nul\0l"])
    func aNameThatWouldLeaveTheFolderIsRefused(name: String) throws {
        #expect(GoldenFile(named: name, in: try Self.folder())?.url == nil)
    }

    @Test func aNameThroughASymbolicLinkIsRefused() throws {
        let folder = try Self.folder(), outside = try Self.folder()
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("linked"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("file.report.json"),
            withDestinationURL: outside.appendingPathComponent("x.report.json"))
        #expect(GoldenFile(named: "linked/report", in: folder)?.url == nil)
        #expect(GoldenFile(named: "file", in: folder)?.url == nil)
    }

    @Test func assertGoldenRecordsNothingForAnEscapingName() throws {
        let root = try Self.folder()
        let golden = root.appendingPathComponent("Golden")
        try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
        withKnownIssue("the name leaves the folder") {
            assertGolden(Self.report, named: "../escaped", directory: golden, record: .all)
        }
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("escaped.report.json").path))
    }

    @Test func aGoldenFileLargerThanAReportCanBeIsADifferenceNotAHang() throws {
        let folder = try Self.folder()
        let url = folder.appendingPathComponent("big.report.json")
        // A sparse file: its size costs no disk.
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(GoldenFile.maxFileBytes) + 1)
        try handle.close()
        let comparison = try #require(GoldenFile(named: "big", in: folder)).compare("{}\n")
        #expect(
            comparison == .differs(diff: "\(url.path):1:1: error: the golden file is larger than 64 MiB, the limit\n"))
    }
}
