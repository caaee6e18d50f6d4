import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Shop
import Testing

/// Two lists on one screen that both show the same product, as in the article.
private let phone = Product(id: "phone", name: "Phone")
private let phoneCase = Product(id: "case", name: "Case")

/// The app code knows nothing of the harness: each test runs it inside
/// `withObserverHarness`, which puts the harness's registries behind
/// `Observers.center` and every `DelegateSlot` the app makes. The tests run in
/// parallel and never see each other's events.
@MainActor
struct CleanWiring {
    let harness = Harness(name: "shop")

    @Test func oneTapAddsTheProductOnceAndNothingIsReported() {
        let cart = Cart { harness.noteAction(.append("cart.items", value: $0.id)) }
        let (bestSellers, recommended) = withObserverHarness(harness) {
            let lists = (
                ProductListScreen(title: "Best sellers", products: [phone, phoneCase], cart: cart),
                ProductListScreen(title: "Recommended", products: [phone], cart: cart)
            )
            lists.0.cells[0].tapAddToCart()
            Observers.center.post(name: .productDidUpdate, object: nil)
            return lists
        }

        #expect(cart.items == ["phone"])
        #expect(bestSellers.reloads == 1 && recommended.reloads == 1)
        assertFindings(harness, .none())
    }

    @Test func closedScreensAreFreedWithTheirCells() {
        withObserverHarness(harness) {
            var screen: ProductListScreen? = ProductListScreen(title: "Best sellers", products: [phone], cart: Cart())
            harness.noteReleased(screen!)
            harness.noteReleased(screen!.cells[0])
            screen = nil
            Observers.center.post(name: .productDidUpdate, object: nil)
        }

        assertNoLeaks(harness)
        assertFindings(harness, .none())
    }

    /// Without the scope, a test can inject the harness's center instead.
    @Test func productUpdatesReachEveryScreenThroughAnInjectedCenter() {
        let center = harness.notificationCenter()
        let screens = [
            ProductListScreen(title: "Best sellers", products: [phone], cart: Cart(), center: center),
            ProductListScreen(title: "Recommended", products: [phone], cart: Cart(), center: center),
        ]
        center.post(name: .productDidUpdate, object: nil)

        #expect(screens.map(\.reloads) == [1, 1])
        assertFindings(harness, .none())
    }
}

@MainActor
struct LegacyWiring {
    let harness = Harness(name: "shop")

    /// A test can state the bug it expects: this wiring must report exactly one
    /// broadcast-as-command, and the cart shows the damage.
    @Test func oneTapAddsThePhoneTwiceAndTheHarnessSaysWhy() {
        let cart = Cart { harness.noteAction(.append("cart.items", value: $0.id)) }
        withObserverHarness(harness) {
            twoLists(cart: cart).bestSellers.cells[0].tapAddToCart()
        }

        #expect(cart.items == ["phone", "phone"])
        assertFindings(harness, .exactly(["broadcast-as-command"]))
    }

    /// Without that expectation the assertion fails once, at the cell's post
    /// line in the app's source, with the fix.
    @Test func theFailurePointsAtThePostInTheCell() throws {
        let cart = Cart { harness.noteAction(.append("cart.items", value: $0.id)) }
        withObserverHarness(harness) {
            twoLists(cart: cart).bestSellers.cells[0].tapAddToCart()
        }

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
        withObserverHarness(harness) {
            var list: LegacyProductList? = LegacyProductList(title: "Best sellers", products: [phone], cart: Cart())
            harness.noteReleased(list!)
            list = nil
        }

        let setLine = try appSourceLine(containing: "// bug: strong delegate", in: "LegacyProductList.swift")
        withKnownIssue {
            assertNoLeaks(harness)
        } matching: { issue in
            issue.sourceLocation?.fileName == "LegacyProductList.swift" && issue.sourceLocation?.line == setLine
                && String(describing: issue).contains("Potential leak")
        }
    }

    private func twoLists(cart: Cart) -> (bestSellers: LegacyProductList, recommended: LegacyProductList) {
        (
            LegacyProductList(title: "Best sellers", products: [phone, phoneCase], cart: cart),
            LegacyProductList(title: "Recommended", products: [phone], cart: cart)
        )
    }
}

/// The app's production target links only the interface product.
@Test func theAppImportsOnlyTheInterface() throws {
    let sources = appSourcesFolder()
    for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) where file.hasSuffix(".swift") {
        let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
        let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }
        #expect(
            imports.allSatisfy { $0 == "import Foundation" || $0 == "import ObserverHarnessInterface" },
            "\(file) imports \(imports)")
        #expect(
            !text.replacingOccurrences(of: "ObserverHarnessInterface", with: "").contains("Harness"),
            "\(file) names the harness")
    }
}

private func appSourcesFolder(testFile: String = #filePath) -> URL {
    URL(fileURLWithPath: testFile).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Shop")
}

/// The 1-based line of the app source file that contains `marker`, so the
/// expected failure line follows the code when it is edited.
func appSourceLine(containing marker: String, in file: String) throws -> Int {
    let source = appSourcesFolder().appendingPathComponent(file)
    let lines = try String(contentsOf: source, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    return try #require(lines.firstIndex { $0.contains(marker) }) + 1
}
