import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Shop
import Testing

/// Two lists on one screen that both show the same product, as in the article.
private let phone = Product(id: "phone", name: "Phone")
private let case_ = Product(id: "case", name: "Case")

@MainActor
struct CleanWiring {
    let harness = Harness(name: "shop")

    @Test func oneTapAddsTheProductOnceAndNothingIsReported() {
        let center = harness.notificationCenter()
        let cart = Cart { harness.noteAction(.append("cart.items", value: $0.id)) }
        let bestSellers = ProductListScreen(title: "Best sellers", products: [phone, case_], cart: cart,
                                            center: center, harness: harness)
        let recommended = ProductListScreen(title: "Recommended", products: [phone], cart: cart,
                                            center: center, harness: harness)

        bestSellers.cells[0].tapAddToCart()
        center.post(name: .productDidUpdate, object: nil)

        #expect(cart.items == ["phone"])
        #expect(bestSellers.reloads == 1 && recommended.reloads == 1)
        assertFindings(harness, .none())
    }

    @Test func closedScreensAreFreedWithTheirCells() {
        let center = harness.notificationCenter()
        var screen: ProductListScreen? = ProductListScreen(title: "Best sellers", products: [phone], cart: Cart(),
                                                           center: center, harness: harness)
        harness.noteReleased(screen!)
        harness.noteReleased(screen!.cells[0])
        screen = nil
        center.post(name: .productDidUpdate, object: nil)

        assertNoLeaks(harness)
        assertFindings(harness, .none())
    }
}

@MainActor
struct LegacyWiring {
    let harness = Harness(name: "shop")

    /// A test can state the bug it expects: this wiring must report exactly one
    /// broadcast-as-command, and the cart shows the damage.
    @Test func oneTapAddsThePhoneTwiceAndTheHarnessSaysWhy() {
        let center = harness.notificationCenter()
        let cart = Cart { harness.noteAction(.append("cart.items", value: $0.id)) }
        let lists = twoLists(center: center, cart: cart)

        lists.bestSellers.cells[0].tapAddToCart()

        #expect(cart.items == ["phone", "phone"])
        assertFindings(harness, .exactly(["broadcast-as-command"]))
    }

    /// Without that expectation the assertion fails once, at the cell's post
    /// line in the app's source, with the fix.
    @Test func theFailurePointsAtThePostInTheCell() throws {
        let center = harness.notificationCenter()
        let cart = Cart { harness.noteAction(.append("cart.items", value: $0.id)) }
        let lists = twoLists(center: center, cart: cart)
        lists.bestSellers.cells[0].tapAddToCart()

        let postLine = try appSourceLine(containing: "// bug: broadcast-as-command", in: "LegacyProductList.swift")
        // Any failure that is not this one fails the test; so does its absence.
        withKnownIssue {
            assertFindings(harness, .none())
        } matching: { issue in
            let text = String(describing: issue)
            return issue.sourceLocation?.fileName == "LegacyProductList.swift" && issue.sourceLocation?.line == postLine
                && text.contains("[broadcast-as-command]") && text.contains("fix:")
        }
    }

    /// The strong cell delegate keeps a closed screen alive; the leak check
    /// names the delegate slot and points at the line that set it.
    @Test func aClosedScreenLeaksThroughItsCellsStrongDelegate() throws {
        let center = harness.notificationCenter()
        var list: LegacyProductList? = LegacyProductList(title: "Best sellers", products: [phone], cart: Cart(),
                                                         center: center, harness: harness)
        harness.noteReleased(list!)
        list = nil

        let setLine = try appSourceLine(containing: "// bug: strong delegate", in: "LegacyProductList.swift")
        withKnownIssue {
            assertNoLeaks(harness)
        } matching: { issue in
            issue.sourceLocation?.fileName == "LegacyProductList.swift" && issue.sourceLocation?.line == setLine
                && String(describing: issue).contains("Potential leak")
        }
    }

    private func twoLists(center: any NotificationCenterProtocol, cart: Cart)
        -> (bestSellers: LegacyProductList, recommended: LegacyProductList) {
        (LegacyProductList(title: "Best sellers", products: [phone, case_], cart: cart, center: center,
                           harness: harness),
         LegacyProductList(title: "Recommended", products: [phone], cart: cart, center: center, harness: harness))
    }
}

/// The 1-based line of the app source file that contains `marker`, so the
/// expected failure line follows the code when it is edited.
func appSourceLine(containing marker: String, in file: String, testFile: String = #filePath) throws -> Int {
    let sources = URL(fileURLWithPath: testFile).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Shop/\(file)")
    let lines = try String(contentsOf: sources, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    return try #require(lines.firstIndex { $0.contains(marker) }) + 1
}
