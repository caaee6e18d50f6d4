import Foundation
import ObserverHarness

/// Section 7: a Redux-style store's subscriber set, as adopted packages use an
/// `ObserverList(hold: .weak, dedupe: true)`. The workload subscribes n
/// subscribers, subscribes all of them again 10 times (every one a duplicate,
/// ignored), then delivers one change to all of them 10 times: 11 n adds and
/// 10 n deliveries. It runs on an array-plus-set baseline (what such a store
/// writes by hand), on the plain list, and on the list under the harness
/// (made inside `withObserverHarness`, as a test makes it).
struct StoreShapeBenchmark {
    struct Row {
        let subscribers: Int
        let baselineSeconds: Double
        let plainSeconds: Double
        let harnessSeconds: Double
        /// Nanoseconds per add or delivery.
        var baselinePerOperation: Double { baselineSeconds * 1e9 / Double(Self.operations(subscribers)) }
        var plainPerOperation: Double { plainSeconds * 1e9 / Double(Self.operations(subscribers)) }
        var harnessPerOperation: Double { harnessSeconds * 1e9 / Double(Self.operations(subscribers)) }

        static func operations(_ subscribers: Int) -> Int { 21 * subscribers }
    }

    let options: BenchOptions
    static let resubscriptions = 10
    static let changes = 10

    /// Each size is timed as whole workloads (seconds per workload): small
    /// sizes repeat the workload so a run lasts long enough to time.
    func run() -> [Row] {
        options.storeSizes.map { subscribers in
            let repetitions = max(1, options.storeOperationsPerRun / Row.operations(subscribers))
            var best = (baseline: Double.infinity, plain: Double.infinity, harness: Double.infinity)
            for _ in 0..<options.storeRuns {
                best.baseline = min(best.baseline, Self.time(repetitions) { Self.baseline(subscribers) })
                best.plain = min(best.plain, Self.time(repetitions) { Self.plain(subscribers) })
                best.harness = min(best.harness, Self.timeUnderHarness(repetitions, subscribers))
            }
            return Row(
                subscribers: subscribers, baselineSeconds: best.baseline, plainSeconds: best.plain,
                harnessSeconds: best.harness)
        }
    }

    final class Subscriber: StoreSubscriber {
        var received = 0
        func newState(_ state: Int) { received &+= state }
    }

    private static func time(_ repetitions: Int, _ workload: () -> Void) -> Double {
        Stopwatch.seconds { for _ in 0..<repetitions { workload() } } / Double(repetitions)
    }

    /// One harness per timed run, as one test has one: the lists it records
    /// accumulate in it.
    private static func timeUnderHarness(_ repetitions: Int, _ subscribers: Int) -> Double {
        let harness = Harness(name: "store-shape")
        return withObserverHarness(harness) { time(repetitions) { plain(subscribers) } }
    }

    /// The list the store ships (instrumented when made inside a harness scope).
    private static func plain(_ count: Int) {
        let subscribers = (0..<count).map { _ in Subscriber() }
        let list = ObserverList<any StoreSubscriber>("subscribers", hold: .weak, dedupe: true)
        for _ in 0...resubscriptions {
            for subscriber in subscribers { list.add(subscriber) }
        }
        for change in 1...changes { list.notify { $0.newState(change) } }
        check(subscribers, "the list")
    }

    /// What the store wrote by hand: weak boxes in an array, identities in a set.
    private static func baseline(_ count: Int) {
        let subscribers = (0..<count).map { _ in Subscriber() }
        let store = ArrayAndSet()
        for _ in 0...resubscriptions {
            for subscriber in subscribers { store.subscribe(subscriber) }
        }
        for change in 1...changes { store.notify { $0.newState(change) } }
        check(subscribers, "the array-plus-set baseline")
    }

    private static func check(_ subscribers: [Subscriber], _ what: String) {
        let expected = (1...changes).reduce(0, +)
        if subscribers.contains(where: { $0.received != expected }) {
            FileHandle.standardError.write(Data("harness-bench: \(what) missed or repeated a delivery\n".utf8))
        }
    }
}

