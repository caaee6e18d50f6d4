import Foundation
import ObserverHarness

extension Results {
    /// The JSON keys (plus `peak_rss_bytes_per_event`), canonical:
    /// sorted keys, two-space indentation.
    var json: String {
        let post: [JSONValue] = self.post.map {
            [
                "observers": .int($0.observers), "instrumented_ns": .double(rounded($0.instrumentedNanoseconds, 1)),
                "foundation_ns": .double(rounded($0.foundationNanoseconds, 1)),
                "plain_ns": .double(rounded($0.plainNanoseconds, 1)),
                "observers_center_ns": .double(rounded($0.routedNanoseconds, 1)),
            ]
        }
        let analysis: [JSONValue] = self.analysis.map {
            [
                "events": .int($0.events), "per_second": .int(Int($0.perSecond)),
                "cpu_per_second": .int(Int($0.cpuPerSecond)),
                "page_faults_per_event": .double(rounded($0.pageFaultsPerEvent, 3)),
            ]
        }
        let replays: [JSONValue] = self.replays.map {
            [
                "receivers": .int($0.receivers), "replays": .int($0.replays),
                "seconds": .double(rounded($0.seconds, 4)), "cpu_seconds": .double(rounded($0.cpuSeconds, 4)),
            ]
        }
        var value: JSONObject = [:]
        if !post.isEmpty { value["post"] = .array(post) }
        if let small {
            value["small_test_us"] = .double(rounded(small.instrumentedMicroseconds, 2))
            value["small_test_foundation_us"] = .double(rounded(small.foundationMicroseconds, 2))
            value["small_test_overhead_us"] = .double(rounded(small.overheadMicroseconds, 2))
        }
        if let trait {
            value["trait_empty_test_overhead_us"] = .double(rounded(trait.emptyOverheadMicroseconds, 2))
            value["trait_small_test_us"] = .double(rounded(trait.smallOnMicroseconds, 2))
            value["trait_small_test_off_us"] = .double(rounded(trait.smallOffMicroseconds, 2))
            value["trait_small_test_overhead_us"] = .double(rounded(trait.smallOverheadMicroseconds, 2))
        }
        if let memory {
            value["bytes_per_event"] = .double(rounded(memory.recorderBytesPerEvent, 2))
            value["peak_rss_bytes_per_event"] = memory.peakRSSBytesPerEvent.map { .double(rounded($0, 2)) } ?? .null
        }
        if !analysis.isEmpty { value["analyze_events_per_second"] = .array(analysis) }
        if let trace {
            value["trace_write_events_per_second"] = .int(Int(trace.writePerSecond))
            value["trace_read_events_per_second"] = .int(Int(trace.readPerSecond))
            value["json_parse_lines_per_second"] = .int(Int(trace.parsePerSecond))
            value["analyze_cli_seconds"] = trace.cliSeconds.map { .double(rounded($0, 3)) } ?? .null
            value["analyze_cli_peak_rss_bytes_per_event"] =
                trace.cliPeakBytesPerEvent.map { .double(rounded($0, 1)) }
                ?? .null
            value["analyze_cli_shapes"] = .array(
                trace.shapes.map {
                    [
                        "shape": .string($0.shape.rawValue), "events": .int($0.events),
                        "peak_rss_bytes_per_event": $0.cliPeakBytesPerEvent.map { .double(rounded($0, 1)) } ?? .null,
                    ]
                })
        }
        if !replays.isEmpty {
            value["replays"] = .array(replays)
            value["replays_cpu_seconds"] = .double(rounded(self.replays.map(\.cpuSeconds).reduce(0, +), 4))
        }
        if bridge != nil { value["bridge"] = bridgeJSON }
        if !interface.isEmpty { value["interface"] = interfaceJSON }
        if !store.isEmpty { value["store_shape"] = storeJSON }
        if let growth {
            value["suite_growth"] = [
                "tests": .int(growth.tests), "sites_per_test": .int(growth.sitesPerTest),
                "first_tests_cpu_us": .double(rounded(growth.firstMicroseconds, 2)),
                "last_tests_cpu_us": .double(rounded(growth.lastMicroseconds, 2)),
            ]
        }
        return JSONValue.object(value).serialized(.canonical) + "\n"
    }

