import Foundation
import Testing

@testable import ObserverHarness

/// `withObserverHarness`: what it reaches, what it does not, and that parallel
/// tests using it stay apart.
@Suite struct ScopedOverrideTests {
    static let ping = Notification.Name("ScopedOverrideTests.ping")

    /// App-style code that knows nothing of the harness.
    final class Badge: @unchecked Sendable {
        private let lock = NSLock()
        private var storage = 0
        private var tokens: [any NSObjectProtocol] = []

        /// Observes through the default center, as app code does, `times` times.
        func start(times: Int = 1) {
            for _ in 0..<times {
                tokens.append(
                    Observers.center.addObserver(forName: ScopedOverrideTests.ping, object: nil, queue: nil) {
                        [weak self] _ in self?.bump()
                    })
            }
        }

        func stop() {
            for token in tokens { Observers.center.removeObserver(token) }
            tokens = []
        }

        func bump() { lock.withLock { storage += 1 } }
        var count: Int { lock.withLock { storage } }
    }

    @Test func insideTheScopeTheDefaultCenterReachesTheHarnessCenter() {
        let harness = Harness()
        let badge = Badge()
        _ = harness.defaultCenter.addObserver(forName: Self.scopedPing, object: nil, queue: nil) { _ in badge.bump() }
        withObserverHarness(harness) {
            #expect(Observers.center === Observers.center, "one center, as there is one default center")
            Observers.center.post(name: Self.scopedPing, object: nil)
        }
        #expect(badge.count == 1)
        #expect(harness.recording().recordedEvents(.post).count == 1)
    }

    static let scopedPing = Notification.Name("ScopedOverrideTests.scopedPing")