protocol StoreSubscriber: AnyObject {
    func newState(_ state: Int)
}

/// The baseline: a locked array of weak boxes plus a set of identities for the duplicate check.
final class ArrayAndSet {
    struct WeakBox {
        weak var subscriber: (any StoreSubscriber)?
    }
    private let lock = NSLock()
    private var boxes: [WeakBox] = []
    private var identities: Set<ObjectIdentifier> = []

    func subscribe(_ subscriber: any StoreSubscriber) {
        lock.lock()
        defer { lock.unlock() }
        guard identities.insert(ObjectIdentifier(subscriber)).inserted else { return }
        boxes.append(WeakBox(subscriber: subscriber))
    }

    func notify(_ body: (any StoreSubscriber) -> Void) {
        lock.lock()
        let snapshot = boxes
        lock.unlock()
        for box in snapshot {
            if let subscriber = box.subscriber { body(subscriber) }
        }
    }
}

extension Results {
    /// Which build measured: `swift test` builds debug, so both are reported.
    static var buildName: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    var storeSection: String {
        "\n7. The store shape (\(Self.buildName) build): n weak subscribers subscribed 11 times, 10 changes "
            + "delivered to all; ms per workload, ns per add or delivery\n"
            + Self.columns(
                [
                    "n", "array + set", "plain list", "under the harness", "plain / baseline", "harness / baseline",
                    "ns/op baseline", "ns/op plain", "ns/op harness",
                ],
                store.map { row in
                    [
                        String(row.subscribers), format(row.baselineSeconds * 1e3, "%.3f"),
                        format(row.plainSeconds * 1e3, "%.3f"), format(row.harnessSeconds * 1e3, "%.3f"),
                        format(row.plainSeconds / row.baselineSeconds, "%.2fx"),
                        format(row.harnessSeconds / row.baselineSeconds, "%.2fx"),
                        format(row.baselinePerOperation, "%.0f"), format(row.plainPerOperation, "%.0f"),
                        format(row.harnessPerOperation, "%.0f"),
                    ]
                })
    }

    var storeJSON: JSONValue {
        [
            "build": .string(Self.buildName),
            "rows": .array(
                store.map {
                    [
                        "subscribers": .int($0.subscribers),
                        "baseline_seconds": .double(rounded($0.baselineSeconds, 6)),
                        "plain_seconds": .double(rounded($0.plainSeconds, 6)),
                        "harness_seconds": .double(rounded($0.harnessSeconds, 6)),
                    ]
                }),
        ]
    }

    var storeTargets: [Target] {
        var targets: [Target] = []
        if let row = store.first(where: { $0.subscribers == 3_000 }) {
            let plain = row.plainSeconds / row.baselineSeconds
            let harness = row.harnessSeconds / row.baselineSeconds
            targets.append(
                Target(
                    description: "store shape, n = 3000 (\(Self.buildName)): plain list within 2x of array + set",
                    measured: format(plain, "%.2fx"), met: plain <= 2))
            targets.append(
                Target(
                    description:
                        "store shape, n = 3000 (\(Self.buildName)): under the harness within 5x of array + set",
                    measured: format(harness, "%.2fx"), met: harness <= 5))
        }
        if let first = store.first, let last = store.last, store.count > 1 {
            let plain = last.plainPerOperation / first.plainPerOperation
            let harness = last.harnessPerOperation / first.harnessPerOperation
            let sizes = "n = \(first.subscribers) to \(last.subscribers)"
            targets.append(
                Target(
                    description: "store shape (\(Self.buildName)): plain ns/op grows < 1.5x, \(sizes)",
                    measured: format(plain, "%.2fx"), met: plain <= 1.5))
            targets.append(
                Target(
                    description: "store shape (\(Self.buildName)): harness ns/op grows < 1.5x, \(sizes)",
                    measured: format(harness, "%.2fx"), met: harness <= 1.5))
        }
        return targets
    }
}
