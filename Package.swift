// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ObserverHarness",
    // The floor is Swift concurrency's (`async`, actors, `#isolation`, task
    // locals), which every product uses. Anything newer is gated with
    // `@available` (the table in the documentation's "API availability"
    // article; `.ci/availability` checks the sources against it).
    platforms: [
        .macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .macCatalyst(.v13), .visionOS(.v1),
    ],
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
        // App code for the scope-boundary tests: it links only the interface, as an app does.
        .target(name: "ScopeJourneyApp", dependencies: ["ObserverHarnessInterface"], path: "Tests/ScopeJourneyApp"),
        // Report/Pictures holds the Markdown and HTML goldens, read from the source tree.
        .testTarget(
            name: "ObserverHarnessTests", dependencies: ["ObserverHarness", "ScopeJourneyApp"],
            exclude: ["Report/Pictures"]),
        .testTarget(
            name: "ObserverHarnessTestingTests",
            dependencies: ["ObserverHarness", "ObserverHarnessTesting", "ScopeJourneyApp"]),
        // Runs the real executable, so it depends on it to have it built;
        // Expected/ holds its whole outputs, read from the source tree.
        .testTarget(name: "HarnessCLITests", dependencies: ["harness-cli"], exclude: ["Expected"]),
    ],
    swiftLanguageModes: [.v6]
)
