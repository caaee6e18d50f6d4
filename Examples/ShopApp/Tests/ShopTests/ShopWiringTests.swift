import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Shop
import Testing

/// Two lists on one screen that both show the same product, as in the article.
private let phone = Product(id: "phone", name: "Phone")
private let phoneCase = Product(id: "case", name: "Case")

/// The app code knows nothing of the harness, and neither do most tests: the
/// `.observerHarness` trait runs each test in a fresh harness's scope, which
/// puts its registries behind `Observers.center` and every `DelegateSlot` the
/// app makes, and fails the test on its findings at the app's line. The tests
/// run in parallel and never see each other's events.
@MainActor
@Suite(.observerHarness)
struct CleanWiring {
    @Test func oneTapAddsTheProductOnceAndNothingIsReported() {
        let harness = Harness.current
        let cart = Cart { harness?.noteAction(.append("cart.items", value: $0.id)) }
        let bestSellers = ProductListScreen(title: "Best sellers", products: [phone, phoneCase], cart: cart)
        let recommended = ProductListScreen(title: "Recommended", products: [phone], cart: cart)
        bestSellers.cells[0].tapAddToCart()
        Observers.center.post(name: .productDidUpdate, object: nil)

        #expect(cart.items == ["phone"])
        #expect(bestSellers.reloads == 1 && recommended.reloads == 1)
    }

    @Test func closedScreensAreFreedWithTheirCells() throws {
        let harness = try #require(Harness.current)
        var screen: ProductListScreen? = ProductListScreen(title: "Best sellers", products: [phone], cart: Cart())
        harness.noteReleased(screen!)
        harness.noteReleased(screen!.cells[0])
        screen = nil
        Observers.center.post(name: .productDidUpdate, object: nil)

        assertNoLeaks(harness)
    }

    /// A test can inject the harness's center instead of relying on the scope.
    @Test func productUpdatesReachEveryScreenThroughAnInjectedCenter() throws {
        let center = try #require(Harness.current).notificationCenter()
        let screens = [
            ProductListScreen(title: "Best sellers", products: [phone], cart: Cart(), center: center),
            ProductListScreen(title: "Recommended", products: [phone], cart: Cart(), center: center),
        ]
        center.post(name: .productDidUpdate, object: nil)

        #expect(screens.map(\.reloads) == [1, 1])
    }
}

@MainActor
@Suite(.observerHarness)
struct LegacyWiring {
    /// A test can state the bug it demonstrates: this wiring must report
    /// exactly one broadcast-as-command, and the cart shows the damage.
    @Test(.observerHarness(expecting: ["broadcast-as-command"]))
    func oneTapAddsThePhoneTwiceAndTheHarnessSaysWhy() {
        let harness = Harness.current
        let cart = Cart { harness?.noteAction(.append("cart.items", value: $0.id)) }
        twoLists(cart: cart).bestSellers.cells[0].tapAddToCart()

        #expect(cart.items == ["phone", "phone"])
    }

    /// Without that expectation the test fails once, at the cell's post line
    /// in the app's source, with the fix. Checked here inside
    /// `withKnownIssue`, so the trait leaves the check to the test.
    @Test func theFailurePointsAtThePostInTheCell() throws {
        let harness = try #require(Harness.current)
        let cart = Cart { harness.noteAction(.append("cart.items", value: $0.id)) }
        let lists = twoLists(cart: cart)
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
    /// names the delegate slot and points at the line that set it, and the
    /// findings report the same leak, expected here.
    @Test(.observerHarness(expecting: ["registration-keeps-observer-alive"]))
    func aClosedScreenLeaksThroughItsCellsStrongDelegate() throws {
        let harness = try #require(Harness.current)
        var list: LegacyProductList? = LegacyProductList(title: "Best sellers", products: [phone], cart: Cart())
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