    @Test func registriesMadeInsideTheScopeRecordIntoTheHarness() {
        let harness = Harness()
        let screen = RegistryFixtures.Screen()
        let (list, slot) = withObserverHarness(harness) {
            (ObserverList<RegistryFixtures.Screen>(), DelegateSlot<RegistryFixtures.Screen>(of: screen))
        }
        list.add(screen)
        list.notify { _ in }
        slot.set(screen)
        slot.call { _ in }
        #expect(
            harness.recording().recordedKinds
                == [.track, .add, .post, .deliver, .delegateSet, .delegateCall, .deliver])
        let plain = ObserverList<RegistryFixtures.Screen>()
        plain.add(screen)
        #expect(harness.eventCount == 7, "a list made outside the scope records nothing")
    }

    @Test func anObservedPropertyMadeInsideTheScopeIsInstrumented() {
        let harness = Harness()
        let owner = RegistryFixtures.Screen("cover")
        let image = withObserverHarness(harness) { ObservedProperty("image", of: owner, initialValue: 0) }
        var seen: [Int] = []
        do {
            let spinner = RegistryFixtures.Screen("spinner")
            image.addObserver(spinner) { _, change in seen.append(change.newValue) }
            image.set(1)
        }
        image.set(2)  // the unowned observer is gone: KVO would crash here
        #expect(seen == [1])
        #expect(harness.analyze().findings.map(\.rule).contains("notify-after-dealloc"))
    }

    static let handOff = Notification.Name("ScopedOverrideTests.handOff")
    final class Sender: Sendable {}

    /// A post through `Observers.center` reaches the test's observers and,
    /// once, those registered straight on Foundation's default center, filter
    /// included; the bridge does not bring it back as a second post. A
    /// handler's own post on the default center, made inside the delivery,
    /// does come back to the test.
    @Test func aPostIsHandedToFoundationsDefaultCenterOnce() {
        let harness = Harness()
        let sender = Sender()
        let other = Sender()
        let direct = Badge()
        let filtered = Badge()
        let inTest = Badge()
        let directToken = NotificationCenter.default.addObserver(forName: Self.handOff, object: nil, queue: nil) {
            _ in direct.bump()
        }
        let filteredToken = NotificationCenter.default.addObserver(
            forName: Self.handOff, object: sender, queue: nil
        ) { _ in filtered.bump() }
        defer {
            NotificationCenter.default.removeObserver(directToken)
            NotificationCenter.default.removeObserver(filteredToken)
        }
        withObserverHarness(harness) {
            let token = Observers.center.addObserver(forName: Self.handOff, object: nil, queue: nil) { _ in
                inTest.bump()
            }
            Observers.center.post(name: Self.handOff, object: sender)
            Observers.center.post(Notification(name: Self.handOff, object: other))
            Observers.center.removeObserver(token)
        }
        #expect(inTest.count == 2)
        #expect(direct.count == 2, "each post handed over once")
        #expect(filtered.count == 1, "only the post from its sender")
        #expect(harness.recording().recordedEvents(.post).count == 2, "the hand-off is not recorded again")

        // The near miss: a post the handler makes on the default center itself.
        let crossing = Harness()
        let relay = Notification.Name("ScopedOverrideTests.handOffRelay")
        withObserverHarness(crossing) {
            let relayToken = Observers.center.addObserver(forName: relay, object: nil, queue: nil) { _ in
                NotificationCenter.default.post(name: Self.handOff, object: sender)
            }
            let token = Observers.center.addObserver(forName: Self.handOff, object: nil, queue: nil) { _ in
                inTest.bump()
            }
            Observers.center.post(name: relay, object: sender)
            Observers.center.removeObserver(token)
            Observers.center.removeObserver(relayToken)
        }
        #expect(inTest.count == 3, "the handler's own post crosses to the test")
        #expect(crossing.recording().recordedEvents(.post).count == 2)
    }

    // MARK: Parallel tests

    /// Each case runs in parallel with the others on the same notification
    /// name, posting its own number of times with suspensions in between; each
    /// sees exactly its own events and findings.
    @Test(arguments: 0..<32)
    func parallelAsyncTestsNeverSeeEachOthersEvents(posts: Int) async {
        let harness = Harness()
        let badge = Badge()
        let receivers = 1 + posts % 3
        await withObserverHarness(harness) {
            badge.start(times: receivers)
            for _ in 0...posts {
                await Task.yield()
                Observers.center.post(name: Self.ping, object: nil)
            }
            badge.stop()
        }
        let recording = harness.recording()
        #expect(badge.count == (posts + 1) * receivers)
        #expect(recording.recordedEvents(.add).count == receivers)
        #expect(recording.recordedEvents(.post).count == posts + 1)
        #expect(recording.recordedEvents(.deliver).count == (posts + 1) * receivers)
        // Two posts or more, all reaching one receiver: a one-to-one call.
        let expected = receivers == 1 && posts >= 1 ? ["single-receiver-broadcast"] : []
        #expect(harness.analyze().findings.map(\.rule) == expected)
    }

    @Test(arguments: 0..<32)
    func parallelSynchronousTestsNeverSeeEachOthersEvents(posts: Int) {
        let harness = Harness()
        let badge = Badge()
        withObserverHarness(harness) {
            badge.start(times: 2)
            for _ in 0...posts { Observers.center.post(name: Self.ping, object: nil) }
            badge.stop()
        }
        #expect(badge.count == (posts + 1) * 2)
        #expect(harness.recording().recordedEvents(.post).count == posts + 1)
        #expect(harness.analyze().findings.map(\.rule) == [])
    }

    @Test func aScopeOnAThreadOutsideAnyTaskWorksToo() {
        let harness = Harness()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            withObserverHarness(harness) { Observers.center.post(name: Self.ping, object: nil) }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(harness.recording().recordedEvents(.post).count == 1)
    }

    // MARK: Tasks

    @Test func aTaskStartedInsideTheScopeInheritsIt() async {
        let harness = Harness()
        await withObserverHarness(harness) {
            await Task { Observers.center.post(name: Self.taskPing, object: nil) }.value
        }
        #expect(harness.recording().recordedEvents(.post).count == 1)
    }

    static let taskPing = Notification.Name("ScopedOverrideTests.taskPing")

    final class Locked<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: Value
        init(_ value: Value) { storage = value }
        func set(_ value: Value) { lock.withLock { storage = value } }
        var value: Value { lock.withLock { storage } }
    }
}
