import Foundation
import Testing

@testable import ObserverHarness

extension Live {
    /// A block registration's observer is its token; the harness finds the
    /// tracked object holding the token, so one object registering a block
    /// twice is a duplicate and two objects registering once each are not.
    @Suite struct BlockOwners {
        /// The viewWillAppear pattern: each appearance adds another block.
        final class FeedScreen {
            let center: InstrumentedNotificationCenter
            var tokens: [any NSObjectProtocol] = []
            var reloads = 0
            static let addLine: UInt = #line + 4
            init(center: InstrumentedNotificationCenter) { self.center = center }

            func viewWillAppear() {
                tokens.append(center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in })
            }
        }

        @Test func oneScreenAddingTheSameBlockTwiceIsADuplicateAtTheAddLine() throws {
            let harness = Harness()
            let screen = FeedScreen(center: harness.notificationCenter())
            harness.track(screen, label: "feed")
            screen.viewWillAppear()
            screen.viewWillAppear()

            let findings = harness.analyze().live("duplicate-registration")
            let finding = try #require(findings.first)
            #expect(findings.count == 1)
            #expect(finding.site?.line == Int(FeedScreen.addLine))
            #expect(finding.message.hasPrefix("feed (FeedScreen) registered a block twice for \"FeedReloaded\""))
            #expect(finding.objects == ["feed"])
        }

        /// The same journey analysed after the test let the screen go: the
        /// tokens went in the screen's deinit, which is when their owner was
        /// noted, so the finding is the one analysing earlier gives.
        @Test func theRepeatIsFoundWhenTheCheckComesAfterTheRelease() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: FeedScreen? = FeedScreen(center: center)
            harness.track(try #require(screen), label: "feed")
            screen?.viewWillAppear()
            screen?.viewWillAppear()
            screen = nil

            let findings = harness.analyze().live("duplicate-registration")
            withExtendedLifetime(center) {}
            let finding = try #require(findings.first)
            #expect(findings.count == 1)
            #expect(finding.site?.line == Int(FeedScreen.addLine))
            #expect(finding.message.hasPrefix("feed (FeedScreen) registered a block twice for \"FeedReloaded\""))
            #expect(finding.objects == ["feed"])
        }

        final class LastReference: @unchecked Sendable {
            var object: AnyObject?
            init(_ object: AnyObject?) { self.object = object }
        }

        /// A screen whose deinit, on another thread, has begun (its weak
        /// references are empty) but not yet let its tokens go.
        final class SlowlyLeavingScreen: @unchecked Sendable {
            let center: InstrumentedNotificationCenter
            var tokens: [any NSObjectProtocol] = []
            let deinitStarted = DispatchSemaphore(value: 0)
            let mayFinish = DispatchSemaphore(value: 0)
            static let addLine: UInt = #line + 4
            init(center: InstrumentedNotificationCenter) { self.center = center }

            func viewWillAppear() {
                tokens.append(center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in })
            }

            let deinitFinished = DispatchSemaphore(value: 0)

