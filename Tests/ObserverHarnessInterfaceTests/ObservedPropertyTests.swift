import ObserverHarnessInterface
import Testing

@Suite struct ObservedPropertyTests {
    final class Cover {
        private(set) lazy var image = ObservedProperty("image", of: self, initialValue: String?.none)
    }

    final class Spinner {
        var changes: [String] = []
    }

    @Test func everySetNotifiesWithTheOldAndNewValue() {
        let cover = Cover(), spinner = Spinner()
        cover.image.addObserver(spinner) { spinner, change in
            spinner.changes.append("\(change.oldValue ?? "nil")→\(change.newValue ?? "nil")")
        }
        cover.image.set("a.png")
        cover.image.set("a.png")
        #expect(spinner.changes == ["nil→a.png", "a.png→a.png"])
        #expect(cover.image.value == "a.png")
    }

    @Test func removedObserversHearNothing() {
        let cover = Cover(), spinner = Spinner()
        cover.image.addObserver(spinner) { spinner, _ in spinner.changes.append("set") }
        cover.image.removeObserver(spinner)
        cover.image.set("b.png")
        #expect(spinner.changes.isEmpty)
    }

    @Test func aDeallocatedObserverIsSkipped() {
        let cover = Cover()
        var calls = 0
        do {
            let spinner = Spinner()
            cover.image.addObserver(spinner) { _, _ in calls += 1 }
        }
        cover.image.set("c.png")
        #expect(calls == 0)
    }

    @Test func aBlockObservationEndsWhenInvalidatedOrReleased() {
        let cover = Cover()
        var kept: [String?] = [], released = 0
        let observation = cover.image.observe { kept.append($0.newValue) }
        do {
            let temporary = cover.image.observe { _ in released += 1 }
            _ = temporary
        }
        cover.image.set("d.png")
        observation.invalidate()
        cover.image.set("e.png")
        #expect(kept == ["d.png"])
        #expect(released == 0)
    }
}
