import Foundation
import ScopeJourneyApp
import Testing

@testable import ObserverHarness

/// Whose work a call outside the test's task is: given to a test only on a
/// fact about the work (`ScopeRouter`), and otherwise delivered as the
/// default center would, judged by no test. The cases that depend on which
/// other scopes are open run in a child process of their own.
#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
    /// A name no other test posts, so no other test's untold post reaches it.
    private let handlerPosted = Notification.Name("AttributionTests.handlerPosted")

    @Suite struct AttributionTests {
        /// A sender only this test has used ties a queue's post to it, whatever
        /// else runs: no exit test needed.
        @Test func aQueuesPostWhoseSenderOnlyThisTestUsedIsThisTests() async {
            let harness = Harness.besideOthers()
            let sender = SyncEngine()
            let heard = Counter()
            let token = withObserverHarness(harness) {
                Observers.center.addObserver(forName: .syncFinished, object: sender, queue: nil) { _ in heard.bump() }
            }
            sender.sync()
            await heard.reach(1)
            let recording = harness.recording()
            #expect(recording.recordedEvents(.post).count == 1, "recorded in the test that used the sender")
            #expect(recording.recordedEvents(.deliver).count == 1)
            withObserverHarness(harness) { Observers.center.removeObserver(token) }
        }

        /// What a handler of this test's does on the delivering thread is this
        /// test's work, even with no sender and no stored center.
        @Test func aPostMadeInsideThisTestsHandlerOffItsTaskIsThisTests() async {
            let harness = Harness.besideOthers()
            let sender = SyncEngine()
            let presence = Counter()
            let tokens = withObserverHarness(harness) {
                [
                    Observers.center.addObserver(forName: .syncFinished, object: sender, queue: nil) { _ in
                        Observers.center.post(name: handlerPosted, object: nil)
                    },
                    Observers.center.addObserver(forName: handlerPosted, object: nil, queue: nil) { _ in
                        presence.bump()
                    },
                ]
            }
            sender.sync()
            await presence.reach(1)
            #expect(harness.recording().recordedEvents(.post).count == 2, "the handler's post is recorded too")
            #expect(harness.analyze().findings.map(\.rule).contains("escaped-test-scope") == false)
            withObserverHarness(harness) { for token in tokens { Observers.center.removeObserver(token) } }
        }

        /// A test that may run beside others (the trait's) takes no work by
        /// elimination, even alone: its verdict is the same in every run.
        @Test func aParallelSuitesTestTakesNothingByEliminationEvenAlone() async {
            await #expect(processExitsWith: .success) {
                let harness = Harness.besideOthers()
                let heard = await withObserverHarness(harness) {
                    let heard = Counter()
                    let token = Observers.center.addObserver(forName: .presenceChanged, object: nil, queue: nil) {
                        _ in heard.bump()
                    }
                    PresenceReader().read()
                    await heard.reach(1)
                    Observers.center.removeObserver(token)
                    return heard
                }
                #expect(heard.value == 1, "heard, as in production")
                #expect(harness.recording().recordedEvents(.post).isEmpty, "judged by no test")
                let findings = harness.analyze().findings
                #expect(findings.map(\.rule) == ["escaped-test-scope"])
                #expect(findings.first?.severity == .note)
                #expect(findings.first?.site?.file == "ScopeJourneyApp/ParallelApp.swift", "at the app's line")
            }
        }

        /// The same post in a run of one test at a time (XCTest) is the test's.
        @Test func aTestRunAloneTakesWorkNothingElseTiesToATest() async {
            await #expect(processExitsWith: .success) {
                let harness = Harness()
                await withObserverHarness(harness) {
                    let heard = Counter()
                    let token = Observers.center.addObserver(forName: .presenceChanged, object: nil, queue: nil) {
                        _ in heard.bump()
                    }
                    PresenceReader().read()
                    await heard.reach(1)
                    Observers.center.removeObserver(token)
                }
                #expect(harness.recording().recordedEvents(.post).count == 1)
                #expect(harness.analyze().findings.isEmpty)
            }
        }

        /// An object both running tests have used is neither's: its post
        /// reaches both, as the default center would, and is a note in each.
        @Test func aSenderTwoRunningTestsUsedIsNeithers() async {
            await #expect(processExitsWith: .success) {
                let shared = SyncEngine()
                let (first, second) = (Harness(), Harness())
                let counters = await TwoScopes.run(first, second) {
                    let heard = Counter()
                    _ = Observers.center.addObserver(forName: .syncFinished, object: shared, queue: nil) { _ in
                        heard.bump()
                    }
                    return heard
                } whileBothOpen: {
                    shared.sync()
                }
                for heard in counters { await heard.reach(1) }
                for harness in [first, second] {
                    #expect(harness.recording().recordedEvents(.post).isEmpty)
                    #expect(
                        harness.analyze().findings.map(\.rule).filter { $0 != "discarded-token" } == [
                            "escaped-test-scope"
                        ])
                }
            }
        }

        /// A late post from an object whose test ended, while two others run:
        /// heard by their observers, and no failing finding in either.
        @Test func aLatePostFromAFinishedTestsObjectFailsNoOne() async {
            await #expect(processExitsWith: .success) {
                // Made in a test that has ended (its harness is gone).
                let manager = withObserverHarness(Harness()) { ScanManager() }
                let (first, second) = (Harness(), Harness())
                let screens = await TwoScopes.run(first, second) {
                    ScanResultsScreen()
                } whileBothOpen: {
                    await Task.detached { manager.finishScan() }.value
                }
                #expect(screens.map(\.reloads.value) == [1, 1], "heard, as on the default center")
                for harness in [first, second] {
                    #expect(harness.analyze().findings.allSatisfy { $0.severity == .note })
                }
            }
        }
    }

    /// A name only these tests post, from a thread nothing ties to a test.
    private let untoldHold = Notification.Name("UntoldDeliveryTests.hold")

    /// Posts `untoldHold` from a new thread: delivered to the running tests in
    /// the order they were made; `done` is signalled when the post returns.
    private func postUntoldFromAThread(done: DispatchSemaphore) {
        Thread {
            Observers.center.post(name: untoldHold, object: nil)
            done.signal()
        }.start()
    }

    /// What a test that ends while an untold post is still being delivered
    /// (to an earlier test's observer, which blocks) sees: each case runs in
    /// a child process, as it needs two tests of its own running.
    @Suite struct UntoldDeliveryTests {
        /// The test that ended is freed at once, as on the default center: the
        /// post reaching another test's observer does not hold it.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func aTestThatEndsDuringAnotherTestsUntoldDeliveryIsFreedAtOnce() async {
            await #expect(processExitsWith: .success) {
                let (inHandler, resume, done) = (
                    DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
                )
                let blocking = Harness.besideOthers()
                let token = withObserverHarness(blocking) {
                    Observers.center.addObserver(forName: untoldHold, object: nil, queue: nil) { _ in
                        inHandler.signal()
                        resume.wait()
                    }
                }
                weak var weakBadge: ObservingCartBadge?
                weak var weakCart: ObservableCart?
                var ending: Harness? = Harness.besideOthers()
                do {
                    let cart = ObservableCart()
                    let badge = ObservingCartBadge(cart: cart, rearms: true)
                    withObserverHarness(ending!) { badge.observe() }
                    (weakCart, weakBadge) = (cart, badge)
                }
                #expect(weakBadge != nil, "the harness holds the badge's watch while its test runs")
                postUntoldFromAThread(done: done)
                inHandler.wait()
                ending = nil
                #expect(weakBadge == nil, "freed when its test let go, while the post still runs")
                #expect(weakCart == nil)
                resume.signal()
                done.wait()
                withObserverHarness(blocking) { Observers.center.removeObserver(token) }
            }
        }

        /// A test that ends before the post reaches it has left its
        /// registration behind: the post reaches it once, as a leftover.
        @Test func aTestThatEndsBeforeTheUntoldPostReachesItHearsItOnce() async {
            await #expect(processExitsWith: .success) {
                let (inHandler, resume, done) = (
                    DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
                )
                let blocking = Harness.besideOthers()
                let blockingToken = withObserverHarness(blocking) {
                    Observers.center.addObserver(forName: untoldHold, object: nil, queue: nil) { _ in
                        inHandler.signal()
                        resume.wait()
                    }
                }
                let heard = Counter()
                var ending: Harness? = Harness.besideOthers()
                let leftToken = withObserverHarness(ending!) {
                    Observers.center.addObserver(forName: untoldHold, object: nil, queue: nil) { _ in heard.bump() }
                }
                postUntoldFromAThread(done: done)
                inHandler.wait()
                ending = nil
                resume.signal()
                done.wait()
                #expect(heard.value == 1, "heard once, as on the default center")
                Observers.center.removeObserver(leftToken)
                withObserverHarness(blocking) { Observers.center.removeObserver(blockingToken) }
            }
        }

        /// A test that ends while its own observer is hearing the post: the
        /// post does not reach it again as a leftover.
        @Test func aTestThatEndsWhileItsObserverHearsAnUntoldPostHearsItOnce() async {
            await #expect(processExitsWith: .success) {
                let (inHandler, resume, done) = (
                    DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
                )
                let heard = Counter()
                var ending: Harness? = Harness.besideOthers()
                let token = withObserverHarness(ending!) {
                    Observers.center.addObserver(forName: untoldHold, object: nil, queue: nil) { _ in
                        heard.bump()
                        if heard.value == 1 {
                            inHandler.signal()
                            resume.wait()
                        }
                    }
                }
                postUntoldFromAThread(done: done)
                inHandler.wait()
                ending = nil
                resume.signal()
                done.wait()
                #expect(heard.value == 1, "heard once, as on the default center")
                Observers.center.removeObserver(token)
            }
        }
    }

    /// A name only `BetweenTestsTests` posts.
    private let betweenTests = Notification.Name("BetweenTestsTests.post")

    /// With no test running, `Observers.center` steps aside for Foundation's
    /// default center; the registrations finished tests left still hear.
    @Suite struct BetweenTestsTests {
        @Test func betweenTestsTheCenterActsAsFoundationsAndLeftRegistrationsStillHear() async {
            await #expect(processExitsWith: .success) {
                withObserverHarness(Harness()) {}  // the router is in place from the first scope on
                let heard = Counter()
                let direct = NotificationCenter.default.addObserver(forName: betweenTests, object: nil, queue: nil) {
                    _ in heard.bump()
                }
                let routed = Observers.center.addObserver(forName: betweenTests, object: nil, queue: nil) { _ in
                    heard.bump()
                }
                Observers.center.post(name: betweenTests, object: nil)
                #expect(heard.value == 2, "heard where each was registered")
                Observers.center.removeObserver(routed)
                Observers.center.removeObserver(direct)
                Observers.center.post(name: betweenTests, object: nil)
                #expect(heard.value == 2, "both removed")

                let left = Counter()
                var ended: Harness? = Harness()
                let token = withObserverHarness(ended!) {
                    Observers.center.addObserver(forName: betweenTests, object: nil, queue: nil) { _ in left.bump() }
                }
                ended = nil
                Observers.center.post(name: betweenTests, object: nil)
                NotificationCenter.default.post(name: betweenTests, object: nil)
                #expect(left.value == 2, "a finished test's registration hears both posts, once each")
                Observers.center.removeObserver(token)
                Observers.center.post(name: betweenTests, object: nil)
                #expect(left.value == 2, "removed")
            }
        }
    }

    extension Harness {
        /// A harness for a test that runs beside others, as the trait makes
        /// one: its scopes are short, so only its release ends its test.
        static func besideOthers() -> Harness {
            let harness = Harness()
            harness.assumesOneTestAtATime = false
            return harness
        }
    }
#endif