            deinit {
                deinitStarted.signal()
                mayFinish.wait()
                for token in tokens { center.removeObserver(token) }
                deinitFinished.signal()
            }
        }

        /// The same journey checked while a queue is letting the screen go.
        /// The check sees the deinit under way (the screen's weak reference
        /// empty, its tokens alive with no holder), which is what makes
        /// `analyze()` wait a moment for it (up to 50 ms, so not asserted
        /// here by timing); once the deinit is done, the holder is known,
        /// however late the check.
        @Test func aCheckDuringTheDeinitSeesItUnderWayAndTheRepeatIsFoundAfter() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: SlowlyLeavingScreen? = SlowlyLeavingScreen(center: center)
            let (started, mayFinish, finished) = (screen!.deinitStarted, screen!.mayFinish, screen!.deinitFinished)
            harness.track(try #require(screen), label: "feed")
            screen?.viewWillAppear()
            screen?.viewWillAppear()
            #expect(!harness.recorder.mayHaveTokenHolderDying(), "alive: nothing under way")
            let last = LastReference(screen)
            screen = nil
            Thread { last.object = nil }.start()
            // Bounded waits: a regression fails this test, never hangs the suite.
            guard started.wait(timeout: .now() + 60) == .success else {
                Issue.record("the screen's deinit did not start within 60 s")
                return
            }
            #expect(harness.recorder.mayHaveTokenHolderDying())
            mayFinish.signal()
            guard finished.wait(timeout: .now() + 60) == .success else {
                Issue.record("the screen's deinit did not finish within 60 s")
                return
            }
            #expect(!harness.recorder.mayHaveTokenHolderDying(), "the tokens went with their holder named")

            let findings = harness.analyze().live("duplicate-registration")
            withExtendedLifetime(center) {}
            let finding = try #require(findings.first)
            #expect(findings.count == 1)
            #expect(finding.site?.line == Int(SlowlyLeavingScreen.addLine))
            #expect(finding.objects == ["feed"])
        }

        /// The classic shape: tokens removed only in deinit. The removals in
        /// the screen's deinit say whose they were.
        final class RemovingFeedScreen {
            let center: InstrumentedNotificationCenter
            var tokens: [any NSObjectProtocol] = []
            static let addLine: UInt = #line + 4
            init(center: InstrumentedNotificationCenter) { self.center = center }
            deinit { for token in tokens { center.removeObserver(token) } }
            func viewWillAppear() {
                tokens.append(center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in })
            }
            func viewWillDisappear() {
                for token in tokens { center.removeObserver(token) }
                tokens.removeAll()
            }
        }

        @Test(arguments: [false, true])
        func aScreenRemovingOnlyInDeinitIsCaughtEitherSideOfTheRelease(releasedFirst: Bool) throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: RemovingFeedScreen? = RemovingFeedScreen(center: center)
            harness.track(try #require(screen), label: "feed")
            screen?.viewWillAppear()
            screen?.viewWillAppear()
            if releasedFirst { screen = nil }
            let findings = harness.analyze().live("duplicate-registration")
            withExtendedLifetime((screen, center)) {}
            #expect(findings.count == 1)
            #expect(findings.first?.site?.line == Int(RemovingFeedScreen.addLine))
            #expect(findings.first?.objects == ["feed"])
        }

        /// One screen's deinit removes its token; right after, another (alive)
        /// removes its own: the second is not taken for the first's.
        @Test func aLiveScreensRemovalRightAfterAnotherScreensDeinitIsItsOwn() {
            let harness = Harness()
            let center = harness.notificationCenter()
            var first: RemovingFeedScreen? = RemovingFeedScreen(center: center)
            let second = RemovingFeedScreen(center: center)
            if let first { harness.track(first, label: "first") }
            first?.viewWillAppear()
            second.viewWillAppear()
            first = nil
            second.viewWillDisappear()
            #expect(harness.analyze().live("duplicate-registration").isEmpty)
        }

        /// A screen that keeps only its latest token (`token = center.addObserver…`):
        /// the overwritten one is a discarded token, and the repeat is the
        /// screen's whether the check comes before or after its release.
        final class OverwritingFeedScreen {
            let center: InstrumentedNotificationCenter
            var token: (any NSObjectProtocol)?
            static let addLine: UInt = #line + 3
            init(center: InstrumentedNotificationCenter) { self.center = center }
            func viewWillAppear() {
                token = center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in }
            }
        }

        @Test(arguments: [false, true])
        func anOverwrittenTokensRepeatIsFoundEitherSideOfTheRelease(releasedFirst: Bool) throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: OverwritingFeedScreen? = OverwritingFeedScreen(center: center)
            harness.track(try #require(screen), label: "feed")
            screen?.viewWillAppear()
            screen?.viewWillAppear()
            if releasedFirst { screen = nil }
            let report = harness.analyze()
            withExtendedLifetime((screen, center)) {}

            let duplicates = report.live("duplicate-registration")
            #expect(duplicates.count == 1)
            #expect(duplicates.first?.site?.line == Int(OverwritingFeedScreen.addLine))
            #expect(duplicates.first?.objects == ["feed"])
            // The overwrite dropped the first token; the release drops the second.
            #expect(report.live("discarded-token").count == (releasedFirst ? 2 : 1))
        }

        /// A screen that frees a view model holding the tokens: two tracked
        /// objects go at once, so neither is named, and nothing is guessed.
        @Test func aScreenAndTheModelItFreesGoingTogetherNameNoOwner() throws {
            final class Model {
                var tokens: [any NSObjectProtocol] = []
            }
            final class Screen {
                let model = Model()
            }
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: Screen? = Screen()
            harness.track(try #require(screen), label: "screen")
            harness.track(try #require(screen?.model), label: "model")
            screen?.model.tokens.append(
                center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in })
            screen = nil
            #expect(TraceIndex(harness.recording()).tokenOwners.isEmpty)
        }

        /// A tracked object that went earlier is not the owner of tokens that
        /// untracked services drop later, together: its death was noted when
        /// the next token was made.
        @Test func anObjectGoneBeforeTheRegistrationsOwnsNoneOfThem() {
            final class Service { var token: (any NSObjectProtocol)? }
            let harness = Harness()
            let center = harness.notificationCenter()
            var early: FeedScreen? = FeedScreen(center: center)
            if let early { harness.track(early, label: "early") }
            early = nil
            var services = [Service(), Service()]
            for service in services {
                service.token = center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in }
            }
            services.removeAll()
            #expect(TraceIndex(harness.recording()).tokenOwners.isEmpty)
            #expect(harness.analyze().live("duplicate-registration").isEmpty)
        }

        /// A tracked object another thread found gone while an untracked
        /// service kept its tokens is not the service's tokens' owner.
        @Test func anObjectFoundGoneOnAnotherThreadOwnsNoUntrackedHoldersTokens() {
            final class Service { var tokens: [any NSObjectProtocol] = [] }
            let harness = Harness()
            let center = harness.notificationCenter()
            var service: Service? = Service()
            for _ in 0..<2 {
                service?.tokens.append(
                    center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in })
            }
            var screen: FeedScreen? = FeedScreen(center: center)
            if let screen { harness.track(screen, label: "screen") }
            screen = nil
            // Another thread notices the screen is gone (it makes a token).
            let done = DispatchSemaphore(value: 0)
            Thread {
                let token = center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) { _ in }
                center.removeObserver(token)
                done.signal()
            }.start()
            done.wait()
            service = nil
            #expect(TraceIndex(harness.recording()).tokenOwners.isEmpty)
            #expect(harness.analyze().live("duplicate-registration").isEmpty)
        }

        /// Screens released on two threads at once: each token's owner is its
        /// own screen or none, never the other screen.
        @Test func screensReleasedOnTwoThreadsAreNeverEachOthersOwners() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            for _ in 0..<50 {
                let boxes = (0..<2).map { _ in UncheckedBox(FeedScreen(center: center)) }
                for box in boxes {
                    if let screen = box.value {
                        harness.track(screen)
                        screen.viewWillAppear()
                    }
                }
                await withTaskGroup(of: Void.self) { group in
                    for box in boxes { group.addTask { box.value = nil } }
                }
            }
            #expect(harness.analyze().live("duplicate-registration").isEmpty)
        }

        /// The near miss, analysed after the release too: two screens, one appearance each.
        @Test func twoScreensReleasedBeforeTheCheckAreClean() {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screens: [FeedScreen] = [FeedScreen(center: center), FeedScreen(center: center)]
            for screen in screens {
                harness.track(screen)
                screen.viewWillAppear()
            }
            center.post(name: .liveFeedReloaded, object: nil)
            screens.removeAll()
            #expect(harness.analyze().live("duplicate-registration").isEmpty)
        }

        @Test func twoScreensEachAddingTheBlockOnceAreClean() {
            let harness = Harness()
            let center = harness.notificationCenter()
            let screens = [FeedScreen(center: center), FeedScreen(center: center)]
            for screen in screens {
                harness.track(screen)
                screen.viewWillAppear()
            }
            #expect(harness.analyze().live("duplicate-registration").isEmpty)
        }

        @Test func aScreenThatRemovesBeforeAddingAgainIsClean() {
            let harness = Harness()
            let screen = FeedScreen(center: harness.notificationCenter())
            harness.track(screen)
            screen.viewWillAppear()
            for token in screen.tokens { screen.center.removeObserver(token) }
            screen.viewWillAppear()
            #expect(harness.analyze().live("duplicate-registration").isEmpty)
        }

        /// Two blocks for one name at two lines are two purposes, not a repeat.
        @Test func oneObjectsTwoBlocksForOneNameAtTwoLinesAreClean() {
            final class Player {
                var tokens: [String: any NSObjectProtocol] = [:]
            }
            let harness = Harness()
            let center = harness.notificationCenter()
            let player = Player()
            harness.track(player)
            player.tokens["badge"] = center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in }
            player.tokens["list"] = center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in }
            #expect(harness.analyze().live("duplicate-registration").isEmpty)
        }

        /// Tokens kept in a dictionary inside an optional struct are found too.
        @Test func tokensNestedInContainersHaveTheirOwner() throws {
            struct TokenLists { var byName: [String: [any NSObjectProtocol]] = [:] }
            final class Settings { var observations: TokenLists? = TokenLists() }
            let harness = Harness()
            let center = harness.notificationCenter()
            let settings = Settings()
            harness.track(settings, label: "settings")
            for _ in 0..<2 {
                let token = center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) { _ in }
                settings.observations?.byName["changed", default: []].append(token)
            }
            let finding = try #require(harness.analyze().live("duplicate-registration").first)
            #expect(finding.objects == ["settings"])
        }

        /// A service two screens share holds tokens of its own: neither screen owns them.
        @Test func tokensInsideAnotherObjectAreThatObjectsNotTheHolders() {
            final class Service { var tokens: [any NSObjectProtocol] = [] }
            final class Screen { let service: Service; init(_ service: Service) { self.service = service } }
            let harness = Harness()
            let center = harness.notificationCenter()
            let service = Service()
            let screens = [Screen(service), Screen(service)]
            screens.forEach { harness.track($0) }
            for _ in 0..<2 {
                service.tokens.append(center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in })
            }
            let recording = harness.recording()
            #expect(!recording.events.contains { $0.kind == .retain })
        }

        /// The `AnyCancellable` pattern: a wrapper object removes its token when it goes.
        final class Subscription {
            let center: InstrumentedNotificationCenter
            let token: any NSObjectProtocol
            init(_ center: InstrumentedNotificationCenter, _ token: any NSObjectProtocol) {
                self.center = center
                self.token = token
            }
            deinit { center.removeObserver(token) }
        }

        /// A screen keeping its tokens in a bag of wrappers owns them.
        @Test func tokensInsideWrapperObjectsAreTheScreens() throws {
            final class Bag { var subscriptions: [Subscription] = [] }
            final class InboxScreen {
                var bag = Bag()
                func viewWillAppear(_ center: InstrumentedNotificationCenter) {
                    bag.subscriptions.append(
                        Subscription(
                            center,
                            center.addObserver(
                                forName: .liveFeedReloaded, object: nil, queue: nil
                            ) { _ in }))
                }
            }
            let harness = Harness()
            let center = harness.notificationCenter()
            let screen = InboxScreen()
            harness.track(screen, label: "inbox")
            screen.viewWillAppear(center)
            screen.viewWillAppear(center)
            let findings = harness.analyze().live("duplicate-registration")
            #expect(findings.count == 1)
            #expect(findings.first?.objects == ["inbox"])
            #expect(TraceIndex(harness.recording()).tokenOwners.count == 2)
        }

        /// A tracked service's tokens are the service's, even when a screen
        /// reaches them through it: the search stops at objects the harness knows.
        @Test func aTrackedServicesTokensStayTheServices() throws {
            final class Service { var subscriptions: [Subscription] = [] }
            final class Screen { let service: Service; init(_ service: Service) { self.service = service } }
            let harness = Harness()
            let center = harness.notificationCenter()
            let service = Service()
            let screen = Screen(service)
            let serviceID = harness.track(service, label: "service")
            harness.track(screen, label: "screen")
            service.subscriptions.append(
                Subscription(
                    center,
                    center.addObserver(
                        forName: .liveFeedReloaded, object: nil, queue: nil
                    ) { _ in }))
            let owners = TraceIndex(harness.recording()).tokenOwners
            #expect(owners.count == 1)
            #expect(owners.values.first == serviceID.rawValue)
        }

        /// One wrapper two screens share is neither screen's.
        @Test func aWrapperTwoScreensShareOwnsForNeither() {
            final class Screen { let subscription: Subscription; init(_ s: Subscription) { subscription = s } }
            let harness = Harness()
            let center = harness.notificationCenter()
            let shared = Subscription(
                center,
                center.addObserver(
                    forName: .liveFeedReloaded, object: nil,
                    queue: nil
                ) { _ in })
            let screens = [Screen(shared), Screen(shared)]
            screens.forEach { harness.track($0) }
            #expect(TraceIndex(harness.recording()).tokenOwners.isEmpty)
        }

        /// A token is known by the mark on its `track` event, which a trace
        /// keeps; an app class that only shares a token class's name is not one.
        @Test func aTokenIsKnownByItsTrackEventNotItsClassName() throws {
            final class NotificationObserverToken {}
            let harness = Harness()
            let center = harness.notificationCenter()
            let lookalike = NotificationObserverToken()
            let lookalikeID = harness.track(lookalike).rawValue
            let token = center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in }
            let recording = harness.recording()
            let read = try Recording.readTrace(recording.traceData()).recording
            for trace in [TraceIndex(recording), TraceIndex(read)] {
                #expect(trace.describe(lookalikeID) == "NotificationObserverToken#\(lookalikeID)")
                let tokenID = try #require(trace.registrationsInOrder.first?.observer)
                #expect(trace.describe(tokenID).hasPrefix("block#\(tokenID) (LiveBlockOwnerTests.swift:"))
            }
            withExtendedLifetime(token) {}
        }

        @Test func findingsNameABlockByItsLineAndOwner() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let screen = FeedScreen(center: center)
            harness.track(screen, label: "feed")
            harness.noteReleased(screen)
            screen.viewWillAppear()
            center.post(name: .liveFeedReloaded, object: nil)
            let trace = TraceIndex(harness.recording())
            let token = try #require(trace.tokenOwners.keys.first)
            let description = trace.describe(token)
            #expect(description.hasPrefix("block#"))
            #expect(description.hasSuffix(":\(FeedScreen.addLine)) of feed (FeedScreen)"))
        }
    }
}

/// Hands one strong reference to another task, which lets it go there.
private final class UncheckedBox<Value: AnyObject>: @unchecked Sendable {
    var value: Value?
    init(_ value: Value) { self.value = value }
}
