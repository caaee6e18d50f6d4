import Foundation
import ObserverHarness

/// Section 2: what the harness adds to a small test. The test makes a
/// harness, three registries (a center, an observer list, a property), five
/// observers, five posts, removes the observers and runs `analyze()`; the
/// same work on Foundation's `NotificationCenter` and plain closure lists is
/// the baseline. The overhead is the difference, per test.
struct SmallTestBenchmark {
    struct Result {
        let instrumentedMicroseconds: Double
        let foundationMicroseconds: Double
        var overheadMicroseconds: Double { instrumentedMicroseconds - foundationMicroseconds }
    }

    let options: BenchOptions
    private static let name = Notification.Name("CartChanged")

    /// Each run times a batch of tests; the two take turns and the median run
    /// of each is kept.
    func run() -> Result {
        let tests = options.isQuick ? 200 : 2_000
        var instrumented: [Double] = [], foundation: [Double] = []
        for run in 0...options.smallTestRuns {
            let a = Stopwatch.seconds { for _ in 0..<tests { Self.instrumentedTest() } }
            let b = Stopwatch.seconds { for _ in 0..<tests { Self.foundationTest() } }
            if run > 0 {  // the first is a warm-up
                instrumented.append(a / Double(tests))
                foundation.append(b / Double(tests))
            }
        }
        return Result(
            instrumentedMicroseconds: median(instrumented) * 1e6,
            foundationMicroseconds: median(foundation) * 1e6)
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    final class Screen {}
    final class Model {}

    static func instrumentedTest() {
        let harness = Harness(name: "small-test")
        let center = harness.notificationCenter()
        let list = harness.observerList(of: Screen.self)
        let model = Model()
        let count = harness.observedProperty("count", of: model, initialValue: 0)
        let screens = [Screen(), Screen(), Screen()]
        let tally = Tally()
        let tokens = (0..<2).map { _ in
            center.addObserver(forName: name, object: nil, queue: nil) { _ in tally.count &+= 1 }
        }
        list.add(screens[0])
        list.add(screens[1])
        count.addObserver(screens[2]) { _, _ in tally.count &+= 1 }
        center.post(name: name, object: nil)
        center.post(name: name, object: nil)
        list.notify { _ in tally.count &+= 1 }
        list.notify { _ in tally.count &+= 1 }
        count.set(1)
        for token in tokens { center.removeObserver(token) }
        list.remove(screens[0])
        list.remove(screens[1])
        count.removeObserver(screens[2])
        let report = harness.analyze()
        tally.expect(9, "small test (instrumented)")
        if !report.findings.isEmpty {
            FileHandle.standardError.write(Data("harness-bench: the small test has findings\n".utf8))
        }
        withExtendedLifetime(screens) {}
    }

    static func foundationTest() {
        let center = NotificationCenter()
        let list = ClosureList()
        let count = PlainProperty()
        let tally = Tally()
        let tokens = (0..<2).map { _ in
            center.addObserver(forName: name, object: nil, queue: nil) { _ in tally.count &+= 1 }
        }
        list.add { _ in tally.count &+= 1 }
        list.add { _ in tally.count &+= 1 }
        count.add { tally.count &+= 1 }
        center.post(name: name, object: nil)
        center.post(name: name, object: nil)
        list.post(name: name, object: nil)
        list.post(name: name, object: nil)
        count.set(1)
        for token in tokens { center.removeObserver(token) }
        list.removeAll()
        count.removeAll()
        tally.expect(9, "small test (Foundation)")
    }
}

/// A property that calls its observers on every set, under a lock.
final class PlainProperty: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var value = 0
    private var observers: [@Sendable () -> Void] = []

    func add(_ observer: @escaping @Sendable () -> Void) {
        lock.lock()
        observers.append(observer)
        lock.unlock()
    }

    func set(_ newValue: Int) {
        lock.lock()
        value = newValue
        let current = observers
        lock.unlock()
        for observer in current { observer() }
    }

    func removeAll() {
        lock.lock()
        observers.removeAll()
        lock.unlock()
    }
}
