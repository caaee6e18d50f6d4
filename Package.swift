// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ObserverHarness",
    products: [
        // What app code imports: the registry protocols and their plain
        // implementations, with no recording or analysis, so the app never
        // ships the analyzer.
        .library(name: "ObserverHarnessInterface", targets: ["ObserverHarnessInterface"]),
        .library(name: "ObserverHarness", targets: ["ObserverHarness"]),
        // Test-framework glue lives in its own product so apps can link the core
        // library without XCTest (swift-log ships its test doubles the same way).
        .library(name: "ObserverHarnessTesting", targets: ["ObserverHarnessTesting"]),
        .executable(name: "harness-cli", targets: ["harness-cli"]),
        .executable(name: "harness-bench", targets: ["harness-bench"]),
    ],
    targets: [
        .target(name: "ObserverHarnessInterface"),
        .target(name: "ObserverHarness", dependencies: ["ObserverHarnessInterface"]),
        .target(name: "ObserverHarnessTesting", dependencies: ["ObserverHarness"]),
        .executableTarget(name: "harness-cli", dependencies: ["ObserverHarness"]),
        // Performance benchmark (BENCHMARKS.md); CI runs it with --quick.
        .executableTarget(name: "harness-bench", dependencies: ["ObserverHarness"]),
        .testTarget(name: "ObserverHarnessInterfaceTests", dependencies: ["ObserverHarnessInterface"]),
        // Report/Pictures holds the Markdown and HTML goldens, read from the source tree.
        .testTarget(name: "ObserverHarnessTests", dependencies: ["ObserverHarness"], exclude: ["Report/Pictures"]),
        .testTarget(name: "ObserverHarnessTestingTests", dependencies: ["ObserverHarness", "ObserverHarnessTesting"]),
        // Runs the real executable, so it depends on it to have it built;
        // Expected/ holds its whole outputs, read from the source tree.
        .testTarget(name: "HarnessCLITests", dependencies: ["harness-cli"], exclude: ["Expected"]),
    ],
    swiftLanguageModes: [.v6]
)
