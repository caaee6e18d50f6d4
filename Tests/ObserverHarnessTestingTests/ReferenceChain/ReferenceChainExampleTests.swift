import Foundation
import ObserverHarness
import ObserverHarnessInterface
import Testing

/// The failure AdoptingInAnApp and the rule's page show is this test's own:
/// both must quote it verbatim.
@Suite struct ReferenceChainExampleTests {
    @Test func aScreenCapturedByASubscriptionsClosureFailsWithItsChain() throws {
        let harness = Harness()
        let profile = withObserverHarness(harness) { Signal<String>() }  // the app's model, alive throughout
        withObserverHarness(harness) {
            var screen: ProfileScreen? = ProfileScreen(profile: profile)
            harness.noteReleased(screen!)
            screen = nil
            profile.send("Ada")
        }
        let leak = try #require(harness.outlivingObjects().first)
        #expect(leak.referenceChain.dropFirst() == ["Subscription.callback (closure)", "ProfileScreen#2"])
        let finding = try #require(harness.analyze().findings.first { $0.rule == "registration-keeps-observer-alive" })
        #expect(finding.referenceChain == leak.referenceChain)

        let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ObserverHarness/ObserverHarness.docc")
        let article = try String(contentsOf: catalog.appendingPathComponent("AdoptingInAnApp.md"), encoding: .utf8)
        #expect(article.contains(leak.failureMessage))
        let rulePage = try String(
            contentsOf: catalog.appendingPathComponent("Rules/registration-keeps-observer-alive.md"), encoding: .utf8)
        #expect(rulePage.contains(finding.message))
    }
}
