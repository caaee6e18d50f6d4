import Foundation
import PodcastTestSupport
import Testing

/// The app's production target links only the interface product (besides the
/// toolchain's Foundation and Observation), and no app type names the harness.
@Test func theAppImportsOnlyFoundationAndTheInterface() throws {
    let sources = appSourcesFolder()
    let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
    #expect(files.count >= 10)
    for file in files {
        let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
        let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }
        #expect(
            imports.allSatisfy {
                ["import Foundation", "import Observation", "import ObserverHarnessInterface"].contains($0)
            },
            "\(file) imports \(imports)")
        #expect(
            !text.replacingOccurrences(of: "ObserverHarnessInterface", with: "").contains("Harness"),
            "\(file) names the harness")
    }
}

/// Every marker in the app's sources belongs to a wiring the tests check, and
/// every wiring's marker is on exactly one line.
@MainActor
@Test func everyBugMarkerIsCheckedByAWiring() throws {
    let sources = appSourcesFolder()
    var markers: Set<String> = []
    for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) where file.hasSuffix(".swift") {
        let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
        for line in text.split(separator: "\n") {
            guard let range = line.range(of: "// bug: ") else { continue }
            markers.insert("\(file): \(line[range.upperBound...])")
        }
    }
    let checkedElsewhere = [
        "Session.swift: ordering-dependence", "Session.swift: ordering-dependence (the other receiver)",
        "Appearance.swift: async-observer-outlives-owner", "Ratings.swift: message-dropped",
        "Downloads.swift: delivery-off-isolation",
    ]
    let checked = Set(Wirings.all.map { "\($0.file): \($0.marker)" } + checkedElsewhere)
    #expect(markers == checked)
    for wiring in Wirings.all {
        #expect(wiring.expectedLine != nil, "\(wiring.file): \(wiring.markerComment)")
    }
}
