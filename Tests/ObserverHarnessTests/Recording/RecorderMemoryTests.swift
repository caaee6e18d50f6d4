import Testing

@testable import ObserverHarness

/// How the recorder keeps per-object state small (a dead object drops its weak
/// reference) without changing what it records.
@Suite struct RecorderMemoryTests {
    typealias Screen = RegistryFixtures.Screen

    @Test func lateDeallocationsAreRecordedInIDOrder() {
        let harness = Harness()
        var ids: [UInt32] = []
        do {
            let screens = (0..<50).map { _ in Screen() }
            ids = screens.map { harness.track($0).rawValue }
        }
        let deallocations = harness.recording().recordedEvents(.dealloc).map(\.event.object)
        #expect(deallocations == ids.sorted())
    }

    @Test func aDeadObjectsIDIsNeverReusedAndItsDeathIsRecordedOnce() {
        let harness = Harness()
        var first: UInt32 = 0
        do { first = harness.track(Screen()).rawValue }
        let kept = Screen()  // likely at the freed address
        let second = harness.track(kept).rawValue
        let recording = harness.recording()
        #expect(first != second)
        #expect(recording.recordedEvents(.dealloc).map(\.event.object) == [first])
        withExtendedLifetime(kept) {}
    }

    @Test func theFootprintCountsWholeEventChunks() {
        let harness = Harness()
        harness.noteAction(.read("k"))
        let footprint = harness.memoryFootprint
        #expect(footprint.events == 1)
        #expect(footprint.eventBytes == EventStorage.chunkSize * MemoryLayout<Event>.stride)
        #expect(footprint.tableBytes > 0)
    }
}
