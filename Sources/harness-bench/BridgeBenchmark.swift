import Foundation
import ObserverHarness
import ObserverHarnessInterface

/// What the harness costs posts made straight on `NotificationCenter.default`
/// — on Darwin the system's own notifications (keyboard, scene, Core Data) —
/// once a harness has opened a scope: nanoseconds per post of a name with one
/// Foundation observer,
/// - a name the app does not observe through `Observers.center` (a system
///   notification), before and after the harness bridges `bridgedNames` other
///   names (one Foundation observer each);
/// - a bridged name, so the post also passes through the router, with no test
///   running (the router decides it is no test's and finds no leftovers).
struct BridgeBenchmark {
    struct Result {
        let bridgedNames: Int
        let systemBeforeNanoseconds: Double
        let systemAfterNanoseconds: Double
        let bridgedNanoseconds: Double
    }

    let options: BenchOptions
    private static let system = Notification.Name("BenchmarkSystemDidChange")
    private static let bridged = Notification.Name("BenchmarkBridged0")

    func run() -> Result {
        let names = options.isQuick ? 10 : 100
        let posts = options.isQuick ? 20_000 : 200_000
        let before = best { post(Self.system, posts) }
        // Registering through `Observers.center` in a scope bridges each name.
        withObserverHarness(Harness(name: "bridge-benchmark")) {
            for index in 0..<names {
                let token = Observers.center.addObserver(
                    forName: Notification.Name("BenchmarkBridged\(index)"), object: nil, queue: nil
                ) { _ in }
                Observers.center.removeObserver(token)
            }
        }
        let after = best { post(Self.system, posts) }
        let bridged = best { post(Self.bridged, posts) }
        let perPost = 1e9 / Double(posts)
        return Result(
            bridgedNames: names, systemBeforeNanoseconds: before * perPost, systemAfterNanoseconds: after * perPost,
            bridgedNanoseconds: bridged * perPost)
    }

    private func best(_ body: () -> Double) -> Double {
        _ = body()
        return (0..<options.postRuns).map { _ in body() }.min() ?? 0
    }

    /// Seconds for `posts` posts of `name` on the default center, one Foundation observer listening.
    private func post(_ name: Notification.Name, _ posts: Int) -> Double {
        let tally = Tally()
        let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in
            tally.count &+= 1
        }
        let seconds = Stopwatch.seconds {
            for _ in 0..<posts { NotificationCenter.default.post(name: name, object: nil) }
        }
        tally.expect(posts, "NotificationCenter.default")
        NotificationCenter.default.removeObserver(token)
        return seconds
    }
}

extension Results {
    var bridgeSection: String {
        guard let bridge else { return "" }
        return "\nFoundation's default center once a harness has bridged names, ns per post, one Foundation observer\n"
            + Self.columns(
                ["post on NotificationCenter.default", "ns", "vs unbridged"],
                [
                    [
                        "a name nobody bridged (a system notification)", format(bridge.systemBeforeNanoseconds, "%.0f"),
                        "1.00x",
                    ],
                    [
                        "the same, \(bridge.bridgedNames) other names bridged",
                        format(bridge.systemAfterNanoseconds, "%.0f"),
                        format(bridge.systemAfterNanoseconds / bridge.systemBeforeNanoseconds, "%.2fx"),
                    ],
                    [
                        "a bridged name, no test running",
                        format(bridge.bridgedNanoseconds, "%.0f"),
                        format(bridge.bridgedNanoseconds / bridge.systemBeforeNanoseconds, "%.2fx"),
                    ],
                ])
    }

    var bridgeJSON: JSONValue {
        guard let bridge else { return .null }
        return [
            "bridged_names": .int(bridge.bridgedNames),
            "system_unbridged_ns": .double(rounded(bridge.systemBeforeNanoseconds, 1)),
            "system_with_bridges_ns": .double(rounded(bridge.systemAfterNanoseconds, 1)),
            "bridged_name_ns": .double(rounded(bridge.bridgedNanoseconds, 1)),
        ]
    }

    /// Bridging names must not slow the posts of names it did not bridge.
    var bridgeTargets: [Target] {
        guard let bridge else { return [] }
        let ratio = bridge.systemAfterNanoseconds / bridge.systemBeforeNanoseconds
        return [
            Target(
                description: "a system notification's post: within 1.2x once \(bridge.bridgedNames) names are bridged",
                measured: format(ratio, "%.2fx"), met: ratio <= 1.2)
        ]
    }
}
