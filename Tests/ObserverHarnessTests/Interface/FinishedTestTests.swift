import Foundation
import ObserverHarnessInterface
import Testing

@testable import ObserverHarness

/// A test that ends with a registration still in place (a long-lived
/// object's) leaves its center behind, and with it its recorder: what only
/// an analysis would read must not stay with them.
@Suite struct FinishedTestTests {
    final class Screen {}

    private static let leftBehind = Notification.Name("FinishedTestTests.leftBehind")

    @Test func aFinishedTestLetsGoOfTheReleasedObjectsItKeptForALeakReport() throws {
        weak var kept: Screen?
        var token: (any NSObjectProtocol)?
        do {
            let harness = Harness()
            withObserverHarness(harness) {
                token = Observers.center.addObserver(forName: Self.leftBehind, object: nil, queue: nil) { _ in }
            }
            var list: ObserverList<Screen>? = harness.observerList(of: Screen.self, hold: .strong)
            var screen: Screen? = Screen()
            kept = screen
            list?.add(screen!)
            harness.noteReleased(screen!)
            (screen, list) = (nil, nil)
            #expect(kept != nil, "kept while the test may still report the leak")
            #expect(harness.analyze().findings.map(\.rule).contains("registration-keeps-observer-alive"))
        }
        #expect(kept == nil, "the test ended: the app's object goes, as without the harness")
        Observers.center.removeObserver(try #require(token))
    }

    @Test func aRecordingTakenBeforeTheTestEndedStillReadsItsEvents() throws {
        var token: (any NSObjectProtocol)?
        let recording: Recording
        do {
            let harness = Harness()
            withObserverHarness(harness) {
                token = Observers.center.addObserver(forName: Self.leftBehind, object: nil, queue: nil) { _ in }
                Observers.center.post(name: Self.leftBehind, object: nil)
            }
            recording = harness.recording()
        }
        #expect(recording.recordedEvents(.post).count == 1)
        #expect(recording.recordedEvents(.deliver).count == 1)
        Observers.center.removeObserver(try #require(token))
    }
}
