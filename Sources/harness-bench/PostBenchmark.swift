import Foundation
import ObserverHarness

/// Section 1: nanoseconds per `post(name:object:)` with N block observers on
/// the posted name, for the instrumented center (recording on), a fresh
/// Foundation `NotificationCenter`, a plain locked closure array, and
/// `Observers.center` inside a harness's scope (what app code posts through
/// in a test: the instrumented center, plus the hand-off to Foundation's
/// default center that keeps observers registered there hearing the post).
struct PostBenchmark {
    struct Row {
        let observers: Int
        let instrumentedNanoseconds: Double
        let foundationNanoseconds: Double
        let plainNanoseconds: Double
        let routedNanoseconds: Double
    }

    let options: BenchOptions
    private static let name = Notification.Name("BenchmarkDidTick")

    /// The three take turns, run after run, and each keeps its best run: on a
    /// shared two-core machine the best run is the one least disturbed, and
    /// taking turns keeps a slow spell from landing on one of them only.
    func run() -> [Row] {
        options.observerCounts.map { observers in
            let posts = max(options.minimumPosts, options.deliveriesPerRun / observers)
            var best = (
                instrumented: Double.infinity, foundation: Double.infinity, plain: Double.infinity,
                routed: Double.infinity
            )
            // Warm-up.
            _ = (
                instrumented(observers, posts), foundation(observers, posts), plain(observers, posts),
                routed(observers, posts)
            )
            for _ in 0..<options.postRuns {
                best.instrumented = min(best.instrumented, instrumented(observers, posts))
                best.foundation = min(best.foundation, foundation(observers, posts))
                best.plain = min(best.plain, plain(observers, posts))
                best.routed = min(best.routed, routed(observers, posts))
            }
            let perPost = 1e9 / Double(posts)
            return Row(
                observers: observers, instrumentedNanoseconds: best.instrumented * perPost,
                foundationNanoseconds: best.foundation * perPost, plainNanoseconds: best.plain * perPost,
                routedNanoseconds: best.routed * perPost)
        }
    }

    // Each function builds its center, then times only the posts.

    private func instrumented(_ observers: Int, _ posts: Int) -> Double {
        let harness = Harness(name: "post-benchmark")
        let center = harness.notificationCenter()
        let tally = Tally()
        let tokens = (0..<observers).map { _ in
            center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in tally.count &+= 1 }
        }
        let seconds = Stopwatch.seconds {
            for _ in 0..<posts { center.post(name: Self.name, object: nil) }
        }
        tally.expect(observers * posts, "instrumented center")
        withExtendedLifetime(tokens) {}
        return seconds
    }

    private func foundation(_ observers: Int, _ posts: Int) -> Double {
        let center = NotificationCenter()
        let tally = Tally()
        let tokens = (0..<observers).map { _ in
            center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in tally.count &+= 1 }
        }
        let seconds = Stopwatch.seconds {
            for _ in 0..<posts { center.post(name: Self.name, object: nil) }
        }
        tally.expect(observers * posts, "Foundation's NotificationCenter")
        for token in tokens { center.removeObserver(token) }
        return seconds
    }

    private func routed(_ observers: Int, _ posts: Int) -> Double {
        withObserverHarness(Harness(name: "post-benchmark-routed")) {
            let center = Observers.center
            let tally = Tally()
            let tokens = (0..<observers).map { _ in
                center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in tally.count &+= 1 }
            }
            let seconds = Stopwatch.seconds {
                for _ in 0..<posts { center.post(name: Self.name, object: nil) }
            }
            tally.expect(observers * posts, "Observers.center under a harness")
            for token in tokens { center.removeObserver(token) }
            return seconds
        }
    }

    private func plain(_ observers: Int, _ posts: Int) -> Double {
        let list = ClosureList()
        let tally = Tally()
        for _ in 0..<observers { list.add { _ in tally.count &+= 1 } }
        let seconds = Stopwatch.seconds {
            for _ in 0..<posts { list.post(name: Self.name, object: nil) }
        }
        tally.expect(observers * posts, "closure array")
        return seconds
    }
}

/// The baseline: what a hand-written observer list costs. Handlers are copied
/// out under the lock and called outside it, as careful code does.
final class ClosureList: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var handlers: [@Sendable (Notification) -> Void] = []

    func add(_ handler: @escaping @Sendable (Notification) -> Void) {
        lock.lock()
        handlers.append(handler)
        lock.unlock()
    }

    func removeAll() {
        lock.lock()
        handlers.removeAll()
        lock.unlock()
    }

    func post(name: Notification.Name, object: Any?) {
        let notification = Notification(name: name, object: object)
        lock.lock()
        let current = handlers
        lock.unlock()
        for handler in current { handler(notification) }
    }
}

/// Counts deliveries so no handler is optimised away.
/// Unchecked: the benchmark posts from one thread, and handlers run on it.
final class Tally: @unchecked Sendable {
    var count = 0

    func expect(_ expected: Int, _ what: String) {
        if count != expected {
            FileHandle.standardError.write(
                Data("harness-bench: \(what) delivered \(count) times, expected \(expected)\n".utf8))
        }
    }
}
