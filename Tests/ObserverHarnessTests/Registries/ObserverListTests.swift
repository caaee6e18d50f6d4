import Foundation
import Testing

@testable import ObserverHarness

@Suite struct ObserverListTests {
    typealias Screen = RegistryFixtures.Screen

    @Test func strongHoldKeepsTheObserverAliveAndNotifiesIt() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, hold: .strong)
        weak var weakScreen: Screen?
        do {
            let screen = Screen("profile")
            weakScreen = screen
            list.add(screen)
        }
        #expect(weakScreen != nil, "the list's strong hold keeps it alive")
        var notified: [String] = []
        list.notify { notified.append($0.name) }
        #expect(notified == ["profile"])
        #expect(harness.recording().recordedKinds == [.track, .add, .post, .deliver])
    }

    /// `count` counts live observers, as the plain list does: a weak or
    /// unowned one that deallocated is not counted, before or after a notify.
    @Test(arguments: [Hold.weak, .unowned])
    func countLeavesOutADeallocatedObserverAsWithoutAHarness(hold: Hold) {
        func counts(_ list: ObserverList<Screen>) -> [Int] {
            let kept = Screen("kept")
            list.add(kept)
            var gone: Screen? = Screen("gone")
            list.add(gone!)
            let both = list.count
            gone = nil
            let after = list.count
            if hold == .weak { list.notify { _ in } }
            return [both, after, list.count, list.observers().count]
        }
        let plain = counts(ObserverList(hold: hold))
        let instrumented = counts(Harness().observerList(of: Screen.self, hold: hold))
        #expect(plain == [2, 1, 1, 1])
        #expect(instrumented == plain)
    }

    @Test func weakHoldSkipsADeallocatedObserverAndRecordsDeliverSkipped() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, hold: .weak)
        weak var weakScreen: Screen?
        do {
            let screen = Screen()
            weakScreen = screen
            list.add(screen)
        }
        #expect(weakScreen == nil)
        var calls = 0
        list.notify { _ in calls += 1 }
        #expect(calls == 0)
        let recording = harness.recording()
        #expect(recording.recordedKinds == [.track, .add, .post, .dealloc, .deliverSkipped])
        let skipped = recording.recordedEvents(.deliverSkipped)[0].event
        #expect(skipped.cause == UInt32(recording.recordedEvents(.post)[0].sequence))
        #expect(recording.recordedEvents(.add)[0].event.flags.hold == .weak)
    }

    @Test func unownedHoldRecordsDeliverToDeadAndDoesNotCallTheBody() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, hold: .weak)
        do {
            let screen = Screen()
            list.add(screen, hold: .unowned)
        }
        var calls = 0
        list.notify { _ in calls += 1 }
        #expect(calls == 0)
        let recording = harness.recording()
        #expect(recording.recordedKinds == [.track, .add, .post, .dealloc, .deliverToDead])
        #expect(recording.recordedEvents(.add)[0].event.flags.hold == .unowned)
        #expect(harness.analyze().findings.map(\.rule).contains("notify-after-dealloc"))
    }

    @Test func dedupeIgnoresTheSecondIdenticalAdd() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, dedupe: true)
        let screen = Screen()
        list.add(screen)
        list.add(screen)
        #expect(list.count == 1)
        var calls = 0
        list.notify { _ in calls += 1 }
        #expect(calls == 1)
        let adds = harness.recording().recordedEvents(.add).map(\.event)
        #expect(adds.map { $0.flags.contains(.ignoredDuplicate) } == [false, true])
        #expect(adds[0].registration == adds[1].registration, "the ignored add names the existing registration")
    }

    @Test func withoutDedupeASecondAddNotifiesTwice() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self)
        let screen = Screen()
        list.add(screen)
        list.add(screen)
        var calls = 0
        list.notify { _ in calls += 1 }
        #expect(calls == 2)
        #expect(list.count == 2)
    }

    @Test func channelsKeepObserversApartAndRemoveWithoutChannelEndsAll() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self)
        let screen = Screen()
        list.add(screen, channel: "user")
        list.add(screen, channel: "cart")
        var log: [String] = []
        list.notify(channel: "user") { _ in log.append("user") }
        list.notify(channel: "other") { _ in log.append("other") }
        list.remove(screen, channel: "user")
        list.notify(channel: "user") { _ in log.append("user again") }
        list.notify(channel: "cart") { _ in log.append("cart") }
        list.remove(screen)
        list.notify(channel: "cart") { _ in log.append("cart again") }
        #expect(log == ["user", "cart"])
        #expect(list.count == 0)
    }

    @Test func removingAnUnregisteredObserverRecordsARemovalThatMatchedNothing() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self)
        let screen = Screen()
        list.remove(screen)
        let removal = harness.recording().recordedEvents(.remove)
        #expect(removal.count == 1)
        #expect(removal.first?.event.registration == 0)
        #expect(harness.analyze().findings.map(\.rule) == ["unbalanced-removal"])
    }

    @Test func anObserverAddedDuringNotifyMissesThatNotify() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self)
        let first = Screen("first"), late = Screen("late")
        list.add(first)
        var log: [String] = []
        list.notify { screen in
            log.append(screen.name)
            list.add(late)
        }
        #expect(log == ["first"])
        #expect(harness.analyze().findings.map(\.rule).contains("mutation-during-notify"))
    }

    // MARK: The list's cache of known observers

    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["OBSERVER_HARNESS_SANITIZER"] == "address",
            "AddressSanitizer quarantines freed memory: no new object gets a dead one's address"))
    func aNewObjectAtADeadObserversAddressIsANewObserverNotADuplicate() throws {
        // The allocator usually hands the freed memory to the next object of
        // its size, but not always (something may allocate in between): a
        // fresh list and harness per attempt until one gets the address.
        for _ in 0..<20 {
            let harness = Harness()
            let list = harness.observerList(of: Screen.self, hold: .weak, dedupe: true)
            guard let second = Self.objectAtTheAddressOfADeadObserver(of: list) else { continue }
            list.add(second)
            list.add(second)
            var called: [String] = []
            list.notify { called.append($0.name) }
            #expect(called == ["second"])
            let recording = harness.recording()
            let adds = recording.recordedEvents(.add).map(\.event)
            #expect(adds.map { $0.flags.contains(.ignoredDuplicate) } == [false, true, false, true])
            #expect(adds[0].object != adds[2].object, "ids are never reused")
            #expect(adds[2].registration != adds[0].registration)
            #expect(adds[3].registration == adds[2].registration)
            // The first object's death is recorded before the second is tracked.
            let firstDeath = try #require(
                recording.recordedEvents(.dealloc).first { $0.event.object == adds[0].object })
            let secondTrack = try #require(
                recording.recordedEvents(.track).first { $0.event.object == adds[2].object })
            #expect(firstDeath.sequence < secondTrack.sequence)
            return
        }
        // Seen once in some thousand parallel runs: nothing was checked, which
        // is not this list's failure. Said, not failed.
        withKnownIssue("the allocator gave no new object a dead observer's address", isIntermittent: true) {
            Issue.record("no new object got a dead observer's address in 20 attempts")
        }
    }

    /// Adds an observer to `list` twice, lets it die, and returns a new
    /// object at its address, if the allocator gives one within 1 000 tries.
    private static func objectAtTheAddressOfADeadObserver(of list: ObserverList<Screen>) -> Screen? {
        var address: ObjectIdentifier?
        do {
            let first = Screen("first")
            address = ObjectIdentifier(first)
            list.add(first)
            list.add(first)
        }
        var kept: [Screen] = []
        kept.reserveCapacity(1_000)
        defer { withExtendedLifetime(kept) {} }
        for _ in 0..<1_000 {
            let candidate = Screen("second")
            if ObjectIdentifier(candidate) == address { return candidate }
            kept.append(candidate)
        }
        return nil
    }

    @Test func anObserverAddedAgainAfterItsRemovalGetsANewRegistration() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, dedupe: true)
        let screen = Screen()
        list.add(screen)
        list.remove(screen)
        list.add(screen)
        list.add(screen)
        var calls = 0
        list.notify { _ in calls += 1 }
        #expect(calls == 1)
        let adds = harness.recording().recordedEvents(.add).map(\.event)
        #expect(adds.map { $0.flags.contains(.ignoredDuplicate) } == [false, false, true])
        #expect(adds[1].registration != adds[0].registration)
        #expect(adds[2].registration == adds[1].registration)
        #expect(Set(adds.map(\.object)).count == 1, "one object, one id")
    }

    @Test func dedupeMatchesTheChannelNotTheLastRegistration() {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, dedupe: true)
        let screen = Screen()
        list.add(screen, channel: "user")
        list.add(screen, channel: "cart")
        list.add(screen, channel: "user")
        list.add(screen, channel: "cart", hold: .weak)
        var log: [String] = []
        list.notify(channel: "user") { _ in log.append("user") }
        list.notify(channel: "cart") { _ in log.append("cart") }
        #expect(log == ["user", "cart"])
        let adds = harness.recording().recordedEvents(.add).map(\.event)
        #expect(adds.map { $0.flags.contains(.ignoredDuplicate) } == [false, false, true, true])
        #expect(adds[2].registration == adds[0].registration)
        #expect(adds[3].registration == adds[1].registration)
        #expect(adds[3].flags.hold == .weak, "an ignored add records its own hold")
    }

    @Test(arguments: [false, true])
    func aStrongListLetsARemovedObserverGo(dedupe: Bool) {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, hold: .strong, dedupe: dedupe)
        weak var gone: Screen?
        do {
            let screen = Screen()
            gone = screen
            list.add(screen)
            list.add(screen)
            list.remove(screen)
        }
        #expect(gone == nil, "nothing the list remembers keeps a removed observer alive")
        #expect(list.count == 0)
    }

    /// `removeAll` ends every registration, or one channel's: the plain list
    /// and the harness's call the same observers afterwards, let strongly held
    /// ones go, and the harness records one removal per registration ended.
    @Test(arguments: [false, true])
    func removeAllEndsEveryRegistrationOrOneChannelsAsThePlainListDoes(instrumented: Bool) {
        let harness = Harness(name: "remove all")
        let list = instrumented ? harness.observerList(of: Screen.self, hold: .strong) : ObserverList<Screen>()
        weak var released: Screen?
        let kept = Screen("kept")
        do {
            let screen = Screen("released")
            released = screen
            list.add(screen)
            list.add(screen, channel: "reset")
        }
        list.add(kept, channel: "reset")
        list.removeAll(channel: "reset")
        var called: [String] = []
        list.notify { called.append($0.name) }
        list.notify(channel: "reset") { called.append("reset: " + $0.name) }
        #expect(called == ["released"])
        list.removeAll()
        #expect(released == nil, "the list let go of the observer it held")
        list.notify { called.append($0.name) }
        #expect(called == ["released"])
        #expect(list.count == 0)
        list.removeAll()  // an empty list: nothing to remove, and no misuse
        guard instrumented else { return }
        #expect(harness.recording().recordedKinds.filter { $0 == .remove }.count == 3)
        #expect(harness.analyze().findings.isEmpty)
        withExtendedLifetime(kept) {}
    }

    /// The app's shutdown empties its list: the screens it held go, and the
    /// harness is quiet. Its near miss forgets to, and the screen the test
    /// released is reported as kept alive by the list.
    @Test(arguments: [true, false])
    func aListEmptiedAtShutdownKeepsNoReleasedScreenAlive(emptied: Bool) {
        let harness = Harness(name: "shutdown")
        let list = harness.observerList(of: Screen.self, hold: .strong)
        do {
            let screen = Screen("profile")
            list.add(screen)
            harness.noteReleased(screen)
        }
        if emptied { list.removeAll() }
        let rules = harness.analyze().findings.map(\.rule)
        #expect(rules == (emptied ? [] : ["registration-keeps-observer-alive"]), "\(rules)")
    }

    protocol Named: AnyObject { var label: String { get } }
    final class Plain: Named { var label: String { "plain" } }
    class Base: Named { var label: String { "base" } }
    final class Derived: Base { override var label: String { "derived" } }

    @Test func protocolTypedObserversOfSeveralClassesAreEachCalledAsThemselves() {
        let harness = Harness()
        let list = harness.observerList(of: (any Named).self, dedupe: true)
        let observers: [any Named] = [Plain(), Plain(), Base(), Derived(), Plain(), Derived()]
        for observer in observers { list.add(observer) }
        var labels: [String] = []
        list.notify { labels.append($0.label) }
        list.notify { _ in }
        #expect(labels == ["plain", "plain", "base", "derived", "plain", "derived"])
        var identities: [ObjectIdentifier] = []
        list.notify { identities.append(ObjectIdentifier($0)) }
        #expect(identities == observers.map { ObjectIdentifier($0) })
    }
}
