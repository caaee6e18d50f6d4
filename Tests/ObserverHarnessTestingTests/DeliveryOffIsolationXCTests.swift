import Foundation
import ObserverHarness
import ObserverHarnessTesting
import XCTest

private let cartChanged = Notification.Name("CartChanged")

/// `delivery-off-isolation` from an XCTest suite: the assertions report
/// through `XCTFail` when no Swift Testing test is running.
final class DeliveryOffIsolationXCTests: XCTestCase {
    @MainActor func testABackgroundPostToAMainActorObserverIsReported() async {
        let harness = Harness()
        let center = harness.notificationCenter()
        let token = center.addObserver(forName: cartChanged, object: nil, queue: nil) { _ in
            harness.noteAction(.increment("badge.count"))
        }
        await Task.detached { center.post(name: cartChanged, object: nil) }.value
        center.removeObserver(token)

        assertFindings(harness, .exactly(["delivery-off-isolation"]))
        let finding = harness.analyze().findings.first { $0.rule == "delivery-off-isolation" }
        XCTAssertEqual(finding?.message.contains("set up on the main actor"), true, finding?.message ?? "no finding")
    }

    @MainActor func testAMainActorObserverPostedToOnTheMainActorIsClean() async {
        let harness = Harness()
        let center = harness.notificationCenter()
        let token = center.addObserver(forName: cartChanged, object: nil, queue: nil) { _ in }
        await Task { @MainActor in center.post(name: cartChanged, object: nil) }.value
        center.removeObserver(token)

        assertFindings(harness, .none())
    }
}
