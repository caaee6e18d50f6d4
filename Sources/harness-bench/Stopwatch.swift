import Dispatch

/// Times code with the monotonic clock and summarises repeated runs.
enum Stopwatch {
    /// Seconds `body` took. `DispatchTime` rather than `ContinuousClock`
    /// (macOS 13), so the benchmark builds at the package's platform floor.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The median of values already measured.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The median of `runs` results of `body`, after `warmups` results thrown away.
    /// `body` times its own measured region (setup stays outside it).
    static func median(runs: Int, warmups: Int = 1, _ body: () throws -> Double) rethrows -> Double {
        for _ in 0..<warmups { _ = try body() }
        var results: [Double] = []
        for _ in 0..<max(runs, 1) { results.append(try body()) }
        results.sort()
        let middle = results.count / 2
        return results.count % 2 == 1 ? results[middle] : (results[middle - 1] + results[middle]) / 2
    }
}
