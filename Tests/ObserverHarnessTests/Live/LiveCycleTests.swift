import Foundation
import Testing

@testable import ObserverHarness

extension Live {
    /// A handler that re-posts what it handles is cut at the depth bound,
    /// recorded, and reported: the test process survives.
    @Suite struct Cycles {
        @Test func anEndlessRepostLoopIsCutAndReportedAtThePostLine() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let handled = LiveBox(0)
            let postLine = LiveBox<UInt>(0)
            let token = center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) { _ in
                handled.value += 1
                postLine.value = #line; center.post(name: .liveSettingsChanged, object: nil)
            }
            center.post(name: .liveSettingsChanged, object: nil)
            center.removeObserver(token)

            #expect(handled.value == NotificationCycleRule.depthBound)
            let findings = harness.analyze().live("notification-cycle")
            let finding = try #require(findings.first)
            #expect(findings.count == 1)
            #expect(finding.site?.line == Int(postLine.value))
            #expect(finding.message.contains("\"SettingsChanged\""))
        }

        @Test func aPropertyWrittenBackByItsOwnObserverIsCut() throws {
            let harness = Harness()
            let settings = LiveScreen("settings")
            let volume = harness.observedProperty("volume", of: settings, initialValue: 0)
            var setLine: UInt = 0
            let observation = volume.observe { change in
                setLine = #line; volume.set(change.newValue + 1)
            }
            volume.set(1)
            observation.invalidate()

            #expect(volume.value == NotificationCycleRule.depthBound + 1)
            let finding = try #require(harness.analyze().live("notification-cycle").first)
            #expect(finding.site?.line == Int(setLine))
        }

        @Test func aDelegateCallbackCallingItselfIsCut() throws {
            let harness = Harness()
            let player = LiveScreen("player")
            let slot = harness.delegateSlot(of: player, as: LiveScreen.self)
            let screen = LiveScreen("screen")
            slot.set(screen)
            var calls = 0
            func didFinish(_ delegate: LiveScreen) {
                calls += 1
                slot.call { didFinish($0) }
            }
            slot.call { didFinish($0) }
            #expect(calls == NotificationCycleRule.depthBound)
            #expect(harness.analyze().live("notification-cycle").count == 1)
        }

        @Test func aHandlerPostingAnotherNameOnceIsNoCycle() {
            let harness = Harness()
            let center = harness.notificationCenter()
            let reloads = LiveBox(0)
            let settings = center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) { _ in
                center.post(name: .liveFeedReloaded, object: nil)
            }
            let feed = center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in reloads.value += 1
            }
            for _ in 0..<40 { center.post(name: .liveSettingsChanged, object: nil) }
            center.removeObserver(settings)
            center.removeObserver(feed)
            #expect(reloads.value == 40)
            #expect(harness.analyze().live("notification-cycle").isEmpty)
        }

        @Test func nestingJustUnderTheBoundIsDeliveredInFull() {
            let harness = Harness()
            let center = harness.notificationCenter()
            let depth = LiveBox(0)
            let token = center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) { _ in
                depth.value += 1
                if depth.value < NotificationCycleRule.depthBound {
                    center.post(name: .liveSettingsChanged, object: nil)
                }
            }
            center.post(name: .liveSettingsChanged, object: nil)
            center.removeObserver(token)
            #expect(depth.value == NotificationCycleRule.depthBound)
            #expect(harness.analyze().live("notification-cycle").isEmpty)
        }

        /// A change bubbling up a view hierarchy deeper than the bound: one
        /// name, a new sender at each level. It ends by itself, and is
        /// delivered in full, as on Foundation's center.
        @Test func aChainWhoseSenderChangesAtEachLevelIsNotCut() {
            final class View: Sendable {
                let superview: View?
                init(_ superview: View?) { self.superview = superview }
            }
            func bubble(_ center: any NotificationCenterProtocol) -> Int {
                var views = [View(nil)]
                for _ in 1..<(NotificationCycleRule.depthBound + 8) { views.append(View(views.last!)) }
                let delivered = LiveBox(0)
                let tokens = views.map { view in
                    center.addObserver(forName: .liveSettingsChanged, object: view, queue: nil) { _ in
                        delivered.value += 1
                        if let superview = view.superview { center.post(name: .liveSettingsChanged, object: superview) }
                    }
                }
                center.post(name: .liveSettingsChanged, object: views.last!)
                for token in tokens { center.removeObserver(token) }
                return delivered.value
            }
            let harness = Harness()
            #expect(bubble(harness.notificationCenter()) == bubble(NotificationCenter()))
            #expect(bubble(NotificationCenter()) == NotificationCycleRule.depthBound + 8)
            #expect(harness.analyze().live("notification-cycle").isEmpty)
        }
    }
}
