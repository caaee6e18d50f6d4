import Foundation
import Testing

@testable import ObserverHarness

/// What the analysis skips to stay cheap gives the report it gave before:
/// rules skipped when none of the kinds of event they read occurs (or none
/// carries the flag they need), and a rule's repeats folded as they come.
@Suite struct AnalysisShortcutTests {
    /// Every rule example and every bundled scenario. Parsed for each test that
    /// asks, not kept in a static: LeakSanitizer reports a parsed scenario held
    /// by a lazily made global as leaked.
    static func scenarios() -> [(name: String, scenario: Scenario)] {
        var scenarios = RuleExampleCase.all.compactMap { example in
            (try? Scenario.parse(Array(example.example.document(name: example.rule).utf8), path: "x.scenario.json"))
                .map { (example.testDescription, $0) }
        }
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Golden/examples").standardized
        let files = (try? FileManager.default.contentsOfDirectory(atPath: golden.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".scenario.json") {
            let bytes = (try? Data(contentsOf: golden.appendingPathComponent(file))).map { Array($0) } ?? []
            if let scenario = try? Scenario.parse(bytes, path: file) { scenarios.append((file, scenario)) }
        }
        return scenarios
    }

    @Test func theScenariosAreThere() {
        #expect(Self.scenarios().count > RuleExampleCase.all.count, "the bundled scenarios were not found")
    }

    @Test func skippingRulesWhoseEventsDoNotOccurChangesNoFinding() throws {
        var skipped = 0
        for (name, scenario) in Self.scenarios() {
            let trace = try Replay(scenario, schedule: Schedule()).run().trace
            #expect(
                Analyzer.findings(in: trace) == Analyzer.findings(in: trace, everyRule: true), "\(name)")
            skipped += RuleCatalog.rules.filter { !trace.present.admits($0) }.count
        }
        #expect(skipped > 0, "no scenario let a rule be skipped")
    }

    /// The facts that let a rule be skipped hold exactly when the recording
    /// shows them, read here from the posts and removals themselves.
    @Test func theFactsRulesNeedHoldExactlyWhenTheirEventsOccur() throws {
        var held: [TraceFacts: Int] = [:]
        var missing: [TraceFacts: Int] = [:]
        for (name, scenario) in Self.scenarios() {
            let trace = try Replay(scenario, schedule: Schedule()).run().trace
            let centerPosts = trace.posts.filter {
                $0.kind == .post && trace.registryKind($0.registry) == .notificationCenter
            }
            let expected: [(TraceFacts, Bool)] = [
                (.unmatchedRemoval, trace.removals.contains { trace.events[$0].registration == 0 }),
                (.unreceivedCenterPost, centerPosts.contains { $0.deliveries.isEmpty }),
                (.singleReceiverCenterPost, centerPosts.contains { $0.deliveries.count == 1 }),
            ]
            for (fact, holds) in expected {
                #expect(trace.present.holds(fact) == holds, "\(name): \(fact.rawValue)")
                if holds { held[fact, default: 0] += 1 } else { missing[fact, default: 0] += 1 }
            }
        }
        for fact in [TraceFacts.unmatchedRemoval, .unreceivedCenterPost, .singleReceiverCenterPost] {
            #expect(held[fact, default: 0] > 0 && missing[fact, default: 0] > 0, "fact \(fact.rawValue) never varies")
        }
    }

    /// mutation-during-notify skips its walk when no add or remove ran
    /// inside a delivery or its loop: the same findings as the walk.
    @Test func mutationDuringNotifySkippingItsWalkChangesNoFinding() throws {
        var skipped = 0
        for (name, scenario) in Self.scenarios() {
            let trace = try Replay(scenario, schedule: Schedule()).run().trace
            var walking = MutationDuringNotifyRule()
            walking.skipsWhenNothingNested = false
            var found: [Finding] = []
            var walked: [Finding] = []
            MutationDuringNotifyRule().check(trace, into: &found)
            walking.check(trace, into: &walked)
            #expect(found == walked, "\(name)")
            if !MutationDuringNotifyRule.someMutationRanInADelivery(trace) { skipped += 1 }
        }
        #expect(skipped > 0, "no scenario let the walk be skipped")
    }

    @Test func aRuleSkippedOnASmallTestStillFiresWhenItsEventOccurs() {
        let harness = Harness(name: "skips")
        let center = harness.notificationCenter()
        let token = center.addObserver(forName: Notification.Name("Tap"), object: nil, queue: nil) { _ in }
        center.post(name: Notification.Name("Tap"), object: nil)
        center.removeObserver(token)
        let quiet = TraceIndex(harness.recording())
        #expect(!quiet.kindsPresent.contains(.appRelease))
        #expect(!RegistrationKeepsObserverAliveRule().firesOnlyWith.intersects(quiet.kindsPresent))

        final class Screen {}
        let screens = harness.observerList("screens", of: Screen.self, hold: .strong)
        var screen: Screen? = Screen()
        screens.add(screen!)
        harness.noteReleased(screen!)
        screen = nil  // the list holds it strongly: still alive
        #expect(harness.analyze().findings.map(\.rule) == ["registration-keeps-observer-alive"])
    }

    @Test func aRuleSkippedForWantOfAFlagStillFiresWhenAnEventCarriesIt() {
        let harness = Harness(name: "flags")
        let center = harness.notificationCenter()
        let token = center.addObserver(forName: Notification.Name("Tap"), object: nil, queue: nil) { _ in }
        center.post(name: Notification.Name("Tap"), object: nil)
        let quiet = TraceIndex(harness.recording())
        #expect(quiet.kindsPresent.contains(.track), "tokens are tracked: the kind occurs")
        #expect(!quiet.present.admits(ValueObjectFilterRule()))
        #expect(!quiet.present.admits(DeliveryOffIsolationRule()))

        center.post(name: Notification.Name("Tap"), object: 7)
        center.removeObserver(token)
        #expect(harness.analyze().findings.map(\.rule).contains("value-object-filter"))
    }

    /// More repeats than one fold holds (4 096): the report counts them all
    /// and keeps the events the unfolded aggregation kept.
    @Test func repeatsFoldedAsTheyComeGiveTheReportOfFoldingThemAtTheEnd() {
        let harness = Harness(name: "repeats")
        let center = harness.notificationCenter()
        final class Screen {}
        let screens = [Screen(), Screen()]
        for round in 0..<5_000 {
            center.addObserver(screens[round % 2], name: Notification.Name("Tap\(round % 3)"), object: nil) { _, _ in }
        }
        let trace = TraceIndex(harness.recording())
        var unfolded: [Finding] = []
        DuplicateRegistrationRule().check(trace, into: &unfolded)
        #expect(unfolded.count > 4_096)
        var aggregator = FindingAggregator()
        for finding in unfolded.sorted(by: Finding.reportOrder) { aggregator.add(finding) }
        var folded = RuleFindings()
        for finding in unfolded { folded.append(finding) }
        let kept = folded.inReportOrder()
        #expect(kept.count < 100, "folded as they came, not kept to the end")
        var refolded = FindingAggregator()
        for finding in kept { refolded.add(finding) }
        let expected = aggregator.findings
        #expect(refolded.findings == expected)
        #expect(expected.map(\.count).reduce(0, +) == unfolded.count)
        #expect(expected.count == 6, "two screens, three names")
        withExtendedLifetime(screens) {}
    }
}
