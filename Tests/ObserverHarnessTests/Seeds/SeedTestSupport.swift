import Foundation

@testable import ObserverHarness

/// The seed scenarios under `Golden/seeds/<seed>/`, which every seed test file
/// replays next to its Swift re-implementation.
enum SeedScenarios {
    static func url(seed: String, name: String) -> URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Golden/seeds/\(seed)/\(name).scenario.json")
    }

    /// The scenario replayed, explored and analysed.
    static func report(seed: String, name: String) throws -> Report {
        try Scenario.load(contentsOf: url(seed: seed, name: name)).run()
    }
}

extension Report {
    /// The findings a seed's bug is about: its notes left out.
    var errorsAndWarnings: [Finding] { findings.filter { $0.severity != .note } }
}
