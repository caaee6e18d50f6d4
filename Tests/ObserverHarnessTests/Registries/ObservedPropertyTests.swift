import Foundation
import Testing

@testable import ObserverHarness

@Suite struct ObservedPropertyTests {
    typealias Screen = RegistryFixtures.Screen
    final class CoverView {}

    @Test func everySetNotifiesWithTheOldAndNewValues() {
        let harness = Harness()
        let cover = CoverView()
        let title = harness.observedProperty("title", of: cover, initialValue: "a")
        let screen = Screen()
        var changes: [String] = []
        title.addObserver(screen) { _, change in changes.append("\(change.oldValue)→\(change.newValue)") }
        title.set("b")
        title.set("b")
        title.set("c")
        #expect(changes == ["a→b", "b→b", "b→c"])
        #expect(title.value == "c")
        let recording = harness.recording()
        #expect(recording.recordedCount(.propertySet) == 3)
        #expect(recording.recordedCount(.deliver) == 3)
        let set = recording.recordedEvents(.propertySet)[0].event
        #expect(recording.string(set.channel) == "title")
        #expect(recording.registry(set.registry).kind == .property)
    }

    /// An observer removed (or a token invalidated) by another one's handler
    /// during a set is still called for that set, as the plain property
    /// calls the observers it found: the harness changes nothing.
    @Test(arguments: [false, true])
    func anObserverRemovedDuringASetIsCalledForItAsWithoutAHarness(byToken: Bool) {
        func run(_ make: (CoverView) -> ObservedProperty<Int>) -> [String] {
            let cover = CoverView()
            let count = make(cover)
            let first = Screen(), second = Screen()
            var log: [String] = []
            var secondToken: PropertyObservation?
            var tokens: [PropertyObservation] = []
            if byToken {
                tokens.append(
                    count.observe { change in
                        log.append("A:\(change.newValue)"); secondToken?.invalidate()
                    })
                secondToken = count.observe { change in log.append("B:\(change.newValue)") }
            } else {
                count.addObserver(first, hold: .strong) { [weak count] _, change in
                    log.append("A:\(change.newValue)")
                    count?.removeObserver(second)
                }
                count.addObserver(second, hold: .strong) { _, change in log.append("B:\(change.newValue)") }
            }
            count.set(1)
            count.set(2)
            // Ended, so no handler (which holds the tokens) outlives the test.
            for token in tokens { token.invalidate() }
            count.removeObserver(first)
            withExtendedLifetime((tokens, first, second, secondToken)) {}
            return log
        }
        let plain = run { ObservedProperty("count", of: $0, initialValue: 0) }
        let harness = Harness()
        let instrumented = run { harness.observedProperty("count", of: $0, initialValue: 0) }
        #expect(plain == ["A:1", "B:1", "A:2"])
        #expect(instrumented == plain)
    }

    @Test func blockObservationEndsOnInvalidate() {
        let harness = Harness()
        let title = harness.observedProperty("title", of: CoverView(), initialValue: 0)
        var seen: [Int] = []
        let observation = title.observe { seen.append($0.newValue) }
        title.set(1)
        observation.invalidate()
        title.set(2)
        #expect(seen == [1])
        let removal = harness.recording().recordedEvents(.remove)
        #expect(removal.count == 1)
        #expect(removal.first?.event.flags.contains(.byToken) == true)
        #expect(removal.first?.event.registration != 0)
    }

    @Test func blockObservationEndsWhenItsTokenDeinitializes() {
        let harness = Harness()
        let title = harness.observedProperty("title", of: CoverView(), initialValue: 0)
        var seen: [Int] = []
        do {
            let observation = title.observe { seen.append($0.newValue) }
            title.set(1)
            withExtendedLifetime(observation) {}
        }
        title.set(2)
        #expect(seen == [1])
        #expect(harness.recording().recordedEvents(.remove).first?.event.registration != 0)
    }

    @Test func invalidatingTwiceRemovesOnce() {
        let harness = Harness()
        let title = harness.observedProperty("title", of: CoverView(), initialValue: 0)
        let observation = title.observe { _ in }
        observation.invalidate()
        observation.invalidate()
        #expect(harness.recording().recordedCount(.remove) == 1)
    }

    @Test func addObserverIsUnownedLikeKVO() {
        let harness = Harness()
        let cover = CoverView()
        let title = harness.observedProperty("title", of: cover, initialValue: 0)
        var calls = 0
        do {
            let screen = Screen()
            title.addObserver(screen) { _, _ in calls += 1 }
        }
        title.set(1)
        #expect(calls == 0)
        #expect(harness.recording().recordedKinds.suffix(3) == [.propertySet, .dealloc, .deliverToDead])
        withExtendedLifetime(cover) {}
    }

    @Test func removeObserverStopsNotifications() {
        let harness = Harness()
        let title = harness.observedProperty("title", of: CoverView(), initialValue: 0)
        let screen = Screen()
        var calls = 0
        title.addObserver(screen, hold: .weak) { _, _ in calls += 1 }
        title.set(1)
        title.removeObserver(screen)
        title.set(2)
        #expect(calls == 1)
    }
}