    /// Sections as aligned tables, then the targets, each met or MISSED.
    /// - Parameter judged: false for `--quick`'s small sizes, which the heading says.
    func table(machine: String, judged: Bool) -> String {
        var out = "harness-bench — \(machine)\n"
        #if DEBUG
            out += "note: a debug build; build with -c release for numbers worth comparing\n"
        #endif
        if !post.isEmpty { out += postSection }
        if let small { out += Self.smallSection(small) }
        if let trait { out += Self.traitSection(trait) }
        if let memory { out += Self.memorySection(memory) }
        if !analysis.isEmpty { out += analysisSection }
        if let trace { out += Self.traceSection(trace) }
        if !replays.isEmpty { out += replaysSection }
        out += bridgeSection
        if !interface.isEmpty { out += interfaceSection }
        if !store.isEmpty { out += storeSection }
        if let growth { out += Self.growthSection(growth) }
        out +=
            judged
            ? "\nTargets\n" : "\nTargets (at --quick's small sizes: a hint, judged at the full sizes)\n"
        out += Self.columns(
            ["target", "measured", ""],
            targets.map { target in
                [target.description, target.measured, target.met.map { $0 ? "met" : "MISSED" } ?? "not measured"]
            })
        return out
    }

    private var postSection: String {
        "\n1. Post cost, ns per post(name:object:) to N block observers\n"
            + Self.columns(
                [
                    "observers", "instrumented", "Foundation", "closure array", "Foundation / instr.",
                    "instr. / closures", "Observers.center", "center / Foundation",
                ],
                post.map { row in
                    [
                        String(row.observers), format(row.instrumentedNanoseconds, "%.0f"),
                        format(row.foundationNanoseconds, "%.0f"), format(row.plainNanoseconds, "%.0f"),
                        format(row.foundationNanoseconds / row.instrumentedNanoseconds, "%.1fx"),
                        format(row.instrumentedNanoseconds / row.plainNanoseconds, "%.1fx"),
                        format(row.routedNanoseconds, "%.0f"),
                        format(row.routedNanoseconds / row.foundationNanoseconds, "%.2fx"),
                    ]
                })
    }

    private static func smallSection(_ small: SmallTestBenchmark.Result) -> String {
        "\nSmall test (a harness, 3 registries, 5 observers, 5 posts, analyze()), us per test\n"
            + columns(
                ["instrumented", "Foundation", "overhead"],
                [
                    [
                        format(small.instrumentedMicroseconds, "%.1f"), format(small.foundationMicroseconds, "%.1f"),
                        format(small.overheadMicroseconds, "%.1f"),
                    ]
                ])
    }

    private static func growthSection(_ growth: SuiteGrowthBenchmark.Result) -> String {
        let batch = growth.tests / 10
        // Sites met before a test: the warm-up's, then every earlier test's.
        func sitesBefore(_ test: Int) -> Int { (SuiteGrowthBenchmark.warmUps + test) * growth.sitesPerTest }
        return "\nA long suite: \(growth.tests) small tests, \(growth.sitesPerTest) call sites of their own each, "
            + "median CPU us per test\n"
            + columns(
                ["tests", "call sites met before each", "us per test"],
                [
                    [
                        "first \(batch)", "\(sitesBefore(0)) to \(sitesBefore(batch - 1))",
                        format(growth.firstMicroseconds, "%.1f"),
                    ],
                    [
                        "last \(batch)", "\(sitesBefore(growth.tests - batch)) to \(sitesBefore(growth.tests - 1))",
                        format(growth.lastMicroseconds, "%.1f"),
                    ],
                ])
    }

