/// What `harness-bench` was asked to do, and the sizes it measures at.
struct BenchOptions {
    enum Mode {
        /// Every section, at the sizes the targets are stated for.
        case full
        /// Every section at small sizes: seconds, for CI (no thresholds).
        case quick
        /// Internal: record `events` events of the app mix and print the
        /// memory they took (run as a child process so RSS is its own).
        case measureMemory(events: Int)
        /// Internal: run `harness-cli analyze TRACE` and print its peak RSS
        /// (a child of a child, so no other child's peak counts).
        case measureCLIMemory(trace: String)
        /// Write a trace of `events` events of the app mix to `path`, to
        /// measure `harness-cli analyze` on it by hand (`/usr/bin/time -v`).
        case writeTrace(events: Int, path: String, shape: TraceShape?)
    }

    /// The measurements, in the order they run.
    enum Section: String, CaseIterable {
        case post, bridge, small, trait, memory, analysis, trace, replays, interface, store, growth
    }

    var mode: Mode = .full
    var json = false
    var help = false
    /// `--only`: the sections to run (all by default).
    var sections = Section.allCases
    /// `--store-sizes`: the store shape's subscriber counts, to measure one size by hand.
    var storeSizesGiven: [Int]?
    /// `--observers`: the post section's observer counts, to profile one by hand.
    var observerCountsGiven: [Int]?

    static let usage = """
        USAGE: harness-bench [--json] [--quick] [--only SECTION,...]

        Measures ObserverHarness: post cost against Foundation's NotificationCenter and a
        locked closure array, the per-test cost of a harness and of the test trait (and
        whether it stays flat over a long suite's call sites), memory
        per recorded event, analysis throughput, trace
        write/read throughput and `harness-cli analyze` wall time, and the replays
        exploration needs to find one conflicting pair. Build in release mode:

          swift build -c release && .build/release/harness-bench

        OPTIONS:
          --json    print the results as JSON instead of a table
          --quick   small sizes, a few seconds in all (what CI runs; not for comparing)
          --only SECTION,...
                    run only these of post, bridge, small, trait, memory, analysis, trace, replays,
                    interface, store, growth
          --store-sizes N,...
                    the store shape's subscriber counts (default 10,1000,3000,10000)
          --observers N,...
                    the post section's observer counts (default 1,10,100,1000); a
                    target is judged only where its count is measured
          --write-trace N PATH [--shape SHAPE]
                    only write a trace of N events of the app mix to PATH (to measure
                    `harness-cli analyze PATH` by hand); with --shape, of one of the
                    trace section's other shapes: repeated-adds, dead-deliveries,
                    long-lived, deep-causes, unmatched-removals
          --help    show this help
        """

    init(arguments: [String]) throws(UsageError) {
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--json": json = true
            case "--quick": mode = .quick
            case "--help", "-h": help = true
            case "--only":
                let names = (words.popFirst() ?? "").split(separator: ",")
                let chosen = names.compactMap { Section(rawValue: String($0)) }
                guard !chosen.isEmpty, chosen.count == names.count else {
                    throw UsageError(
                        message: "--only takes sections from post, bridge, small, trait, memory, analysis, trace, "
                            + "replays, interface, store, growth")
                }
                sections = Section.allCases.filter(chosen.contains)
            case "--store-sizes":
                let sizes = (words.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
                guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else {
                    throw UsageError(message: "--store-sizes takes positive subscriber counts, comma-separated")
                }
                storeSizesGiven = sizes
            case "--observers":
                let counts = (words.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
                guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else {
                    throw UsageError(message: "--observers takes positive observer counts, comma-separated")
                }
                observerCountsGiven = counts
            case "--measure-memory":
                guard let value = words.popFirst(), let events = Int(value), events > 0 else {
                    throw UsageError(message: "--measure-memory needs a positive event count")
                }
                mode = .measureMemory(events: events)
            case "--write-trace":
                guard let value = words.popFirst(), let events = Int(value), events > 0,
                    let path = words.popFirst()
                else {
                    throw UsageError(message: "--write-trace needs a positive event count and a path")
                }
                mode = .writeTrace(events: events, path: path, shape: nil)
            case "--shape":
                guard case .writeTrace(let events, let path, nil) = mode,
                    let shape = words.popFirst().flatMap(TraceShape.init(rawValue:))
                else {
                    throw UsageError(
                        message: "--shape follows --write-trace N PATH and takes one of "
                            + TraceShape.allCases.map(\.rawValue).joined(separator: ", "))
                }
                mode = .writeTrace(events: events, path: path, shape: shape)
            case "--measure-cli-memory":
                guard let trace = words.popFirst() else {
                    throw UsageError(message: "--measure-cli-memory needs a trace path")
                }
                mode = .measureCLIMemory(trace: trace)
            default:
                throw UsageError(message: "unknown argument '\(word)'")
            }
        }
    }

    var isQuick: Bool {
        if case .quick = mode { return true }
        return false
    }

    // MARK: Sizes

    var observerCounts: [Int] { observerCountsGiven ?? [1, 10, 100, 1000] }
    /// Deliveries per timed post run; posts = this / observers (at least `minimumPosts`).
    var deliveriesPerRun: Int { isQuick ? 20_000 : 400_000 }
    var minimumPosts: Int { isQuick ? 20 : 400 }
    var postRuns: Int { isQuick ? 3 : 7 }

    /// Timed batches of small tests (after one warm-up batch).
    var smallTestRuns: Int { isQuick ? 3 : 9 }

    var memoryEvents: Int { isQuick ? 100_000 : 10_000_000 }

    var analysisSizes: [Int] { isQuick ? [10_000, 100_000] : [100_000, 1_000_000, 10_000_000] }
    /// Timed analyses per size: fewer for the largest, which takes seconds each.
    func analysisRuns(events: Int) -> Int { isQuick ? 1 : (events >= 10_000_000 ? 5 : 5) }

    var traceEvents: Int { isQuick ? 100_000 : 1_000_000 }
    var traceRuns: Int { isQuick ? 1 : 5 }
    /// Events in each of the trace section's other shapes: 2 M repeated adds,
    /// as in the trace that took 1.75 GB, 10^6 of the others.
    func shapeEvents(_ shape: TraceShape) -> Int {
        isQuick ? 20_000 : shape == .repeatedAdds ? 2_000_000 : 1_000_000
    }
    var cliRuns: Int { isQuick ? 1 : 3 }

    /// Subscribers in the store-shape workload (3 000 is the adopted store's own test).
    var storeSizes: [Int] { storeSizesGiven ?? (isQuick ? [10, 1_000] : [10, 1_000, 3_000, 10_000]) }
    /// Adds and deliveries per timed store-shape run; small sizes repeat the workload.
    var storeOperationsPerRun: Int { isQuick ? 21_000 : 210_000 }
    var storeRuns: Int { isQuick ? 1 : 5 }

    var receiverCounts: [Int] { isQuick ? [2, 10, 100] : [2, 3, 4, 8, 10, 16, 32, 64, 100, 128, 256, 500, 1000] }
}

struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { "harness-bench: error: \(message)\n\nRun harness-bench --help for usage." }
}
