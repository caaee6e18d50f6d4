import Foundation
import Testing

@testable import ObserverHarness

/// A keyboard tells its delegate; the delegate forwards to screens.
protocol LiveKeyboardDelegate: AnyObject { func keyboardWillShow() }
protocol LiveRouting: AnyObject { func open() }
protocol LiveAnalytics: AnyObject { func track() }

extension Live {
    /// `delegate-as-broadcast` from typed `DelegateSlot` calls: a delegate
    /// callback that calls one protocol on several other delegates.
    @Suite struct DelegateForwarding {
        final class Screen: LiveKeyboardDelegate, LiveRouting, LiveAnalytics {
            var shown = 0
            func keyboardWillShow() { shown += 1 }
            func open() {}
            func track() {}
        }

        final class Keyboard {
            let harness: Harness
            lazy var delegate = harness.delegateSlot(of: self, as: (any LiveKeyboardDelegate).self)
            init(_ harness: Harness) { self.harness = harness }
            func show() { delegate.call { $0.keyboardWillShow() } }
        }

        /// The app delegate forwarding the keyboard to every screen by hand.
        final class AppDelegate: LiveKeyboardDelegate {
            let home: DelegateSlot<any LiveKeyboardDelegate>
            let search: DelegateSlot<any LiveKeyboardDelegate>
            let router: DelegateSlot<any LiveRouting>
            let analytics: DelegateSlot<any LiveAnalytics>
            var forwardsToScreens = true
            static let forwardLine: UInt = #line + 14

            init(_ harness: Harness) {
                let owner = NSObject()
                home = harness.delegateSlot(of: owner, as: (any LiveKeyboardDelegate).self, name: "home")
                search = harness.delegateSlot(of: owner, as: (any LiveKeyboardDelegate).self, name: "search")
                router = harness.delegateSlot(of: owner, as: (any LiveRouting).self, name: "router")
                analytics = harness.delegateSlot(of: owner, as: (any LiveAnalytics).self, name: "analytics")
                ownerKeeper = owner
            }
            private let ownerKeeper: NSObject

            func keyboardWillShow() {
                if forwardsToScreens {
                    home.call { $0.keyboardWillShow() }
                    search.call { $0.keyboardWillShow() }
                } else {
                    router.call { $0.open() }
                    analytics.call { $0.track() }
                }
            }
        }

        private func wire(_ harness: Harness, forwardsToScreens: Bool) -> (Keyboard, AppDelegate, [Screen]) {
            let keyboard = Keyboard(harness)
            let app = AppDelegate(harness)
            app.forwardsToScreens = forwardsToScreens
            let screens = [Screen(), Screen()]
            harness.track(app, label: "app")
            harness.track(screens[0], label: "home")
            harness.track(screens[1], label: "search")
            keyboard.delegate.set(app)
            app.home.set(screens[0])
            app.search.set(screens[1])
            app.router.set(screens[0])
            app.analytics.set(screens[1])
            return (keyboard, app, screens)
        }

        @Test func aCallbackForwardedToTwoDelegatesOfOneProtocolIsABroadcast() throws {
            let harness = Harness()
            let (keyboard, app, screens) = wire(harness, forwardsToScreens: true)
            withExtendedLifetime(app) { keyboard.show() }

            #expect(screens.map(\.shown) == [1, 1])
            let findings = harness.analyze().live("delegate-as-broadcast")
            let finding = try #require(findings.first)
            #expect(findings.count == 1)
            #expect(finding.site?.line == Int(AppDelegate.forwardLine))
            #expect(finding.message.contains("app (AppDelegate) forwards the delegate call \"LiveKeyboardDelegate\""))
            #expect(finding.message.contains("2 delegates (home, search)"))
        }

        @Test func aCallbackThatTellsARouterAndAnAnalyticsObjectIsClean() {
            let harness = Harness()
            let (keyboard, app, screens) = wire(harness, forwardsToScreens: false)
            withExtendedLifetime((app, screens)) { keyboard.show() }
            #expect(harness.analyze().live("delegate-as-broadcast").isEmpty)
        }

        /// A chain (the callback tells its own one delegate) is delegation, not a broadcast.
        @Test func aCallbackPassedOnToOneDelegateIsClean() {
            let harness = Harness()
            let (keyboard, app, screens) = wire(harness, forwardsToScreens: true)
            app.search.set(nil)
            withExtendedLifetime((app, screens)) { keyboard.show() }
            #expect(harness.analyze().live("delegate-as-broadcast").isEmpty)
        }

        /// A second slot whose screen closed (freed; the weak slot calls no
        /// one) is the chain above, not a broadcast: only one object is called.
        @Test func aCallbackPassedOnToOneLiveDelegateAndAFreedOneIsClean() {
            let harness = Harness()
            var (keyboard, app, screens) = wire(harness, forwardsToScreens: true)
            let home = screens[0]
            screens = []  // the search screen closes
            withExtendedLifetime(app) { keyboard.show() }
            #expect(home.shown == 1)
            #expect(harness.analyze().live("delegate-as-broadcast").isEmpty)
        }
    }
}
