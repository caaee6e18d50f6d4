import Foundation
import Testing

@testable import ObserverHarness

extension Notification.Name {
    static let liveThemeChanged = Notification.Name("ThemeChanged")
}

/// A screen that follows the theme with a `for await` loop in a Task, the
/// three ways apps write it.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class LiveThemeScreen: @unchecked Sendable {
    enum Capture { case strongSelf, weakSelf, weakSelfCancelledInDeinit }

    private(set) var task: Task<Void, Never>?
    private let lock = NSLock()
    private var storedReloads = 0
    var reloads: Int { lock.withLock { storedReloads } }
    private let cancelsInDeinit: Bool

    init(center: any NotificationCenterProtocol, capture: Capture) {
        cancelsInDeinit = capture == .weakSelfCancelledInDeinit
        switch capture {
        case .strongSelf:
            task = Task {
                for await _ in center.postedNotifications(named: .liveThemeChanged, owner: self) { self.reload() }
            }
        case .weakSelf, .weakSelfCancelledInDeinit:
            task = Task { [weak self] in
                for await _ in center.postedNotifications(named: .liveThemeChanged, owner: self) { self?.reload() }
            }
        }
    }

    func reload() { lock.withLock { storedReloads += 1 } }

    deinit {
        if cancelsInDeinit { task?.cancel() }
    }
}

extension Live {
    /// `async-observer-outlives-owner` and `message-dropped` from live loops.
    /// Every wait is `settle`: a bounded number of scheduler turns, no sleeps.
    @Suite struct AsyncLoops {
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test func aLoopCapturingSelfKeepsItsReleasedOwnerAlive() async throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: LiveThemeScreen? = LiveThemeScreen(center: center, capture: .strongSelf)
            harness.track(screen!, label: "screen")
            #expect(await harness.settle(loopsOpened: 1))
            center.post(name: .liveThemeChanged, object: nil)
            let task = screen?.task
            harness.noteReleased(screen!)
            weak let released = screen
            screen = nil

            #expect(await harness.settle(maxTurns: 100) == false, "the loop never ends")
            #expect(released != nil, "the loop's task holds the screen")
            let finding = try #require(harness.analyze().live("async-observer-outlives-owner").first)
            #expect(finding.objects.first == "screen")
            #expect(finding.message.contains("keeps its owner screen"))
            #expect(finding.message.contains("after 100 scheduler turns"))
            #expect(finding.site?.file.hasSuffix("LiveAsyncLoopTests.swift") == true)
            task?.cancel()
            await task?.value
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test func aWeakSelfLoopNobodyCancelsRunsOnAfterItsOwnerDeallocated() async throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: LiveThemeScreen? = LiveThemeScreen(center: center, capture: .weakSelf)
            harness.track(screen!, label: "screen")
            #expect(await harness.settle(loopsOpened: 1))
            let task = screen?.task
            screen = nil

            #expect(await harness.settle(maxTurns: 100) == false)
            let finding = try #require(harness.analyze().live("async-observer-outlives-owner").first)
            #expect(finding.message.contains("after its owner screen"))
            #expect(finding.message.contains("deallocated"))
            task?.cancel()
            await task?.value
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test func aLoopCancelledInItsOwnersDeinitIsClean() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: LiveThemeScreen? = LiveThemeScreen(center: center, capture: .weakSelfCancelledInDeinit)
            harness.track(screen!, label: "screen")
            #expect(await harness.settle(loopsOpened: 1))
            center.post(name: .liveThemeChanged, object: nil)
            let task = screen?.task
            harness.noteReleased(screen!)
            screen = nil
            await task?.value

            #expect(await harness.settle())
            #expect(harness.analyze().live("async-observer-outlives-owner").isEmpty)
            let ends = harness.recording().events.filter { $0.kind == .asyncEnd }
            #expect(ends.count == 1)
            #expect(harness.recording().string(ends[0].channel) == "cancelled")
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test func aLoopThatBreaksEndsAsIteratorGoneAndRemovesItsRegistration() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            let loop = Task {
                for await _ in center.postedNotifications(named: .liveThemeChanged) { break }
            }
            #expect(await harness.settle(loopsOpened: 1))
            center.post(name: .liveThemeChanged, object: nil)
            await loop.value

