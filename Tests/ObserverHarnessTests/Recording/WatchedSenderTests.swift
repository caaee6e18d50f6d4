import Foundation
import Testing

@testable import ObserverHarness

/// A sender an active registration names is watched: its deallocation is
/// recorded at the next registry operation, before what that operation
/// records, whichever senders stopped being watched in between.
@Suite struct WatchedSenderTests {
    final class Sender {}
    private let name = Notification.Name("WatchedSenderTests.ping")

    @Test func sendersStillWatchedAfterOthersStopAreSeenGoingInIDOrder() {
        let harness = Harness()
        let center = harness.notificationCenter()
        var senders: [Sender?] = (0..<5).map { _ in Sender() }
        let tokens = senders.map { center.addObserver(forName: name, object: $0!, queue: nil) { _ in } }
        // The first and third stop being watched; later ones take their places in the sweep.
        center.removeObserver(tokens[0])
        center.removeObserver(tokens[2])
        senders[4] = nil
        senders[1] = nil
        center.post(name: name, object: nil)
        let recording = harness.recording()
        let adds = recording.recordedEvents(.add).map(\.event.subject)
        let deallocs = recording.recordedEvents(.dealloc)
        #expect(deallocs.map(\.event.object) == [adds[1], adds[4]], "both, in id order")
        #expect(deallocs.allSatisfy { $0.event.flags.contains(.detectedLate) })
        let post = recording.recordedEvents(.post)[0].sequence
        #expect(deallocs.allSatisfy { $0.sequence < post }, "before the post that found them")
        // One no registration names any more is not swept: the next post finds
        // the watched one gone, and the other only when the recording is read.
        senders[0] = nil
        senders[3] = nil
        center.post(name: name, object: nil)
        let again = harness.recording()
        let secondPost = again.recordedEvents(.post)[1].sequence
        let foundBySecondPost = again.recordedEvents(.dealloc).filter { $0.sequence < secondPost }.map(\.event.object)
        #expect(foundBySecondPost == [adds[1], adds[4], adds[3]])
        for token in tokens { center.removeObserver(token) }
    }
}
