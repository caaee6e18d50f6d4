import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Shop
import XCTest

/// The same checks as `ShopTests`, for suites still on XCTest: the base class
/// runs each test in a fresh harness's scope and fails it on its findings.
final class ShopWiringXCTests: ObserverHarnessTestCase {
    private let phone = Product(id: "phone", name: "Phone")

    @MainActor func testCleanWiringAddsOnceAndReportsNothing() async throws {
        let harness = try XCTUnwrap(Harness.current)
        let cart = Cart { harness.noteAction(.append("cart.items", value: $0.id)) }
        let lists = [
            ProductListScreen(title: "Best sellers", products: [phone], cart: cart),
            ProductListScreen(title: "Recommended", products: [phone], cart: cart),
        ]
        lists[0].cells[0].tapAddToCart()

        XCTAssertEqual(cart.items, ["phone"])
        assertNoLeaks(harness)
    }

    @MainActor func testLegacyWiringFailsAtThePostLine() async throws {
        let (harness, cart, lists) = try legacyShop()
        lists[0].cells[0].tapAddToCart()
        XCTAssertEqual(cart.items, ["phone", "phone"])

        let failures = capturingFailures { assertFindings(harness, .none()) }

        XCTAssertEqual(failures.count, 1)
        let expectedLine = try appSourceLine(containing: "// bug: broadcast-as-command", in: "LegacyProductList.swift")
        XCTAssertEqual(failures.first?.file.hasSuffix("Sources/Shop/LegacyProductList.swift"), true)
        XCTAssertEqual(failures.first?.line, expectedLine)
        XCTAssertEqual(failures.first?.description.contains("broadcast-as-command"), true)
    }

    @MainActor func testExpectedFindingPassesOnTheLegacyWiring() async throws {
        expectFindings(["broadcast-as-command"])
        let (_, _, lists) = try legacyShop()
        lists[1].cells[0].tapAddToCart()
    }

    /// Two legacy lists showing the same phone, and the cart they both add to.
    @MainActor private func legacyShop() throws -> (Harness, Cart, [LegacyProductList]) {
        let harness = try XCTUnwrap(Harness.current)
        let cart = Cart { harness.noteAction(.append("cart.items", value: $0.id)) }
        let lists = ["Best sellers", "Recommended"].map {
            LegacyProductList(title: $0, products: [phone], cart: cart)
        }
        return (harness, cart, lists)
    }

    // MARK: Capturing the failures a block records instead of failing the test

    private struct Failure {
        let description: String
        let file: String
        let line: Int
    }

    private var captured: [Failure]?

    private func capturingFailures(_ body: () -> Void) -> [Failure] {
        captured = []
        body()
        defer { captured = nil }
        return captured ?? []
    }

    #if canImport(Darwin)
        override func record(_ issue: XCTIssue) {
            guard captured != nil else { return super.record(issue) }
            captured?.append(
                Failure(
                    description: issue.compactDescription,
                    file: issue.sourceCodeContext.location?.fileURL.path ?? "",
                    line: issue.sourceCodeContext.location?.lineNumber ?? 0))
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
            expected: Bool
        ) {
            guard captured != nil else {
                return super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber,
                    expected: expected)
            }
            captured?.append(Failure(description: description, file: filePath, line: lineNumber))
        }
    #endif
}

/// The 1-based line of the app source file that contains `marker`.
private func appSourceLine(containing marker: String, in file: String, testFile: String = #filePath) throws -> Int {
    let source = URL(fileURLWithPath: testFile).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Shop/\(file)")
    let lines = try String(contentsOf: source, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    return try XCTUnwrap(lines.firstIndex { $0.contains(marker) }) + 1
}
