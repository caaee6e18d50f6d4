import Foundation
import Testing

@testable import ObserverHarness

@Suite struct RecorderLifetimeTests {
    typealias Screen = RegistryFixtures.Screen

    @Test func releasedButStillAliveIsToldApartFromDeallocated() throws {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, hold: .strong)
        var keptID: ObjectID?
        do {
            let kept = Screen()
            keptID = harness.track(kept, label: "kept")
            list.add(kept)
            harness.noteReleased(kept)
        }
        var goneID: ObjectID?
        do {
            let gone = Screen()
            goneID = harness.track(gone, label: "gone")
            harness.noteReleased(gone)
        }
        let kept = try #require(keptID).rawValue, gone = try #require(goneID).rawValue
        let recording = harness.recording()
        let releases = recording.recordedEvents(.appRelease).map(\.event.object)
        #expect(releases == [kept, gone])
        let deallocations = recording.recordedEvents(.dealloc)
        #expect(deallocations.map(\.event.object) == [gone], "only the object nothing holds is gone")
        #expect(deallocations.first?.event.flags.contains(.detectedLate) == true)

        let findings = harness.analyze().findings.filter { $0.rule == "registration-keeps-observer-alive" }
        #expect(findings.map(\.objects) == [["kept"]])
    }

    @Test func deallocationFoundAtADeliveryIsRecordedBeforeIt() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, hold: .weak)
        do { list.add(Screen()) }
        list.notify { _ in }
        let kinds = harness.recording().recordedKinds
        #expect(kinds == [.track, .add, .post, .dealloc, .deliverSkipped])
    }

    @Test func eachDeallocationIsRecordedOnce() {
        let harness = Harness()
        do { harness.track(Screen()) }
        _ = harness.recording()
        _ = harness.recording()
        #expect(harness.recording().recordedCount(.dealloc) == 1)
    }

    @Test func idsAreNotReusedWhenAnAddressIsReused() throws {
        let harness = Harness()
        var firstID: ObjectID?
        var address: ObjectIdentifier?
        do {
            let first = Screen("first")
            firstID = harness.track(first)
            address = ObjectIdentifier(first)
        }
        // Whether the allocator hands the freed block back is up to it: claim
        // it did, so the test does not depend on it.
        let second = Screen("second")
        let secondID = ObjectID(rawValue: harness.recorder.objectID(for: second, at: try #require(address)))
        #expect(secondID != firstID)

        let recording = harness.recording()
        let first = try #require(firstID).rawValue
        let tracks = recording.recordedEvents(.track)
        let deallocation = try #require(recording.recordedEvents(.dealloc).first { $0.event.object == first })
        #expect(deallocation.event.flags.contains(.detectedLate))
        #expect(
            deallocation.sequence < tracks[1].sequence, "the old object is recorded gone before the new one is tracked")
        #expect(recording.objects.count == 3)
        withExtendedLifetime(second) {}
    }

    @Test func trackingTwiceRecordsOneTrackAndALaterLabelNamesTheObject() {
        let harness = Harness()
        let screen = Screen()
        let first = harness.track(screen)
        let second = harness.track(screen, label: "profile")
        #expect(first == second)
        let recording = harness.recording()
        #expect(recording.recordedCount(.track) == 1)
        #expect(recording.objectName(first.rawValue) == "profile")
        #expect(recording.object(first.rawValue).typeName == "Screen")
    }

    @Test func unlabelledObjectsAreNamedByTypeAndID() {
        let harness = Harness()
        let screen = Screen()
        let id = harness.track(screen)
        #expect(harness.recording().objectName(id.rawValue) == "Screen#\(id.rawValue)")
    }

    @Test func eventsAreFortyBytes() {
        #expect(MemoryLayout<Event>.size == 40)
        #expect(MemoryLayout<Event>.stride == 40)
    }
}
