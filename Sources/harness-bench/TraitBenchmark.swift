import Foundation
import ObserverHarness

/// What the `.observerHarness` trait (and `ObserverHarnessTestCase`) adds to
/// each test: a harness, its scope around the test, and the analysis and
/// findings check at the end — the steps of `HarnessedTest` in
/// ObserverHarnessTesting, which this executable does not link (it would
/// bring in XCTest and Swift Testing). Swift Testing's own call of a scoping
/// trait is not in it: every scoping trait pays that.
///
/// Two tests, each timed with the trait's work around it and without: an
/// empty one, and a small one in which app code makes three registries
/// through the scope (`Observers.center`, an `ObserverList`, an
/// `ObservedProperty`), five observers and five posts. Off, the same code
/// gets the production registries.
struct TraitBenchmark {
    struct Result {
        let emptyOnMicroseconds: Double
        let emptyOffMicroseconds: Double
        let smallOnMicroseconds: Double
        let smallOffMicroseconds: Double
        var emptyOverheadMicroseconds: Double { emptyOnMicroseconds - emptyOffMicroseconds }
        var smallOverheadMicroseconds: Double { smallOnMicroseconds - smallOffMicroseconds }
    }

    let options: BenchOptions

    func run() -> Result {
        let tests = options.isQuick ? 200 : 2_000
        var times: [[Double]] = [[], [], [], []]
        for run in 0...options.smallTestRuns {
            // Taking turns, so a change in machine load reaches all four alike.
            let measured = [
                Stopwatch.seconds { for _ in 0..<tests { Self.underTheTrait {} } },
                Stopwatch.seconds { for _ in 0..<tests { Self.emptyTest() } },
                Stopwatch.seconds { for _ in 0..<tests { Self.underTheTrait(Self.smallTest) } },
                Stopwatch.seconds { for _ in 0..<tests { Self.smallTest() } },
            ]
            if run > 0 {  // the first is a warm-up
                for index in times.indices { times[index].append(measured[index] / Double(tests)) }
            }
        }
        let medians = times.map { median($0) * 1e6 }
        return Result(
            emptyOnMicroseconds: medians[0], emptyOffMicroseconds: medians[1],
            smallOnMicroseconds: medians[2], smallOffMicroseconds: medians[3])
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// The task-local the trait binds beside the scope (`HarnessedTest.running`).
    @TaskLocal private static var running: Harness?

    /// The trait's work around one test.
    static func underTheTrait(_ test: () -> Void) {
        let harness = Harness(name: "test()", posts: .caller)
        $running.withValue(harness) { withObserverHarness(harness, operation: test) }
        let report = harness.analyze()
        if report.findings.contains(where: { $0.severity <= .warning }) {
            FileHandle.standardError.write(Data("harness-bench: a trait test has findings\n".utf8))
        }
    }

    @inline(never) static func emptyTest() {}

    final class Screen {}
    final class Model {}
    private static let name = Notification.Name("CartChanged")

    /// App code: whatever registries are in place.
    @inline(never) static func smallTest() {
        let center = Observers.center
        let list = ObserverList<Screen>("screens")
        let model = Model()
        let count = ObservedProperty("count", of: model, initialValue: 0)
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
        tally.expect(9, "small test")
        withExtendedLifetime(screens) {}
    }
}
