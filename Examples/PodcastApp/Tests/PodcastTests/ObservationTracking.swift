import ObserverHarnessTesting
import PodcastTestSupport
import Testing

@MainActor
@Suite(.observerHarness(failingAt: .note)) struct ObservationTracking {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func chapterTitleObservesOnceAndMissesTheNextChapter() throws {
        try expectCaught(Wirings.observationNotRearmed)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func chapterHighlightObservesAgainFromOnChange() { expectSilent(Wirings.observationNotRearmed) }
}
