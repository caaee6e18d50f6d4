import Foundation
import Testing

@testable import ObserverHarness

/// A few end-to-end checks that live recordings reach the rules; the rules'
/// own tests cover them thoroughly.
@Suite struct LiveRecordingAnalysisTests {
    typealias Screen = RegistryFixtures.Screen

    @Test func observerAddedTwiceToAListFiresDuplicateRegistration() throws {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self)
        let screen = Screen()
        harness.track(screen, label: "profile")
        list.add(screen)
        let secondAddLine = #line + 1
        list.add(screen)
        list.notify { _ in }
        let finding = try #require(harness.analyze().findings.first { $0.rule == "duplicate-registration" })
        #expect(finding.objects == ["profile"])
        #expect(finding.registry == "subject")
        #expect(finding.site?.line == secondAddLine, "the finding points at the second add")
    }

    @Test func observerAddedTwiceToADedupingListDoesNotFireDuplicateRegistration() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, dedupe: true)
        let screen = Screen()
        list.add(screen)
        list.add(screen)
        list.notify { _ in }
        #expect(!harness.analyze().findings.contains { $0.rule == "duplicate-registration" })
    }

    @Test func cleanWiringHasNoFindings() {
        let harness = Harness()
        let center = harness.notificationCenter()
        let list = harness.observerList(of: Screen.self)
        let screen = Screen()
        list.add(screen)
        list.notify { _ in }
        list.remove(screen)
        let token = center.addObserver(forName: Notification.Name("A"), object: nil, queue: nil) { _ in }
        center.post(name: Notification.Name("A"), object: nil)
        center.removeObserver(token)
        let report = harness.analyze()
        #expect(report.findings.filter { $0.severity != .note }.isEmpty, "\(report.findings.map(\.rule))")
    }

    @Test func reportJSONNamesTheHarnessAndCountsEvents() {
        let harness = Harness(name: "smoke")
        let list = harness.observerList(of: Screen.self)
        list.notify { _ in }
        let report = harness.analyze()
        #expect(report.scenario == "smoke")
        #expect(report.eventCount == 1)
        #expect(report.jsonText().contains(#""scenario": "smoke""#))
    }
}
