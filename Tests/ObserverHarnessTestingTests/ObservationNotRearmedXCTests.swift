import Foundation
import Observation
import ObserverHarness
import ObserverHarnessTesting
import XCTest

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable private final class Playlist: @unchecked Sendable {
    var episodes = 0
}

/// Shows the playlist's length; observes again from onChange when `rearms`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private final class PlaylistHeader: @unchecked Sendable {
    let playlist: Playlist
    let rearms: Bool

    init(playlist: Playlist, rearms: Bool) { (self.playlist, self.rearms) = (playlist, rearms) }

    func observe() {
        Observers.withObservationTracking(
            { _ = self.playlist.episodes },
            onChange: { [self] in
                if rearms { observe() }
            }, owner: self)
    }
}

/// `observation-not-rearmed` from an XCTest suite.
final class ObservationNotRearmedXCTests: XCTestCase {
    func testAnObservationNotArmedAgainMissesTheSecondChange() throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else {
            throw XCTSkip("Observation needs macOS 14")
        }
        let harness = Harness()
        let playlist = Playlist()
        let header = PlaylistHeader(playlist: playlist, rearms: false)
        withObserverHarness(harness) { header.observe() }
        playlist.episodes = 1
        playlist.episodes = 2

        assertFindings(harness, .exactly(["observation-not-rearmed"]))
    }

    func testAnObservationArmedAgainFromOnChangeSeesEveryChange() throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else {
            throw XCTSkip("Observation needs macOS 14")
        }
        let harness = Harness()
        let playlist = Playlist()
        let header = PlaylistHeader(playlist: playlist, rearms: true)
        withObserverHarness(harness) { header.observe() }
        playlist.episodes = 1
        playlist.episodes = 2

        assertFindings(harness, .none())
    }
}
