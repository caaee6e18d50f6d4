import Foundation
import Testing

@testable import ObserverHarness

/// The stress tests: 8 threads × 100 000 operations on one registry,
/// with observers deallocating on another thread while they are delivered
/// to, and handlers that post, add and remove re-entrantly. Each test keeps
/// its own counters of what it did and checks the recording against them:
/// every event recorded exactly once, no crash, no deadlock.
enum Stress {
    static let threadCount = 8
    /// `OBSERVER_HARNESS_STRESS_OPERATIONS` lowers it for sanitizer runs,
    /// which are 5–15 times slower: still eight threads in contention.
    static let operationsPerThread =
        ProcessInfo.processInfo.environment["OBSERVER_HARNESS_STRESS_OPERATIONS"]
        .flatMap(Int.init).map { max(1_000, $0) } ?? 100_000
    /// Far beyond what a run needs (a few seconds): reaching it means a deadlock.
    static let deadline: DispatchTimeInterval = .seconds(300)

    /// Runs `body(index)` on `threadCount` threads started together, and
    /// fails the test, rather than hanging it, if they do not all finish.
    static func onThreads(
        _ body: @escaping @Sendable (Int) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let group = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        for index in 0..<threadCount {
            group.enter()
            let thread = Thread {
                gate.wait()
                body(index)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0..<threadCount { gate.signal() }
        if group.wait(timeout: .now() + deadline) == .timedOut {
            Issue.record("the threads did not finish within \(deadline): a deadlock", sourceLocation: sourceLocation)
        }
    }

    /// Busy-waits `turns` turns of a loop: a delay finer than a sleep's.
    static func spin(_ turns: Int) {
        var sum = 0
        for turn in 0..<turns { sum &+= turn }
        keep(sum)
    }
    @inline(never) private static func keep(_ value: Int) {}

    /// Counts that any thread may add to.
    final class Counters: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: Int] = [:]

        func add(_ key: String, _ amount: Int = 1) { lock.withLock { values[key, default: 0] += amount } }
        subscript(key: String) -> Int { lock.withLock { values[key, default: 0] } }
    }

    /// Objects handed over to die on another thread, concurrently with
    /// whatever the registries are doing: a thread drops its last reference
    /// as soon as it takes one.
    final class Graveyard: @unchecked Sendable {
        private let condition = NSCondition()
        private var queue: [AnyObject] = []
        private var closed = false
        private var drainer: Thread?
        private let finished = DispatchSemaphore(value: 0)
        private(set) var buried = 0

        init() {
            let thread = Thread { [unowned self] in drain() }
            drainer = thread
            thread.start()
        }

        /// Takes over the caller's reference; `object` deinits on the graveyard's thread.
        func bury(_ object: AnyObject) {
            condition.withLock {
                queue.append(object)
                condition.signal()
            }
        }

        /// Waits until every object buried so far has deinitialized.
        func close() {
            condition.withLock {
                closed = true
                condition.signal()
            }
            finished.wait()
        }

        private func drain() {
            while true {
                let batch: [AnyObject] = condition.withLock {
                    while queue.isEmpty && !closed { condition.wait() }
                    defer { queue.removeAll() }
                    return queue
                }
                if batch.isEmpty && condition.withLock({ closed && queue.isEmpty }) { break }
                condition.withLock { buried += batch.count }
                // `batch` goes out of scope here: the objects deinit on this thread.
            }
            finished.signal()
        }
    }

    /// How many events of each kind a recording holds.
    static func counts(_ recording: Recording) -> [EventKind: Int] {
        var counts: [EventKind: Int] = [:]
        for event in recording.events { counts[event.kind, default: 0] += 1 }
        return counts
    }

    /// Each object deallocates at most once in a recording, and only after it was tracked.
    static func expectEachDeallocationOnce(_ recording: Recording, sourceLocation: SourceLocation = #_sourceLocation) {
        var tracked = Set<UInt32>(), deallocated = Set<UInt32>()
        var problems: [String] = []
        for event in recording.events {
            switch event.kind {
            case .track:
                if !tracked.insert(event.object).inserted { problems.append("object \(event.object) tracked twice") }
            case .dealloc:
                if !tracked.contains(event.object) { problems.append("object \(event.object) deallocated untracked") }
                if !deallocated.insert(event.object).inserted {
                    problems.append("object \(event.object) deallocated twice")
                }
            default:
                break
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))", sourceLocation: sourceLocation)
    }

    /// Every delivery names its post (or call) as its cause, and the post is
    /// on the same thread and earlier: concurrent posts never mix.
    static func expectDeliveriesFollowTheirPosts(
        _ recording: Recording,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let events = recording.events
        var problems = 0
        for sequence in 0..<events.count where events[sequence].kind.isDelivery {
            let delivery = events[sequence]
            guard delivery.cause != Event.none, Int(delivery.cause) < sequence else { problems += 1; continue }
            let post = events[Int(delivery.cause)]
            if post.thread != delivery.thread || post.registry != delivery.registry
                || ![.post, .propertySet, .delegateCall].contains(post.kind)
            {
                problems += 1
            }
        }
        #expect(problems == 0, "\(problems) deliveries do not follow their post", sourceLocation: sourceLocation)
    }
}
