import Foundation
import Testing

@testable import ObserverHarness

@Suite struct DelegateSlotTests {
    protocol ScrollerDelegate: AnyObject {
        func didSelect(index: Int) -> String
    }

    final class AlbumScreen: ScrollerDelegate {
        let name: String
        init(_ name: String = "album") { self.name = name }
        func didSelect(index: Int) -> String { "\(name) selected \(index)" }
    }

    final class Scroller {}

    @Test func delegateIsHeldWeaklyByDefault() {
        let harness = Harness()
        let scroller = Scroller()
        let slot = harness.delegateSlot(of: scroller, as: (any ScrollerDelegate).self)
        weak var weakScreen: AlbumScreen?
        do {
            let screen = AlbumScreen()
            weakScreen = screen
            slot.set(screen)
            #expect(slot.delegate != nil)
        }
        #expect(weakScreen == nil)
        #expect(slot.delegate == nil)
        #expect(slot.call { $0.didSelect(index: 1) } == nil)
        let recording = harness.recording()
        #expect(recording.recordedEvents(.delegateSet)[0].event.flags.hold == .weak)
        #expect(recording.recordedKinds.suffix(3) == [.delegateCall, .dealloc, .deliverSkipped])
    }

    /// A delegate of another size class, so the next screen is not made at
    /// its address once it is freed (a blocker of its own class takes it).
    final class MapScreen: ScrollerDelegate {
        let padding = (0, 0, 0, 0, 0, 0, 0, 0)
        func didSelect(index: Int) -> String { "map" }
    }

    /// A screen freed before another takes its place as delegate is replaced
    /// dead: no `delegate-overwritten`, with no call on the slot between, and
    /// whether the test analyses before the new delegate is set or after.
    @Test(arguments: [false, true])
    func replacingAFreedDelegateIsNotAnOverwrite(analyzingBetween: Bool) {
        let harness = Harness()
        let scroller = Scroller()
        let slot = harness.delegateSlot(of: scroller, as: (any ScrollerDelegate).self)
        var map: MapScreen? = MapScreen()
        slot.set(map!)
        map = nil
        let blocker = MapScreen()
        if analyzingBetween { _ = harness.analyze() }
        let album = AlbumScreen()
        slot.set(album)
        #expect(harness.analyze().findings.filter { $0.rule == "delegate-overwritten" }.isEmpty)
        withExtendedLifetime((blocker, album, scroller)) {}
    }

    @Test func strongHoldKeepsTheDelegateAlive() {
        let harness = Harness()
        let slot = harness.delegateSlot(of: Scroller(), as: (any ScrollerDelegate).self, hold: .strong)
        weak var weakScreen: AlbumScreen?
        do {
            let screen = AlbumScreen("kept")
            weakScreen = screen
            slot.set(screen)
        }
        #expect(weakScreen != nil)
        #expect(slot.call { $0.didSelect(index: 2) } == "kept selected 2")
    }

    @Test func callReturnsNilWhenNoDelegateWasSet() {
        let harness = Harness()
        let slot = harness.delegateSlot(of: Scroller(), as: (any ScrollerDelegate).self)
        var ran = false
        let result: String? = slot.call {
            ran = true; return $0.didSelect(index: 0)
        }
        #expect(result == nil)
        #expect(!ran)
        let call = harness.recording().recordedEvents(.delegateCall)
        #expect(call.count == 1)
        #expect(call.first?.event.object == 0)
    }

    @Test func callReachesTheCurrentDelegateAndSettingNilClearsIt() {
        let harness = Harness()
        let slot = harness.delegateSlot(of: Scroller(), as: (any ScrollerDelegate).self)
        let first = AlbumScreen("first"), second = AlbumScreen("second")
        slot.set(first)
        slot.set(second)
        #expect(slot.call { $0.didSelect(index: 3) } == "second selected 3")
        slot.set(nil)
        #expect(slot.call { $0.didSelect(index: 4) } == nil)
        let sets = harness.recording().recordedEvents(.delegateSet).map(\.event)
        #expect(sets.count == 3)
        #expect(sets.last?.object == 0)
        #expect(sets.last?.registration == 0)
        #expect(harness.analyze().findings.map(\.rule).contains("delegate-overwritten"))
    }
}
