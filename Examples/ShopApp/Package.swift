// swift-tools-version:6.0
// An app-shaped package that uses ObserverHarness from the outside, the way a
// user's package does: by path here, by URL in a real project.
import PackageDescription

let package = Package(
    name: "ShopApp",
    // ObserverHarness's floor, Swift concurrency's: the app uses nothing newer.
    platforms: [
        .macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .macCatalyst(.v13), .visionOS(.v1),
    ],
    dependencies: [
        .package(name: "ObserverHarness", path: "../..")
    ],
    targets: [
        // The app: product list, cells with a delegate, a cart. It links only
        // the interface product, never the analyzer.
        .target(name: "Shop", dependencies: [.product(name: "ObserverHarnessInterface", package: "ObserverHarness")]),
        // The same checks written twice, once per test framework. Only tests
        // link the harness.
        .testTarget(
            name: "ShopTests",
            dependencies: [
                "Shop",
                .product(name: "ObserverHarness", package: "ObserverHarness"),
                .product(name: "ObserverHarnessTesting", package: "ObserverHarness"),
            ]),
        .testTarget(
            name: "ShopXCTests",
            dependencies: [
                "Shop",
                .product(name: "ObserverHarness", package: "ObserverHarness"),
                .product(name: "ObserverHarnessTesting", package: "ObserverHarness"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
