import Foundation
import ScopeJourneyApp
import Testing

@testable import ObserverHarness

/// Work that leaves a test's task behaves under the harness as on Foundation's
/// own default center. Each journey runs its app code (`ScopeJourneyApp`,
/// which links only the interface) first on `NotificationCenter.default`, then
/// under a harness, and compares.
///
/// The serial journeys run in a child process of their own (an exit test), so
/// no other test's scope is open: that is a serial run. The parallel ones open
/// two scopes at once on purpose.
#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
    @Suite struct ScopeBoundaryTests {
        // MARK: Serial runs: as production

        @Test(arguments: Hop.allCases)
        func aPostMadeAfterAHopIsHeardAsInProduction(hop: Hop) async {
            await #expect(processExitsWith: .success) { [hop] in
                let production = ScanResultsScreen(center: NotificationCenter.default)
                await hop.post(through: NotificationCenter.default)
                #expect(production.reloads.value == 1)
                production.stopObserving()

                let harness = Harness()
                let screen = await withObserverHarness(harness) {
                    let screen = ScanResultsScreen()
                    await hop.post()
                    return screen
                }
                #expect(screen.reloads.value == 1, "heard under the harness, as in production")
                let recording = harness.recording()
                #expect(recording.recordedEvents(.post).count == 1, "recorded in the running test")
                #expect(recording.recordedEvents(.deliver).count == 1)
                #expect(harness.analyze().findings.map(\.rule) == [])
            }
        }

        @Test func aSharedManagerMadeInAnEarlierTestPostsIntoTheRunningOne() async {
            await #expect(processExitsWith: .success) {
                let productionManager = ScanManager(center: NotificationCenter.default)
                let production = ScanResultsScreen(center: NotificationCenter.default)
                productionManager.finishScan()
                #expect(production.reloads.value == 1)
                production.stopObserving()

                // The first test touches the shared manager: it keeps `Observers.center`.
                let first = Harness()
                withObserverHarness(first) {
                    let screen = ScanResultsScreen()
                    ScanManager.shared.finishScan()
                    #expect(screen.reloads.value == 1)
                    screen.stopObserving()
                }
                let firstEvents = first.eventCount
                // The next test: the same manager posts into this test's harness.
                let second = Harness()
                withObserverHarness(second) {
                    let screen = ScanResultsScreen()
                    ScanManager.shared.finishScan()
                    #expect(screen.reloads.value == 1, "heard, as in production")
                    screen.stopObserving()
                }
                #expect(second.recording().recordedEvents(.post).count == 1, "recorded in the running test")
                #expect(first.eventCount == firstEvents, "the finished test's harness records nothing more")
            }
        }

        @Test func anObserverMadeBeforeAnyHarnessHearsAPostInsideTheScope() async {
            await #expect(processExitsWith: .success) {
                // App launch: no harness yet, so the screen registers on Foundation's center.
                let early = ScanResultsScreen()
                let harness = Harness()
                withObserverHarness(harness) { Observers.center.post(name: .scanFinished, object: nil) }
                #expect(early.reloads.value == 1, "heard, as in production")
                #expect(
                    harness.analyze().findings.map(\.rule) == ["unobserved-post"], "its registration is not this test's"
                )
            }
        }

        @Test func anObserverMadeBetweenTwoTestsHearsTheNextOne() async {
            await #expect(processExitsWith: .success) {
                withObserverHarness(Harness()) { _ = Observers.center }
                // A suite's set-up, outside every scope.
                let setUp = ScanResultsScreen()
                let harness = Harness()
                withObserverHarness(harness) { Observers.center.post(name: .scanFinished, object: nil) }
                #expect(setUp.reloads.value == 1, "heard, as in production")
            }
        }

        /// A `queue: .main` block an earlier test left registered hears a later
        /// test's post from the main actor in place, as the later test's own
        /// would: waiting for the main queue from the main actor would hang.
        @Test func anEarlierTestsMainQueueBlockHearsAMainActorPostInPlace() async {
            await #expect(processExitsWith: .success) {
                await MainActor.run {
                    let heard = Counter()
                    let first = Harness()
                    let token = withObserverHarness(first) {
                        Observers.center.addObserver(forName: .journeyThemeChanged, object: nil, queue: .main) { _ in
                            heard.bump()
                        }
                    }
                    withObserverHarness(Harness()) { Observers.center.post(name: .journeyThemeChanged, object: nil) }
                    #expect(heard.value == 1, "run in place, inside the post")
                    withObserverHarness(first) { Observers.center.removeObserver(token) }
                }
            }
        }

        @Test func aLongLivedRegistrationFromOneTestHearsTheNext() async {
            await #expect(processExitsWith: .success) {
                let production = ThemeService()
                production.start(center: NotificationCenter.default)
                NotificationCenter.default.post(name: .journeyThemeChanged, object: nil)
                #expect(production.changes.value == 1)

                let first = Harness()
                withObserverHarness(first) { ThemeService.shared.start() }
                let firstEvents = first.eventCount
                let second = Harness()
                withObserverHarness(second) { Observers.center.post(name: .journeyThemeChanged, object: nil) }
                #expect(ThemeService.shared.changes.value == 1, "heard, as in production")
                #expect(first.eventCount == firstEvents, "the finished test's harness records nothing more")
                // Released, the first harness's center still delivers to the service.
                withObserverHarness(Harness()) { Observers.center.post(name: .journeyThemeChanged, object: nil) }
                #expect(ThemeService.shared.changes.value == 2)
            }
        }

        /// Work that carried a test's scope (`withEscapedScope`) and runs after
        /// that test ended posts as on the default center: the running test's
        /// observers hear it, where the finished test's center reached none.
        @Test func workCarryingAFinishedTestsScopeIsHeardByTheNextTest() async {
            await #expect(processExitsWith: .success) {
                let direct = Counter()
                let directToken = NotificationCenter.default.addObserver(
                    forName: .scanFinished, object: nil, queue: nil
                ) { _ in direct.bump() }
                defer { NotificationCenter.default.removeObserver(directToken) }

                var first: Harness? = Harness()
                let carried = withObserverHarness(first!) { Observers.withEscapedScope { $0 } }
                first = nil  // its test ended
                let second = Harness()
                let screen = withObserverHarness(second) { ScanResultsScreen() }
                carried.yield { Observers.center.post(name: .scanFinished, object: nil) }
                #expect(screen.reloads.value == 1, "heard, as in production")
                #expect(direct.value == 1, "Foundation's own observer heard it once")
                #expect(second.recording().recordedEvents(.post).count == 1, "recorded in the running test")
                withObserverHarness(second) { screen.stopObserving() }
            }
        }

        @Test func aScreenRegisteredFromABackgroundQueueHearsAndRemovesCleanly() async {
            await #expect(processExitsWith: .success) {
                let production = ScanResultsScreen(registeringFromBackgroundOn: NotificationCenter.default)
                NotificationCenter.default.post(name: .scanFinished, object: nil)
                #expect(production.reloads.value == 1)
                production.stopObserving()

                let harness = Harness()
                withObserverHarness(harness) {
                    let screen = ScanResultsScreen(registeringFromBackgroundOn: Observers.center)
                    Observers.center.post(name: .scanFinished, object: nil)
                    #expect(screen.reloads.value == 1, "heard, as in production")
                    screen.stopObserving()
                }
                #expect(harness.analyze().findings.map(\.rule) == [], "its removal matches its registration")
            }
        }

        @Test func aForAwaitLoopInADetachedTaskHearsThePost() async {
            await #expect(processExitsWith: .success) {
                guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
                let production = DetachedListener()
                await production.start(center: NotificationCenter.default)
                NotificationCenter.default.post(name: .scanFinished, object: nil)
                await production.nextDelivery()
                production.stop()

                let harness = Harness()
                let listener = DetachedListener()
                await withObserverHarness(harness) {
                    await listener.start()
                    Observers.center.post(name: .scanFinished, object: nil)
                }
                await listener.nextDelivery()
                listener.stop()
                #expect(harness.recording().recordedEvents(.asyncOpen).count == 1, "the loop is this test's")
            }
        }

        @Test func removingAFoundationRegistrationIsNotAnUnbalancedRemoval() async {
            await #expect(processExitsWith: .success) {
                // Registered before any harness, removed inside a scope.
                let token = Observers.center.addObserver(forName: .scanFinished, object: nil, queue: nil) { _ in }
                let harness = Harness()
                withObserverHarness(harness) { Observers.center.removeObserver(token) }
                #expect(harness.analyze().findings.map(\.rule) == [])
            }
        }

        @Test func storingTheDefaultCenterDoesNotPinTheHarness() async {
            await #expect(processExitsWith: .success) {
                weak var released: Harness?
                do {
                    let harness = Harness()
                    released = harness
                    withObserverHarness(harness) { _ = ScanManager.shared }
                }
                #expect(released == nil, "the manager keeps the router, not the harness")
            }
        }

        // MARK: Parallel runs: as production, and reported

        @Test func aPostFromAQueueWhileTwoTestsRunReachesBothAndEachReportsIt() async {
            await #expect(processExitsWith: .success) {
                let production = [
                    ScanResultsScreen(center: NotificationCenter.default),
                    ScanResultsScreen(center: NotificationCenter.default),
                ]
                await Hop.globalQueue.post(through: NotificationCenter.default)
                #expect(production.map(\.reloads.value) == [1, 1])
                for screen in production { screen.stopObserving() }

                let (first, second) = (Harness(), Harness())
                let screens = await TwoScopes.run(first, second) {
                    ScanResultsScreen()
                } whileBothOpen: {
                    await Hop.globalQueue.post()
                }
                #expect(screens.map(\.reloads.value) == [1, 1], "both heard it, as in production")
                for harness in [first, second] {
                    let escapes = harness.analyze().findings.filter { $0.rule == "escaped-test-scope" }
                    #expect(escapes.count == 1)
                    #expect(escapes.first?.site?.file == "ScopeJourneyApp/Journeys.swift", "at the app's line")
                    #expect(escapes.first?.message.contains("background thread") == true)
                    #expect(escapes.first?.message.contains("several running tests") == false, "no shared sender")
                }
            }
        }

        @Test func carryingTheScopeAcrossTheHopKeepsTheTestsApartAndQuiet() async {
            await #expect(processExitsWith: .success) {
                let (first, second) = (Harness(), Harness())
                let screens = await TwoScopes.run(first, second) {
                    ScanResultsScreen()
                } whileBothOpen: {
                    scanFinished()
                }
                await screens[0].reloads.reach(1)
                #expect(screens.map(\.reloads.value) == [1, 0], "only the first test's scope was carried")
                #expect(first.analyze().findings.map(\.rule) == [])
                #expect(second.analyze().findings.map(\.rule) == [])
            }
        }

        /// A shared manager both running tests use posts from its own queue
        /// with itself as the sender: both hear it, as in production, and
        /// neither can claim it; each note says why and names the fix that
        /// works for a shared object.
        @Test func aPostFromASharedManagerBothTestsUseNamesItShared() async {
            await #expect(processExitsWith: .success) {
                let beacon = Beacon()
                let production = [
                    BeaconWatcher(beacon, center: NotificationCenter.default),
                    BeaconWatcher(beacon, center: NotificationCenter.default),
                ]
                beacon.ping(center: NotificationCenter.default)
                for watcher in production { await watcher.pings.reach(1) }
                #expect(production.map(\.pings.value) == [1, 1])
                for watcher in production { watcher.stopWatching() }

                let (first, second) = (Harness(), Harness())
                let watchers = await TwoScopes.run(first, second) {
                    BeaconWatcher(beacon)
                } whileBothOpen: {
                    beacon.ping(center: Observers.center)
                }
                for watcher in watchers { await watcher.pings.reach(1) }
                #expect(watchers.map(\.pings.value) == [1, 1], "both heard it, as in production")
                for harness in [first, second] {
                    let escapes = harness.analyze().findings.filter { $0.rule == "escaped-test-scope" }
                    #expect(escapes.count == 1)
                    #expect(escapes.first?.message.contains("several running tests have used") == true)
                    #expect(escapes.first?.message.contains("Observers.withEscapedScope") == true)
                }
            }
        }

        /// An object made in a test keeps the center it read there: used from
        /// a detached task while another test runs, it still talks to its own.
        @Test func anObjectMadeInATestTalksToItFromAnyThreadWhileAnotherRuns() async {
            await #expect(processExitsWith: .success) {
                let (first, second) = (Harness(), Harness())
                let made = await TwoScopes.run(first, second) {
                    (ScanManager(), ScanResultsScreen())
                } whileBothOpen: {
                }
                let (manager, _) = made[0]
                await Task.detached { manager.finishScan() }.value
                #expect(made.map(\.1.reloads.value) == [1, 0], "its own test's screen heard it")
                #expect(first.recording().recordedEvents(.post).count == 1)
                #expect(first.analyze().findings.map(\.rule) == [])
                #expect(second.eventCount == 0 || second.analyze().findings.isEmpty)
            }
        }

        @Test func aRegistrationFromAQueueWhileTwoTestsRunIsHeardAndJudgedByNeither() async {
            await #expect(processExitsWith: .success) {
                let (first, second) = (Harness(), Harness())
                let screens = await TwoScopes.run(first, second) {
                    0
                } whileBothOpen: {
                    let reloads = Counter()
                    let token = observeScansFromBackground(reloads)
                    Observers.center.post(name: .scanFinished, object: nil)
                    #expect(reloads.value == 1, "heard, as in production")
                    Observers.center.removeObserver(token)
                }
                _ = screens
                for harness in [first, second] {
                    // Nothing tied the registration to a test: it went to
                    // Foundation's center, and neither test judges it.
                    let rules = harness.analyze().findings.map(\.rule)
                    #expect(!rules.contains("unbalanced-removal"))
                    #expect(!rules.contains("escaped-test-scope"))
                }
            }
        }
    }

    extension ScopeBoundaryTests {
        /// A post made straight on `NotificationCenter.default` from a queue
        /// while two tests run: each test's note says so, with no line (the
        /// app's line is not known), not a stand-in location.
        @Test func aDirectFoundationPostWhileTwoTestsRunIsNotedWithoutAStandInLine() async {
            await #expect(processExitsWith: .success) {
                let (first, second) = (Harness(), Harness())
                let screens = await TwoScopes.run(first, second) {
                    ScanResultsScreen()
                } whileBothOpen: {
                    await Hop.globalQueue.post(through: NotificationCenter.default)
                }
                #expect(screens.map(\.reloads.value) == [1, 1], "both heard it, as in production")
                for harness in [first, second] {
                    let escapes = harness.analyze().findings.filter { $0.rule == "escaped-test-scope" }
                    #expect(escapes.count == 1)
                    #expect(escapes.first?.site == nil)
                    #expect(escapes.first?.message.contains("made straight on NotificationCenter.default") == true)
                }
                for screen in screens { screen.stopObserving() }
            }
        }

        /// A shared observer (a global, a `static let shared` whose initializer
        /// registers) first touched in one running test registers in that
        /// test's center: another running test's posts do not reach it while
        /// that test runs, where the default center's would (the documented
        /// limit). Made outside every scope, in a detached task, it registers
        /// on Foundation's center and hears every test's posts, as in production.
        @Test func aSharedObserverMadeOutsideEveryScopeHearsEveryRunningTest() async {
            await #expect(processExitsWith: .success) {
                let (first, second) = (Harness(), Harness())
                let firstOpen = AsyncStream<Void>.makeStream()
                let secondMade = AsyncStream<Void>.makeStream()
                let firstDone = AsyncStream<Void>.makeStream()
                // Both made once both scopes are open: before the first opens, a
                // harness used by hand would count as the one running test.
                async let made: [ScanResultsScreen] = withObserverHarness(second) {
                    var open = firstOpen.stream.makeAsyncIterator()
                    _ = await open.next()
                    let inScope = ScanResultsScreen()
                    let outside = await Task.detached { ScanResultsScreen() }.value
                    secondMade.continuation.yield()
                    var done = firstDone.stream.makeAsyncIterator()
                    _ = await done.next()
                    return [inScope, outside]
                }
                await withObserverHarness(first) {
                    firstOpen.continuation.yield()
                    var made = secondMade.stream.makeAsyncIterator()
                    _ = await made.next()
                    Observers.center.post(name: .scanFinished, object: nil)
                }
                firstDone.continuation.yield()
                let screens = await made
                #expect(screens[1].reloads.value == 1, "made outside every scope: heard, as in production")
                #expect(screens[0].reloads.value == 0, "made in the other running test's scope: not heard")
                for screen in screens { screen.stopObserving() }
            }
        }
    }

    extension ScopeBoundaryTests {
        final class Compass: @unchecked Sendable {
            private(set) lazy var delegate = DelegateSlot<AnyObject>(of: self)
        }
        final class MapScreen: Sendable {}

        /// A delegate slot made in one running test's scope (a shared object's
        /// lazy slot) and set from another's: the maker's harness records it,
        /// and the setter is told so on standard error at its line. Set from
        /// the test that made it, nothing is told.
        @Test(arguments: [false, true])
        func aRegistryChangedFromAnotherRunningTestIsToldAtItsLine(sameTest: Bool) async {
            let result = await #expect(
                processExitsWith: .success, observing: [\.standardErrorContent]
            ) { [sameTest] in
                let (first, second) = (Harness(), Harness())
                let compass = withObserverHarness(second) { Compass() }
                let delegate = MapScreen()
                let secondOpen = AsyncStream<Void>.makeStream()
                let firstDone = AsyncStream<Void>.makeStream()
                async let other: Void = withObserverHarness(second) {
                    _ = compass.delegate  // the lazy slot, made in this test's scope
                    if sameTest { compass.delegate.set(delegate) }
                    secondOpen.continuation.yield()
                    var done = firstDone.stream.makeAsyncIterator()
                    _ = await done.next()
                }
                await withObserverHarness(first) {
                    var open = secondOpen.stream.makeAsyncIterator()
                    _ = await open.next()
                    if !sameTest { compass.delegate.set(delegate) }
                }
                firstDone.continuation.yield()
                await other
                #expect(compass.delegate.delegate === delegate, "the set took effect either way")
            }
            let told = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            if sameTest {
                #expect(!told.contains("observer harness:"), "\(told)")
            } else {
                #expect(told.hasPrefix("\(#filePath):"), "\(told)")
                #expect(told.contains("warning: observer harness: this delegate slot \"delegate\" was made in another"))
                #expect(told.contains("Task.detached"))
            }
        }
    }

    /// Opens two harnesses' scopes at once, each in its own task, makes
    /// `make()` in each, runs `body` from the first while both are open, and
    /// returns what each made.
    enum TwoScopes {
        static func run<Made: Sendable>(
            _ first: Harness, _ second: Harness, make: @escaping @Sendable () -> Made,
            whileBothOpen body: @escaping @Sendable () async -> Void
        ) async -> [Made] {
            let secondOpen = AsyncStream<Void>.makeStream()
            let firstDone = AsyncStream<Void>.makeStream()
            async let madeBySecond: Made = withObserverHarness(second) {
                let made = make()
                secondOpen.continuation.yield()
                var done = firstDone.stream.makeAsyncIterator()
                _ = await done.next()
                return made
            }
            let madeByFirst: Made = await withObserverHarness(first) {
                let made = make()
                var open = secondOpen.stream.makeAsyncIterator()
                _ = await open.next()
                await body()
                return made
            }
            firstDone.continuation.yield()
            return [madeByFirst, await madeBySecond]
        }
    }
#endif
