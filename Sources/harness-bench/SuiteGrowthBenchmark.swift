import Foundation
import ObserverHarness

/// Whether a test costs the same late in a long suite as early: N small
/// tests, each with a harness of its own and its calls at lines of its own,
/// as a suite's test functions are. Every call site a process meets stays
/// known to it, so the last tests run after tens of thousands of sites; a
/// cost that grew with them would show here, and not in a suite of one
/// test function repeated. The first tenth of the tests is timed against
/// the last tenth, each test by the CPU time of this thread, each tenth by
/// its median.
///
/// Runs last: the sites it adds would make every later section's sites new ones.
struct SuiteGrowthBenchmark {
    struct Result {
        let tests: Int
        let sitesPerTest: Int
        let firstMicroseconds: Double
        let lastMicroseconds: Double
        var ratio: Double { lastMicroseconds / firstMicroseconds }
    }

    let options: BenchOptions
    private static let name = Notification.Name("SuiteGrowthCart")
    /// Lines past any real one of this file, so no site is shared with another section.
    private static let firstLine: UInt = 1_000_000

    func run() -> Result {
        // 5 000 tests' sites (55 000) stay inside the catalog of the process's sites (65 536).
        let tests = options.isQuick ? 1_000 : 5_000
        let batch = tests / 10
        // Warm: the first timed tests must not pay for the code's first run.
        for warmUp in 0..<Self.warmUps { Self.test(number: tests + warmUp) }
        // Each timed test alone, and the median of each tenth: a page fault or
        // a preemption lands on one test, not on its tenth's mean.
        var first: [Double] = []
        var last: [Double] = []
        for test in 0..<tests {
            let timed = test < batch || test >= tests - batch
            let start = timed ? Platform.threadCPUSeconds() : 0
            Self.test(number: test)
            guard timed else { continue }
            let seconds = Platform.threadCPUSeconds() - start
            if test < batch { first.append(seconds) } else { last.append(seconds) }
        }
        return Result(
            tests: tests, sitesPerTest: Self.sitesPerTest,
            firstMicroseconds: Stopwatch.median(first) * 1e6, lastMicroseconds: Stopwatch.median(last) * 1e6)
    }

    static let sitesPerTest = 11
    static let warmUps = 20

    /// Three observers, five posts, three removals, `analyze()`: each call at a line of this test's own.
    private static func test(number: Int) {
        let base = firstLine + UInt(number * sitesPerTest)
        func at(_ offset: UInt) -> CodeLocation {
            CodeLocation(fileID: #fileID, filePath: #filePath, line: base + offset, column: 9, isolation: nil)
        }
        let harness = Harness(name: "growth")
        let center = harness.notificationCenter()
        let tally = Tally()
        var tokens: [any NSObjectProtocol] = []
        for index in 0..<3 {
            tokens.append(
                center.addObserver(forName: name, object: nil, queue: nil, location: at(UInt(index))) { _ in
                    tally.count &+= 1
                })
        }
        for index in 0..<5 { center.post(name: name, object: nil, userInfo: nil, location: at(UInt(3 + index))) }
        for (index, token) in tokens.enumerated() { center.removeObserver(token, location: at(UInt(8 + index))) }
        let report = harness.analyze()
        tally.expect(15, "suite growth test")
        if !report.findings.isEmpty {
            FileHandle.standardError.write(Data("harness-bench: a suite growth test has findings\n".utf8))
        }
    }
}
