// swift-tools-version:6.0
// A podcast app that adopts ObserverHarness from its own test suites, the way a
// team's app does: the app links only the interface product, the tests link the
// harness. Every rule that applies to live code is shown catching a wiring of
// this app at the app's own line, and staying silent on its clean near miss.
import PackageDescription

let package = Package(
    name: "PodcastApp",
    // ObserverHarness's own floor: the app's newer wirings (Observation,
    // typed messages) are gated with `@available`.
    platforms: [
        .macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .macCatalyst(.v13), .visionOS(.v1),
    ],
    dependencies: [
        .package(name: "ObserverHarness", path: "../..")
    ],
    targets: [
        // The app: sessions, a feed, downloads, a player, settings, search,
        // keyboard handling and a library of subscribed shows.
        .target(
            name: "Podcast",
            dependencies: [
                .product(name: "ObserverHarnessInterface", package: "ObserverHarness")
            ]),
        // Drives the app's screens inside a harness, once for both test
        // frameworks (as swift-collections keeps its test support in a target).
        .target(
            name: "PodcastTestSupport",
            dependencies: [
                "Podcast",
                .product(name: "ObserverHarness", package: "ObserverHarness"),
                .product(name: "ObserverHarnessTesting", package: "ObserverHarness"),
            ], path: "Tests/PodcastTestSupport"),
        .testTarget(
            name: "PodcastTests",
            dependencies: [
                "Podcast", "PodcastTestSupport",
                .product(name: "ObserverHarness", package: "ObserverHarness"),
                .product(name: "ObserverHarnessTesting", package: "ObserverHarness"),
            ]),
        .testTarget(
            name: "PodcastXCTests",
            dependencies: [
                "Podcast", "PodcastTestSupport",
                .product(name: "ObserverHarness", package: "ObserverHarness"),
                .product(name: "ObserverHarnessTesting", package: "ObserverHarness"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