            let events = harness.recording().events
            #expect(events.contains { $0.kind == .asyncConsume })
            let end = events.first { $0.kind == .asyncEnd }
            #expect(end.map { harness.recording().string($0.channel) } == "iterator-gone")
            #expect(center.registrationCount == 0)
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test func aMessageSequenceThatFallsBehindDropsMessagesAndIsReported() async throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let cart = LiveCart()
            let openLine: UInt = #line + 1
            var iterator = center.messages(of: cart, for: LiveCartSynced.self, bufferSize: 2).makeAsyncIterator()
            for revision in 1...5 { center.post(LiveCartSynced(revision: revision), subject: cart) }
            let first = await iterator.next()
            let second = await iterator.next()
            #expect([first?.revision, second?.revision] == [4, 5], "Foundation drops the oldest")

            let finding = try #require(harness.analyze().live("message-dropped").first)
            #expect(finding.site?.line == Int(openLine))
            #expect(finding.message.contains("dropped 3 messages"))
        }

        /// A main-actor history nobody tracks, whose loop's task has not run
        /// when the test settles: `settle()` lets the main actor take it, so
        /// the loop listens before the burst, every run.
        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor final class UntrackedHistory {
            var revisions: [Int] = []
            var task: Task<Void, Never>?
            init(center: InstrumentedNotificationCenter, cart: LiveCart, busyMainActor: Bool = false) {
                // Main-actor work the app queued first: the loop's task waits behind it.
                if busyMainActor { Task { @MainActor in usleep(2_000) } }
                task = Task { [weak self] in
                    for await message in center.messages(of: cart, for: LiveCartSynced.self, bufferSize: 1) {
                        self?.revisions.append(message.revision)
                    }
                }
            }
            deinit { task?.cancel() }
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        /// The test is not on the main actor (Swift Testing's default), so it
        /// goes on while the main actor is still busy.
        @Test(arguments: [false, true])
        func settleLetsAnUntrackedMainActorLoopListenBeforeTheBurst(burst: Bool) async {
            for _ in 0..<20 {
                let harness = Harness()
                let center = harness.notificationCenter()
                let cart = LiveCart()
                let history = await UntrackedHistory(center: center, cart: cart, busyMainActor: true)
                await harness.settle()
                // The main actor, which the loop takes messages on, is busy until the burst is in.
                // Waited for until it holds the main actor: a job queued there is not
                // yet running, and the loop's resumption may run first.
                let gate = DispatchSemaphore(value: 0)
                let holding = DispatchSemaphore(value: 0)
                Task { @MainActor in
                    holding.signal()
                    gate.wait()
                }
                await withCheckedContinuation { (held: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().async {
                        holding.wait()
                        held.resume()
                    }
                }
                for revision in 1...(burst ? 3 : 1) { center.post(LiveCartSynced(revision: revision), subject: cart) }
                gate.signal()
                await harness.settle()
                let revisions = await history.revisions
                #expect(burst ? !revisions.contains(2) && !revisions.isEmpty : revisions == [1])
                #expect(harness.analyze().live("message-dropped").count == (burst ? 1 : 0))
                await history.task?.cancel()
            }
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test func aMessageConsumerThatKeepsUpDropsNothing() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            let cart = LiveCart()
            var iterator = center.messages(of: cart, for: LiveCartSynced.self, bufferSize: 2).makeAsyncIterator()
            var seen: [Int] = []
            for round in 0..<3 {
                center.post(LiveCartSynced(revision: 2 * round), subject: cart)
                center.post(LiveCartSynced(revision: 2 * round + 1), subject: cart)
                for _ in 0..<2 { if let message = await iterator.next() { seen.append(message.revision) } }
            }
            #expect(seen == [0, 1, 2, 3, 4, 5])
            #expect(harness.analyze().live("message-dropped").isEmpty)
        }
    }
}
