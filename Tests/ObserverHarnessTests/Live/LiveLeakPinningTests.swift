import Foundation
import Testing

@testable import ObserverHarness

extension Live {
    /// A block capturing `self` while `self` keeps the block's token is found
    /// and reported at the registration's line.
    @Suite struct LeakPinning {
        final class SettingsScreen: @unchecked Sendable {
            var token: (any NSObjectProtocol)?
            var observation: PropertyObservation?
            var refreshes = 0
            static let strongLine: UInt = #line + 4
            static let weakLine: UInt = #line + 8

            func observeStrongly(_ center: InstrumentedNotificationCenter) {
                token = center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) { _ in
                    self.refreshes += 1
                }
            }
            func observeWeakly(_ center: InstrumentedNotificationCenter) {
                token = center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) { [weak self] _ in
                    self?.refreshes += 1
                }
            }
            func observeTheme(_ theme: ObservedProperty<String>) {
                observation = theme.observe { _ in self.refreshes += 1 }  // captures self
            }
        }

        @Test func aBlockCapturingItsOwnerIsReportedAtTheRegistrationLine() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: SettingsScreen? = SettingsScreen()
            weak let watcher = screen
            harness.track(screen!, label: "settings")
            screen!.observeStrongly(center)
            harness.noteReleased(screen!)
            screen = nil

            let findings = harness.analyze().live("registration-keeps-observer-alive")
            let finding = try #require(findings.first)
            #expect(findings.count == 1)
            #expect(finding.site?.line == Int(SettingsScreen.strongLine))
            #expect(finding.message.contains("settings (SettingsScreen) was released but is still alive"))
            #expect(finding.message.contains("captures it strongly"))
            // Found by detaching the block: the screen is freed now.
            #expect(watcher == nil)
            // The leak check says the same, at the same line.
            let leak = try #require(harness.outlivingObjects().first)
            #expect(leak.site?.line == Int(SettingsScreen.strongLine))
            #expect(leak.heldBy?.contains("captures it strongly") == true)
        }

        /// An `NSObject` is judged by whether detaching frees it (its count
        /// may be the Objective-C runtime's): caught once the test lets it go.
        final class LegacySettingsScreen: NSObject, @unchecked Sendable {
            var token: (any NSObjectProtocol)?
            var refreshes = 0
            func observe(_ center: InstrumentedNotificationCenter, strongly: Bool) {
                if strongly {
                    token = center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) { _ in
                        self.refreshes += 1
                    }
                } else {
                    token = center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) {
                        [weak self] _ in
                        self?.refreshes += 1
                    }
                }
            }
        }

        @Test(arguments: [true, false])
        func anNSObjectCapturedByItsBlockIsFoundOnceLetGo(strongly: Bool) throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: LegacySettingsScreen? = LegacySettingsScreen()
            weak let watcher = screen
            harness.track(try #require(screen), label: "legacy")
            screen?.observe(center, strongly: strongly)
            harness.noteReleased(try #require(screen))
            screen = nil
            let findings = harness.analyze().live("registration-keeps-observer-alive")
            #expect(findings.count == (strongly ? 1 : 0))
            #expect(watcher == nil)
            withExtendedLifetime(center) {}
        }

        @Test func aWeakSelfBlockIsClean() {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: SettingsScreen? = SettingsScreen()
            harness.track(screen!)
            screen!.observeWeakly(center)
            harness.noteReleased(screen!)
            screen = nil
            center.post(name: .liveSettingsChanged, object: nil)

            #expect(harness.analyze().live("registration-keeps-observer-alive").isEmpty)
            #expect(harness.outlivingObjects().isEmpty)
        }

        /// Kept alive by the test itself, not a registration: no block is
        /// blamed, and the screen's registration keeps working.
        @Test func anObjectKeptAliveElsewhereKeepsItsRegistrations() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let screen = SettingsScreen()
            harness.track(screen)
            screen.observeWeakly(center)
            harness.noteReleased(screen)

            #expect(harness.analyze().live("registration-keeps-observer-alive").isEmpty)
            let leak = try #require(harness.outlivingObjects().first)
            #expect(leak.heldBy == nil)
            center.post(name: .liveSettingsChanged, object: nil)
            #expect(screen.refreshes == 0)  // detached: it belonged to a released object
        }

        @Test func aPropertyObservationCapturingItsOwnerIsPinnedToo() throws {
            final class Theme {}
            let harness = Harness()
            let themeOwner = Theme()
            let theme = harness.observedProperty("name", of: themeOwner, initialValue: "light")
            var screen: SettingsScreen? = SettingsScreen()
            harness.track(screen!, label: "settings")
            screen!.observeTheme(theme)
            harness.noteReleased(screen!)
            screen = nil

            let finding = try #require(harness.analyze().live("registration-keeps-observer-alive").first)
            #expect(finding.message.contains("settings (SettingsScreen)"))
        }

        /// The token kept in a wrapper that removes it in its deinit: pinned,
        /// and the wrapper's removal once the screen is freed is no unbalanced removal.
        @Test func aBlockWhoseTokenSitsInAWrapperIsPinnedAndItsRemovalMatches() throws {
            final class Subscription {
                let center: InstrumentedNotificationCenter
                let token: any NSObjectProtocol
                init(_ center: InstrumentedNotificationCenter, _ token: any NSObjectProtocol) {
                    self.center = center
                    self.token = token
                }
                deinit { center.removeObserver(token) }
            }
            final class TrendingScreen: @unchecked Sendable {
                var subscriptions: [Subscription] = []
                var reloads = 0
                static let registration = CodeLocation()
                func load(_ center: InstrumentedNotificationCenter) {
                    let token = center.addObserver(
                        forName: .liveSettingsChanged, object: nil, queue: nil, location: Self.registration
                    ) { _ in self.reloads += 1 }
                    subscriptions.append(Subscription(center, token))
                }
            }
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: TrendingScreen? = TrendingScreen()
            weak let watcher = screen
            harness.track(screen!, label: "trending")
            screen!.load(center)
            harness.noteReleased(screen!)
            screen = nil

            let report = harness.analyze()
            let finding = try #require(report.live("registration-keeps-observer-alive").first)
            #expect(finding.site?.line == Int(TrendingScreen.registration.line))
            #expect(watcher == nil)
            #expect(report.live("unbalanced-removal").isEmpty)
        }
    }
}
