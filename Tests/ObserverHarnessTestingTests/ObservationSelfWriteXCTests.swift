import Foundation
import Observation
import ObserverHarness
import ObserverHarnessTesting
import XCTest

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable private final class Volume: @unchecked Sendable {
    var level = 0
    var label = ""
}

/// Keeps the level within 0...10 from onChange (a write to what it tracks,
/// which the change in progress overwrites), or only labels it.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private final class VolumeClamp: @unchecked Sendable {
    let volume: Volume
    let clampsWhatItTracks: Bool

    init(volume: Volume, clampsWhatItTracks: Bool) {
        (self.volume, self.clampsWhatItTracks) = (volume, clampsWhatItTracks)
    }

    func observe() {
        Observers.withObservationTracking(
            { _ = self.volume.level },
            onChange: { [self] in
                if clampsWhatItTracks { volume.level = 10 } else { volume.label = "changed" }
            }, owner: self)
    }
}

/// `mutation-during-notify` in its Observation form, from an XCTest suite.
final class ObservationSelfWriteXCTests: XCTestCase {
    func testAnOnChangeWritingWhatItTracksHasItsWriteOverwritten() throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else {
            throw XCTSkip("Observation needs macOS 14")
        }
        let harness = Harness()
        let volume = Volume()
        let clamp = VolumeClamp(volume: volume, clampsWhatItTracks: true)
        withObserverHarness(harness) { clamp.observe() }
        volume.level = 11

        XCTAssertEqual(volume.level, 11, "the change in progress overwrote the clamp")
        assertFindings(harness, .exactly(["mutation-during-notify"]))
    }

    func testAnOnChangeWritingAnotherPropertyIsClean() throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else {
            throw XCTSkip("Observation needs macOS 14")
        }
        let harness = Harness()
        let volume = Volume()
        let clamp = VolumeClamp(volume: volume, clampsWhatItTracks: false)
        withObserverHarness(harness) { clamp.observe() }
        volume.level = 11

        XCTAssertEqual(volume.label, "changed")
        assertFindings(harness, .none())
    }
}
