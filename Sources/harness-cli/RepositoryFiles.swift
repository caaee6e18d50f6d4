import Foundation

/// Finds the repository file a finding's site names, so SARIF can point
/// code scanning at it. Sites come as `Cart.swift` (a scenario's `"site"`)
/// or `Module/Cart.swift` (a `#fileID`); neither is a path, so the files
/// under the root are indexed once, on first use, by name.
final class RepositoryFiles {
    /// Walking stops here: a site that is not found is still reported, at the
    /// scenario step or as written.
    static let maxFiles = 200_000

    private let root: String
    private var byName: [String: [String]]?

    init(root: String) {
        self.root = root
    }

    /// The path relative to the root, when exactly one file fits: the site
    /// itself, else the one file whose path ends with it, else the one file
    /// with its name.
    func path(for site: String) -> String? {
        let relative = site.hasPrefix("./") ? String(site.dropFirst(2)) : site
        var isDirectory: ObjCBool = false
        if !relative.hasPrefix("/"), !relative.split(separator: "/").contains(".."),
            FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            return relative
        }
        guard let name = relative.split(separator: "/").last.map(String.init),
            let candidates = index()[name]
        else { return nil }
        let bySuffix = candidates.filter { $0 == relative || $0.hasSuffix("/" + relative) }
        if bySuffix.count == 1 { return bySuffix[0] }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// How a scenario file is named in reports: relative to the working
    /// directory, with `..` for a file beside it (`../app/x.scenario.json`),
    /// so a report names the same file the same way on every machine.
    static func displayPath(of file: URL) -> String {
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            .standardizedFileURL.pathComponents
        let path = file.standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < path.count, base[common] == path[common] { common += 1 }
        // Only the root in common: another volume's path reads better whole.
        guard common > 1 || base.count <= 1 else { return file.standardizedFileURL.path }
        let up = Array(repeating: "..", count: base.count - common)
        return (up + path[common...]).joined(separator: "/")
    }

    private func index() -> [String: [String]] {
        if let byName { return byName }
        var result: [String: [String]] = [:]
        var count = 0
        let rootURL = URL(fileURLWithPath: root, isDirectory: true)
        let enumerator = FileManager.default.enumerator(
            at: rootURL, includingPropertiesForKeys: [.isDirectoryKey],
            options: [.skipsHiddenFiles, .skipsPackageDescendants])
        let prefix = rootURL.standardizedFileURL.path + "/"
        while let url = enumerator?.nextObject() as? URL, count < Self.maxFiles {
            let name = url.lastPathComponent
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                // Build folders hold copies of the sources.
                if name.hasPrefix(".build") || name == "DerivedData" { enumerator?.skipDescendants() }
                continue
            }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix) else { continue }
            result[name, default: []].append(String(path.dropFirst(prefix.count)))
            count += 1
        }
        for key in result.keys { result[key]?.sort() }
        byName = result
        return result
    }
}