    private static func traitSection(_ trait: TraitBenchmark.Result) -> String {
        "\nTest trait (a harness per test, its scope, analyze() and the findings check), us per test\n"
            + columns(
                ["test", "with the trait", "without", "overhead"],
                [
                    [
                        "empty", format(trait.emptyOnMicroseconds, "%.1f"), format(trait.emptyOffMicroseconds, "%.2f"),
                        format(trait.emptyOverheadMicroseconds, "%.1f"),
                    ],
                    [
                        "3 registries, 5 observers, 5 posts", format(trait.smallOnMicroseconds, "%.1f"),
                        format(trait.smallOffMicroseconds, "%.1f"), format(trait.smallOverheadMicroseconds, "%.1f"),
                    ],
                ])
    }

    private static func memorySection(_ memory: MemoryBenchmark.Result) -> String {
        "\n2. Memory per recorded event (app mix, \(sizeLabel(memory.events)) events, in a child process)\n"
            + columns(
                ["measure", "bytes/event"],
                [
                    [
                        "event storage (40-byte events in 64 Ki-event chunks)",
                        format(memory.eventBytesPerEvent, "%.1f"),
                    ],
                    ["recorder's accounting (events + tables)", format(memory.recorderBytesPerEvent, "%.1f")],
                    [
                        "peak RSS growth (VmHWM after - VmRSS before)",
                        memory.peakRSSBytesPerEvent.map { format($0, "%.1f") } ?? "n/a",
                    ],
                ])
    }

    private var analysisSection: String {
        let base = analysis.first?.perSecond ?? 1
        return "\n3. Analysis throughput (every trace rule), app mix\n"
            + Self.columns(
                ["events", "M events/s", "M events/CPU s", "time/event vs smallest", "new pages/event", "findings"],
                analysis.map { row in
                    [
                        "\(sizeLabel(row.size)) (\(row.events))", format(row.perSecond / 1e6, "%.2f"),
                        format(row.cpuPerSecond / 1e6, "%.2f"), format(base / row.perSecond, "%.2fx"),
                        format(row.pageFaultsPerEvent, "%.3f"), String(row.findings),
                    ]
                })
    }

    private static func traceSection(_ trace: TraceBenchmark.Result) -> String {
        var out = "\n4. Trace, \(trace.events) events (\(trace.bytes / 1_000_000) MB of JSON Lines)\n"
        out += columns(
            ["measure", "result"],
            [
                ["write (encode + file)", format(trace.writePerSecond / 1e6, "%.2f M events/s")],
                ["read (file + parse)", format(trace.readPerSecond / 1e6, "%.2f M events/s")],
                ["JSON parser alone, line by line", format(trace.parsePerSecond / 1e6, "%.2f M lines/s")],
                ["harness-cli analyze, wall time", trace.cliSeconds.map { format($0, "%.2f s") } ?? "n/a"],
                [
                    "harness-cli analyze, peak RSS per event",
                    trace.cliPeakBytesPerEvent.map { format($0, "%.1f B") } ?? "n/a",
                ],
            ])
        if let note = trace.cliNote { out += "   \(note)\n" }
        out += "\n   harness-cli analyze on other shapes of trace, peak RSS per event\n"
        out += columns(
            ["shape", "events", "peak RSS per event"],
            trace.shapes.map { row in
                [
                    row.shape.rawValue, String(row.events),
                    row.cliPeakBytesPerEvent.map { format($0, "%.1f B") } ?? "n/a",
                ]
            })
        return out
    }

    private var replaysSection: String {
        "\n5. Replays to find one conflicting pair among n receivers of one post\n"
            + Self.columns(
                ["receivers", "replays", "bound 2+2*ceil(log2 n)", "pair found", "seconds"],
                replays.map { row in
                    [
                        String(row.receivers), String(row.replays), String(row.bound), row.found ? "yes" : "NO",
                        format(row.seconds, "%.3f"),
                    ]
                })
    }

    /// Left-aligned first column, right-aligned numbers, three spaces indent.
    static func columns(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        var out = ""
        for (index, row) in all.enumerated() {
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }
            out += "   " + cells.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
            if index == 0 {
                out += "   " + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
            }
        }
        return out
    }
}

func rounded(_ value: Double, _ places: Int) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
