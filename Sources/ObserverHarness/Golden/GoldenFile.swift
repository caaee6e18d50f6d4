import Foundation

/// One golden report file and the comparison with an actual report.
package struct GoldenFile: Sendable {
    package let url: URL

    package init(_ url: URL) { self.url = url }

    /// The golden file `NAME.report.json` in `folder`, or nil when `name`
    /// would leave the folder: an absolute path, an empty, `.` or `..`
    /// component, a backslash, or a symbolic link on the way (so neither a
    /// comparison reads nor a recording writes outside the folder).
    ///
    /// ```swift
    /// GoldenFile(named: "checkout/add-to-cart", in: golden)   // Golden/checkout/add-to-cart.report.json
    /// GoldenFile(named: "../../etc/passwd", in: golden)        // nil
    /// ```
    package init?(named name: String, in folder: URL) {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.hasPrefix("/"), !name.contains("\\"), !name.contains("\0"),
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else { return nil }
        var path = folder
        for (index, component) in components.enumerated() {
            path.appendPathComponent(index == components.count - 1 ? component + ".report.json" : String(component))
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: path.path)) != nil { return nil }
        }
        self.url = path
    }

    /// The largest golden file read: the same as any report file.
    package static let maxFileBytes = ReportSet.maxFileBytes

    /// The result of comparing actual text with the file.
    package enum Comparison: Sendable, Equatable {
        case matches
        case missing
        /// A unified diff, golden → actual.
        case differs(diff: String)
    }

    package func compare(_ actual: String) -> Comparison {
        guard FileManager.default.fileExists(atPath: url.path) else { return .missing }
        let expected: String
        do {
            expected = String(
                decoding: try InputFile.read(
                    url, path: url.path, maxBytes: Self.maxFileBytes,
                    what: "golden file"), as: UTF8.self)
        } catch {
            return .differs(diff: error.description + "\n")
        }
        if expected == actual { return .matches }
        return .differs(
            diff: LineDiff.unified(
                expected: expected, actual: actual,
                expectedLabel: "\(url.lastPathComponent) (golden)",
                actualLabel: "\(url.lastPathComponent) (actual)"))
    }

    /// Writes `text` atomically (a temporary file, then a rename), creating folders.
    package func write(_ text: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try OutputFile.write(text, to: url.path)
    }

    /// The `Golden/` folder of the package that contains `filePath`: the
    /// nearest ancestor folder holding a `Package.swift`.
    package static func packageGoldenDirectory(containing filePath: String) -> URL? {
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

/// The `Golden/` folder of the package whose test file calls it: the nearest
/// ancestor folder of `filePath` that holds a `Package.swift`, and its
/// `Golden` folder (which need not exist yet). Nil outside a package.
///
/// ```swift
/// let folder = try #require(goldenDirectory())
/// let report = try String(contentsOf: folder.appendingPathComponent("cart.report.json"), encoding: .utf8)
/// ```
public func goldenDirectory(forTestFile filePath: StaticString = #filePath) -> URL? {
    GoldenFile.packageGoldenDirectory(containing: "\(filePath)")
}
