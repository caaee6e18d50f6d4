// swift-tools-version:6.0
// Code written against the previous release's public API, kept as it was
// then: `.ci/upgrade-fixture.sh` compiles it against the sources of today, so
// breaking an adopter is a decision (CHANGELOG, this fixture updated), never
// an accident. CONTRIBUTING.md says how to move it on at a release.
import PackageDescription

let package = Package(
    name: "UpgradeFixture",
    platforms: [
        .macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .macCatalyst(.v13), .visionOS(.v1),
    ],
    dependencies: [
        .package(name: "ObserverHarness", path: "../..")
    ],
    targets: [
        // One target, only compiled: what app code, test helpers and a
        // forwarding center wrote against the three library products.
        .target(
            name: "UpgradeFixture",
            dependencies: [
                .product(name: "ObserverHarnessInterface", package: "ObserverHarness"),
                .product(name: "ObserverHarness", package: "ObserverHarness"),
                .product(name: "ObserverHarnessTesting", package: "ObserverHarness"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
