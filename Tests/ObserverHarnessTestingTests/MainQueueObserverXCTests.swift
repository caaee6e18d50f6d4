import Foundation
import ObserverHarness
import ObserverHarnessTesting
import XCTest

private let themeChanged = Notification.Name("ThemeChanged")

/// A post on the main thread to a `queue: .main` block, from XCTest: the
/// block runs in place (as on Darwin), so the test finishes.
final class MainQueueObserverXCTests: XCTestCase {
    private final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    func testAPostOnTheMainThreadRunsAMainQueueBlockInPlace() {
        let harness = Harness()
        let center = harness.notificationCenter()
        let count = Count()
        let token = center.addObserver(forName: themeChanged, object: nil, queue: .main) { _ in count.increment() }
        center.post(name: themeChanged, object: nil)
        XCTAssertEqual(count.value, 1)
        center.removeObserver(token)
        assertFindings(harness, .none())
    }

    @MainActor func testAMainActorPostToAMainQueueBlockFinishesEitherWay() async {
        for posts in [Harness.PostThread.caller, .background] {
            let harness = Harness(posts: posts)
            let center = harness.notificationCenter()
            let count = Count()
            let token = center.addObserver(forName: themeChanged, object: nil, queue: .main) { _ in
                count.increment()
            }
            center.post(name: themeChanged, object: nil)
            await harness.settle()
            center.removeObserver(token)
            XCTAssertEqual(count.value, 1, "\(posts)")
            assertFindings(harness, .none())
        }
    }

    @MainActor func testAMainActorPostThroughTheScopedCenterFinishesEitherWay() async {
        for posts in [Harness.PostThread.caller, .background] {
            let harness = Harness(posts: posts)
            let count = Count()
            let token = withObserverHarness(harness) {
                let token = Observers.center.addObserver(forName: themeChanged, object: nil, queue: .main) { _ in
                    count.increment()
                }
                Observers.center.post(name: themeChanged, object: nil)
                return token
            }
            await harness.settle()
            withObserverHarness(harness) { Observers.center.removeObserver(token) }
            XCTAssertEqual(count.value, 1, "\(posts)")
            assertFindings(harness, .none())
        }
    }
}
