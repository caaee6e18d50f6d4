import Foundation
import Testing

@testable import ObserverHarness

extension Live {
    /// A test may analyse while it still holds its objects, or let them go
    /// first: the facts a finding rests on (who registered a block, what a
    /// closure keeps alive, when an observed object died) are recorded when
    /// they happen, so every live rule that reads lifetimes or ownership
    /// reports the same bug, and stays quiet on the same near miss, either way.
    @Suite struct AnalysisTiming {
        /// One journey: it runs the app's calls and returns what the test
        /// still holds at the end, which the test lets go before or after
        /// analysing. The center lives on, as the app's default center does.
        struct Journey: CustomTestStringConvertible, Sendable {
            let name: String
            let rule: String
            let buggy: Bool
            let run: @Sendable (Harness, InstrumentedNotificationCenter) -> [AnyObject]
            var testDescription: String { "\(name) (\(buggy ? "bug" : "near miss"))" }
        }

        static let journeys: [Journey] = [
            Journey(name: "a screen adding its block on every appearance", rule: "duplicate-registration", buggy: true)
            { harness, center in
                let screen = BlockOwners.FeedScreen(center: center)
                harness.track(screen, label: "feed")
                screen.viewWillAppear()
                screen.viewWillAppear()
                return [screen]
            },
            Journey(name: "two screens appearing once each", rule: "duplicate-registration", buggy: false) {
                harness, center in
                let screens = [BlockOwners.FeedScreen(center: center), BlockOwners.FeedScreen(center: center)]
                for screen in screens {
                    harness.track(screen)
                    screen.viewWillAppear()
                }
                return screens
            },
            Journey(
                name: "a block capturing its screen strongly", rule: "registration-keeps-observer-alive", buggy: true
            ) { harness, center in
                let screen = LeakPinning.SettingsScreen()
                harness.track(screen, label: "settings")
                screen.observeStrongly(center)
                harness.noteReleased(screen)
                return [screen]
            },
            Journey(
                name: "a block capturing its screen weakly", rule: "registration-keeps-observer-alive", buggy: false
            ) { harness, center in
                let screen = LeakPinning.SettingsScreen()
                harness.track(screen, label: "settings")
                screen.observeWeakly(center)
                harness.noteReleased(screen)
                return [screen]
            },
            Journey(
                name: "a row still observing its finished download", rule: "observed-object-deallocated", buggy: true
            ) { harness, center in
                let manager = DownloadManager(center: center)
                let row = DownloadRow(task: manager.start("episode-1"), center: center, stopsInCallback: false)
                manager.finish("episode-1")
                center.post(name: .liveFeedReloaded, object: nil)
                row.stop()
                return [row, manager]
            },
            Journey(
                name: "a row that stops observing as its download finishes", rule: "observed-object-deallocated",
                buggy: false
            ) { harness, center in
                let manager = DownloadManager(center: center)
                let row = DownloadRow(task: manager.start("episode-1"), center: center)
                manager.finish("episode-1")
                return [row, manager]
            },
            Journey(
                name: "a strong list made in the test keeping a released screen",
                rule: "registration-keeps-observer-alive", buggy: true
            ) { harness, center in
                let list = harness.observerList(of: LiveScreen.self, hold: .strong)
                var hud: LiveScreen? = LiveScreen("hud")
                list.add(hud!)
                harness.noteReleased(hud!)
                hud = nil
                return [list]
            },
            Journey(
                name: "a strong list made in the test, its screen removed before release",
                rule: "registration-keeps-observer-alive", buggy: false
            ) { harness, center in
                let list = harness.observerList(of: LiveScreen.self, hold: .strong)
                var hud: LiveScreen? = LiveScreen("hud")
                list.add(hud!)
                list.remove(hud!)
                harness.noteReleased(hud!)
                hud = nil
                return [list]
            },
            Journey(
                name: "a strong delegate slot of an owner made in the test keeping a released screen",
                rule: "registration-keeps-observer-alive", buggy: true
            ) { harness, center in
                let downloader = LiveScreen("downloader")
                let slot = harness.delegateSlot(of: downloader, as: LiveScreen.self, hold: .strong)
                var screen: LiveScreen? = LiveScreen("screen")
                slot.set(screen)
                harness.noteReleased(screen!)
                screen = nil
                return [downloader, slot]
            },
            Journey(
                name: "a strong delegate slot cleared before its screen's release",
                rule: "registration-keeps-observer-alive", buggy: false
            ) { harness, center in
                let downloader = LiveScreen("downloader")
                let slot = harness.delegateSlot(of: downloader, as: LiveScreen.self, hold: .strong)
                var screen: LiveScreen? = LiveScreen("screen")
                slot.set(screen)
                slot.set(nil)
                harness.noteReleased(screen!)
                screen = nil
                return [downloader, slot]
            },
            Journey(name: "an unowned observer freed, then notified", rule: "notify-after-dealloc", buggy: true) {
                harness, center in
                let list = harness.observerList(of: LiveScreen.self, hold: .unowned)
                var player: LiveScreen? = LiveScreen("player")
                list.add(player!)
                player = nil
                list.notify { $0.reloads += 1 }
                return [list]
            },
            Journey(name: "an unowned observer removed, then freed", rule: "notify-after-dealloc", buggy: false) {
                harness, center in
                let list = harness.observerList(of: LiveScreen.self, hold: .unowned)
                var player: LiveScreen? = LiveScreen("player")
                list.add(player!)
                list.remove(player!)
                player = nil
                list.notify { $0.reloads += 1 }
                return [list]
            },
            Journey(name: "a screen overwriting its stored token", rule: "discarded-token", buggy: true) {
                harness, center in
                let screen = BlockOwners.OverwritingFeedScreen(center: center)
                harness.track(screen, label: "feed")
                screen.viewWillAppear()
                screen.viewWillAppear()
                // Leaving, it removes the one token it still has.
                if let token = screen.token { center.removeObserver(token) }
                return [screen]
            },
            Journey(name: "a screen removing its token before storing the next", rule: "discarded-token", buggy: false)
            { harness, center in
                let screen = BlockOwners.OverwritingFeedScreen(center: center)
                harness.track(screen, label: "feed")
                screen.viewWillAppear()
                if let token = screen.token { screen.center.removeObserver(token) }
                screen.viewWillAppear()
                if let token = screen.token { screen.center.removeObserver(token) }
                return [screen]
            },
        ]

        /// What the rule reports, as the lines and objects a user reads.
        private static func findings(of journey: Journey, analysingAfterRelease: Bool) -> [String] {
            let harness = Harness()
            let center = harness.notificationCenter()
            var held: [AnyObject] = journey.run(harness, center)
            if analysingAfterRelease { held.removeAll() }
            let report = harness.analyze()
            withExtendedLifetime((held, center)) {}
            return report.live(journey.rule).map { finding in
                "\(finding.site?.file ?? ""):\(finding.site?.line ?? 0) \(finding.objects.joined(separator: ","))"
            }
        }

        @Test(arguments: journeys)
        func theFindingsDoNotDependOnWhenTheTestAnalyses(_ journey: Journey) {
            let before = Self.findings(of: journey, analysingAfterRelease: false)
            let after = Self.findings(of: journey, analysingAfterRelease: true)
            #expect(before == after)
            #expect(before.isEmpty == !journey.buggy, "\(before)")
        }
    }
}
