import Foundation
import ObserverHarness
import Testing

/// `swift test` replays every bundled scenario and compares its report with
/// the checked-in golden file, so a change that alters a report fails here
/// until `harness-cli golden update` records it on purpose.
@Test func everyBundledScenarioMatchesItsGoldenReport() throws {
    let golden = try #require(GoldenFile.packageGoldenDirectory(containing: #filePath))
    let entries = GoldenDirectory(golden).check()
    #expect(!entries.isEmpty)
    for entry in entries {
        switch entry {
        case .matched: continue
        case .mismatched(let scenario, let diff):
            Issue.record(
                "\(scenario) no longer matches its golden report:\n\(diff)\nIf intended: swift run harness-cli golden update"
            )
        case .missingReport(let scenario): Issue.record("\(scenario) has no golden report")
        case .orphanedReport(let report): Issue.record("\(report) has no scenario")
        case .invalidScenario(let error): Issue.record("\(error)")
        case .written: Issue.record("check must never write")
        case .unfollowedLink(let link): Issue.record("\(link) is a link in the golden folder, never followed")
        }
    }
}
