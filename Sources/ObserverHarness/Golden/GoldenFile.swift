import Foundation

/// One golden report file and the comparison with an actual report.
public struct GoldenFile: Sendable {
    public let url: URL

    public init(_ url: URL) { self.url = url }

    /// The result of comparing actual text with the file.
    public enum Comparison: Sendable, Equatable {
        case matches
        case missing
        /// A unified diff, golden → actual.
        case differs(diff: String)
    }

    public func compare(_ actual: String) -> Comparison {
        guard let data = FileManager.default.contents(atPath: url.path) else { return .missing }
        let expected = String(decoding: data, as: UTF8.self)
        if expected == actual { return .matches }
        return .differs(diff: LineDiff.unified(expected: expected, actual: actual,
                                               expectedLabel: "\(url.lastPathComponent) (golden)",
                                               actualLabel: "\(url.lastPathComponent) (actual)"))
    }

    /// Writes `text` atomically (a temporary file, then a rename), creating folders.
    public func write(_ text: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }

    /// The `Golden/` folder of the package that contains `filePath`: the
    /// nearest ancestor folder holding a `Package.swift`.
    public static func packageGoldenDirectory(containing filePath: String) -> URL? {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder.appendingPathComponent("Golden")
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
