import Foundation
import Testing

@testable import ObserverHarness

extension Live {
    /// A released object still alive is explained by the chain of strong
    /// references that reaches it, each link read from memory; a weak or
    /// unowned link is never named.
    @Suite struct ReferenceChain {
        final class ProfileScreen: @unchecked Sendable {
            var model: Model?
            var bag = TokenBag()
            var reloads = 0
            func subscribe(to feed: Feed) {
                feed.subscribers.append(Subscription { _ in self.reloads += 1 })
            }
        }
        final class Subscription: @unchecked Sendable {
            let callback: (Int) -> Void
            init(_ callback: @escaping (Int) -> Void) { self.callback = callback }
        }
        final class Counter: @unchecked Sendable {
            var ended = 0
        }
        /// Noncopyable with a deinit: a copy looked into would end it twice.
        struct Ticket: ~Copyable {
            let counter: Counter
            deinit { counter.ended += 1 }
        }
        final class Feed: @unchecked Sendable {
            let ticket = Ticket(counter: Counter())
            var subscribers: [Subscription] = []
            var screens: [String: Wrapper] = [:]
            var lookup: Lookup?
            var extras: [String: Any] = [:]
        }
        final class Wrapper {
            let screen: ProfileScreen
            init(_ screen: ProfileScreen) { self.screen = screen }
        }
        final class WeakWrapper {
            weak var screen: ProfileScreen?
            unowned let other: ProfileScreen
            init(_ screen: ProfileScreen) {
                self.screen = screen
                other = screen
            }
        }
        final class Model {
            var observers: [ProfileScreen] = []
        }
        struct TokenBag {
            var tokens: [any NSObjectProtocol] = []
        }

        /// A harness that tracks a `feed` the test keeps and a screen labelled
        /// `label`, which `link` attaches to the feed (or to the harness)
        /// before the test notes it released and drops its own reference.
        private func leak<Screen: AnyObject>(
            _ make: () -> Screen, label: String = "profile", linkedBy link: (Harness, Feed, Screen) -> AnyObject?
        ) -> Leak {
            let harness = Harness()
            let feed = Feed()
            harness.track(feed, label: "feed")
            var screen: Screen? = make()
            harness.track(screen!, label: label)
            let kept = link(harness, feed, screen!)
            harness.noteReleased(screen!)
            screen = nil
            return Leak(harness: harness, feed: feed, kept: kept)
        }

        /// What a test keeps while it checks: the feed, and what `link` made (a registry).
        struct Leak {
            let harness: Harness
            let feed: Feed
            let kept: AnyObject?
        }

        /// A screen captured by the closure of a subscription object that
        /// a strong observer list ("signal") holds, added at `line`.
        private func registeredSubscriptionLeak(line: UInt = #line) -> Leak {
            leak(ProfileScreen.init) { harness, _, screen in
                let signal = harness.observerList("signal", of: Subscription.self, hold: .strong)
                signal.add(Subscription { _ in screen.reloads += 1 }, line: line)
                return signal
            }
        }

        /// The chain of the one leaked object, after the test let it go.
        private func chain(_ harness: Harness) throws -> [String] {
            let leaks = harness.outlivingObjects()
            #expect(leaks.count == 1)
            return try #require(leaks.first).referenceChain
        }

        @Test func aRegistrationHoldingTheObserverIsTheWholeChain() throws {
            let harness = Harness()
            let list = harness.observerList("feed", of: ProfileScreen.self, hold: .strong)
            var screen: ProfileScreen? = ProfileScreen()
            harness.track(screen!, label: "profile")
            list.add(screen!)
            harness.noteReleased(screen!)
            screen = nil

            #expect(try chain(harness).count == 2)
            #expect(try chain(harness).first?.hasPrefix("the registration in feed (added at ") == true)
            #expect(try chain(harness).last == "profile (ProfileScreen)")
            let finding = try #require(harness.analyze().live("registration-keeps-observer-alive").first)
            #expect(finding.message.contains("Reference chain: the registration in feed"))
        }

        @Test func aClosureInsideASubscriptionObjectIsALink() throws {
            let fixture = leak(ProfileScreen.init) { _, feed, screen in
                feed.subscribers.append(Subscription { _ in screen.reloads += 1 })
                return nil
            }
            #expect(
                try chain(fixture.harness) == [
                    "feed (Feed)", "Feed.subscribers[0]", "Subscription.callback (closure)", "profile (ProfileScreen)",
                ])
        }

