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

    /// Few (an insertion sort) and many (a sort): the live ones, by id.
    @Test(arguments: [5, 200]) func theLiveObjectsAreListedInIDOrder(count: Int) {
        let harness = Harness()
        var screens: [Screen?] = (0..<count).map { _ in Screen() }
        let ids = screens.map { harness.track($0!).rawValue }
        for index in stride(from: 1, to: count, by: 3) { screens[index] = nil }
        let live = harness.recorder.liveObjectsNow()
        let expected = zip(ids, screens).filter { $0.1 != nil }.map(\.0).sorted()
        #expect(live.map(\.id) == expected)
        #expect(live.allSatisfy { pair in screens.contains { $0 === pair.object } })
        withExtendedLifetime(screens) {}
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
