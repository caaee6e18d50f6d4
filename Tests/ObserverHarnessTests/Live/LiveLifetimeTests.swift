import Foundation
import Testing

@testable import ObserverHarness

extension Live {
    /// A sender or observed object that deallocates while registrations name
    /// it is recorded at the next registry operation, not only by `analyze()`.
    @Suite struct Lifetimes {
        @Test func aSenderFreedWhileObservedIsCaughtEvenWhenTheObserverIsRemovedFirst() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var download: LiveScreen? = LiveScreen("download")
            let addLine: UInt = #line + 1
            let token = center.addObserver(forName: .liveFeedReloaded, object: download, queue: nil) { _ in }
            download = nil
            center.removeObserver(token)

            let finding = try #require(harness.analyze().live("observed-object-deallocated").first)
            #expect(finding.site?.line == Int(addLine))
        }

        @Test func anObservedObjectFreedIsCaughtAtAnotherRegistrysNextOperation() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let list = harness.observerList(of: LiveScreen.self)
            var track: LiveScreen? = LiveScreen("track")
            let title = harness.observedProperty("title", of: track!, initialValue: "")
            let screen = LiveScreen("screen")
            title.addObserver(screen, hold: .weak) { _, _ in }
            track = nil
            list.add(screen)  // another registry's operation notices it
            let dealloc = harness.recording().events.firstIndex { $0.kind == .dealloc }
            let add = harness.recording().events.lastIndex { $0.kind == .add }
            #expect(try #require(dealloc) < #require(add))
            title.removeObserver(screen)
            _ = center
            #expect(harness.analyze().live("observed-object-deallocated").count == 1)
        }

        @Test func aSenderFreedAfterItsObserverWasRemovedIsClean() {
            let harness = Harness()
            let center = harness.notificationCenter()
            var download: LiveScreen? = LiveScreen("download")
            let token = center.addObserver(forName: .liveFeedReloaded, object: download, queue: nil) { _ in }
            center.removeObserver(token)
            download = nil
            center.post(name: .liveFeedReloaded, object: nil)
            #expect(harness.analyze().live("observed-object-deallocated").isEmpty)
        }
    }
}