        /// `self` captured in a method, or a `var` captured with other
        /// values (the closure holds a box that holds the screen).
        @Test(arguments: ["self", "var box"])
        func aCaptureOfSelfOrOfAVarIsALink(_ capture: String) throws {
            let fixture = leak(ProfileScreen.init) { _, feed, screen in
                if capture == "self" {
                    screen.subscribe(to: feed)
                } else {
                    var current: ProfileScreen? = screen
                    let title = "Profile"
                    feed.subscribers.append(Subscription { _ in current?.reloads += title.count })
                    if title.isEmpty { current = nil }  // a `var` the closure shares: boxed
                }
                return nil
            }

            #expect(
                try chain(fixture.harness) == [
                    "feed (Feed)", "Feed.subscribers[0]", "Subscription.callback (closure)", "profile (ProfileScreen)",
                ])
        }

        /// The signal library adopted as README says: its subscription
        /// objects are registered, and one's closure captures the screen.
        @Test func aRegisteredSubscriptionWhoseClosureCapturesTheScreenIsAFinding() throws {
            let line = #line
            let fixture = registeredSubscriptionLeak(line: UInt(line))
            let harness = fixture.harness

            let finding = try #require(harness.analyze().live("registration-keeps-observer-alive").first)
            #expect(finding.site?.line == line)
            #expect(finding.message.contains("profile (ProfileScreen) was released but is still alive"))
            #expect(finding.message.contains("Subscription.callback (closure) → profile (ProfileScreen)."))
            #expect(
                try chain(fixture.harness).dropFirst() == [
                    "Subscription.callback (closure)", "profile (ProfileScreen)",
                ])
        }

        /// The chain is the finding's `chain` in JSON (read back the same),
        /// and a list in the Markdown and HTML reports.
        @Test func reportsCarryAndDrawTheChain() throws {
            let fixture = registeredSubscriptionLeak()
            let report = fixture.harness.analyze()
            let finding = try #require(report.live("registration-keeps-observer-alive").first)
            #expect(
                finding.referenceChain.dropFirst() == ["Subscription.callback (closure)", "profile (ProfileScreen)"])
            let json = report.jsonText()
            #expect(json.contains(#""chain""#) && json.contains(#""Subscription.callback (closure)""#))
            let read = try ReportSet.parse(Array(json.utf8), path: "report.json")
            #expect(read.reports[0].findings.map(\.referenceChain) == report.findings.map(\.referenceChain))
            #expect(read.jsonText() == ReportSet(reports: [report]).jsonText())
            let set = ReportSet(reports: [report])
            #expect(set.markdownText().contains("**Reference chain:**"))
            #expect(set.markdownText().contains("  - ↳ `Subscription.callback (closure)`"))
            #expect(set.htmlText().contains("<li><code>Subscription.callback (closure)</code></li>"))
        }

        /// The chain is in the trace: `harness-cli analyze` of it says the same.
        @Test func aTraceCarriesTheChain() throws {
            let fixture = registeredSubscriptionLeak()
            let recording = fixture.harness.recording()
            let read = try Recording.readTrace(recording.traceData()).recording
            let live = recording.analyze().findings
            #expect(live.count == 1)
            #expect(read.analyze().findings.map(\.message) == live.map(\.message))
            #expect(read.analyze().findings.map(\.referenceChain) == live.map(\.referenceChain))
        }

        @Test func aTokenBagWhoseBlockCapturesItsOwnerIsACycleThroughTheRegistration() throws {
            weak var watcher: ProfileScreen?
            let fixture = leak(ProfileScreen.init) { harness, _, screen in
                watcher = screen
                let center = harness.notificationCenter()
                screen.bag.tokens.append(
                    center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) { _ in
                        screen.reloads += 1
                    })
                return center
            }

            let finding = try #require(fixture.harness.analyze().live("registration-keeps-observer-alive").first)
            #expect(finding.message.contains("(closure) → profile (ProfileScreen)."))
            #expect(finding.referenceChain.count == 2)
            #expect(finding.referenceChain.first?.hasSuffix(" (closure)") == true)
            #expect(watcher == nil)  // pinned: detaching the block freed it
        }

        @Test func aWrapperInADictionaryIsNamedByItsKey() throws {
            let fixture = leak(ProfileScreen.init) { _, feed, screen in
                feed.screens["profile"] = Wrapper(screen)
                return nil
            }

            #expect(
                try chain(fixture.harness) == [
                    "feed (Feed)", #"Feed.screens["profile"]"#, "Wrapper.screen", "profile (ProfileScreen)",
                ])
            #expect(fixture.feed.ticket.counter.ended == 0)  // its noncopyable ticket was not copied
        }

        /// An `Any` (or other existential) holds what it contains.
        @Test func aChainGoesThroughExistentials() throws {
            let fixture = leak(ProfileScreen.init) { _, feed, screen in
                feed.extras["last"] = [screen as AnyObject] as Any
                return nil
            }
            #expect(
                try chain(fixture.harness) == [
                    "feed (Feed)", #"Feed.extras["last"][0]"#, "profile (ProfileScreen)",
                ])
        }

        @Test func anObserverAndItsModelHoldingEachOtherAreACycle() throws {
            let harness = Harness()
            var screen: ProfileScreen? = ProfileScreen()
            harness.track(screen!, label: "profile")
            let model = Model()
            harness.track(model, label: "model")
            screen!.model = model
            model.observers.append(screen!)
            harness.noteReleased(screen!)
            harness.noteReleased(model)
            screen = nil

            let chains = harness.outlivingObjects().map(\.referenceChain)
            #expect(
                chains.contains([
                    "profile (ProfileScreen)", "ProfileScreen.model", "Model.observers[0]", "profile (ProfileScreen)",
                ]))
        }

        final class LegacyScreen: NSObject, @unchecked Sendable {
            var reloads = 0
        }

        @Test func anNSObjectSubclassCapturedByAClosureIsReached() throws {
            let fixture = leak(LegacyScreen.init, label: "legacy") { _, feed, screen in
                feed.subscribers.append(Subscription { _ in screen.reloads += 1 })
                return nil
            }

            #expect(
                try chain(fixture.harness) == [
                    "feed (Feed)", "Feed.subscribers[0]", "Subscription.callback (closure)", "legacy (LegacyScreen)",
                ])
        }

        enum Route {
            case home
            case detail(ProfileScreen, depth: Int)
        }
        struct NavigationState {
            var title = "Profile"
            var route = Route.home
        }
        final class Navigator {
            var state = NavigationState()
        }

        @Test func aChainGoesThroughAStructAndAnEnumPayload() throws {
            let navigator = Navigator()
            let fixture = leak(ProfileScreen.init) { harness, _, screen in
                harness.track(navigator, label: "navigator")
                navigator.state.route = .detail(screen, depth: 1)
                return navigator
            }

            #expect(
                try chain(fixture.harness) == [
                    "navigator (Navigator)", "Navigator.state.route(.detail).0", "profile (ProfileScreen)",
                ])
        }

        /// A case whose custom mirror shows the screen it looks up, not one it stores.
        enum Lookup: CustomReflectable {
            case byName(String)
            var customMirror: Mirror {
                Mirror(self, children: ["byName": ScreenDirectory.shared.screen as Any], displayStyle: .enum)
            }
        }
        final class ScreenDirectory: @unchecked Sendable {
            static let shared = ScreenDirectory()
            weak var screen: ProfileScreen?
        }

        /// Near misses: the screen is kept by the test itself, and reached
        /// only weakly or unowned (a capture list, a property), through a
        /// mirror that computes it, or no more: no chain is named, and the
        /// search says what it looked through.
        @Test(arguments: [
            "weak capture", "unowned capture", "weak property", "custom mirror", "cancelled subscription",
        ])
        func aWeakOrCancelledLinkIsNeverNamed(_ link: String) throws {
            let harness = Harness()
            let feed = Feed()
            harness.track(feed, label: "feed")
            let screen = ProfileScreen()
            harness.track(screen, label: "profile")
            switch link {
            case "weak capture":
                feed.subscribers.append(Subscription { [weak screen] _ in screen?.reloads += 1 })
            case "unowned capture":
                feed.subscribers.append(Subscription { [unowned screen] _ in screen.reloads += 1 })
            case "weak property":
                let wrapper = WeakWrapper(screen)
                feed.subscribers.append(Subscription { _ in _ = wrapper })
            case "custom mirror":
                ScreenDirectory.shared.screen = screen
                feed.lookup = .byName("profile")
                #expect(Mirror(reflecting: feed.lookup!).children.first?.value is ProfileScreen?)
            default:
                feed.subscribers.append(Subscription { _ in screen.reloads += 1 })
                feed.subscribers.removeAll()
            }
            harness.noteReleased(screen)

            let leak = try #require(harness.outlivingObjects().first)
            #expect(leak.referenceChain.isEmpty)
            #expect(leak.searched?.contains("from") == true)
            #expect(harness.analyze().live("registration-keeps-observer-alive").isEmpty)
        }

        /// Past its bound the search stops, and says so rather than guess.
        @Test func aSearchPastItsBoundSaysItStopped() throws {
            let fixture = leak(ProfileScreen.init) { _, feed, screen in
                for _ in 0..<ReferenceChains.objectLimit { feed.subscribers.append(Subscription { _ in }) }
                feed.subscribers.append(Subscription { _ in screen.reloads += 1 })
                return nil
            }

            let leak = try #require(fixture.harness.outlivingObjects().first)
            #expect(leak.referenceChain.isEmpty)
            #expect(
                leak.searched?.contains("the search stopped at its bound (10 000 objects, 100 000 references)") == true)
        }

        /// With nothing released and alive, nothing is searched.
        @Test func noLeakRecordsNoChainEvent() {
            let harness = Harness()
            var screen: ProfileScreen? = ProfileScreen()
            harness.track(screen!)
            harness.noteReleased(screen!)
            screen = nil
            #expect(TraceIndex(harness.recording()).referenceChainEvents.isEmpty)
        }
    }
}
