import Foundation
import ObserverHarness
import ObserverHarnessTesting
import ScopeJourneyApp
import XCTest

/// The scope-boundary journeys from an XCTest suite, which runs one test at a
/// time (with `--parallel`, each worker is a process of its own, so each is
/// still a serial run): work that leaves the test's task is heard as on
/// Foundation's default center, and recorded in the running test.
final class ScopeBoundaryXCTests: XCTestCase {
    func testAPostMadeAfterEveryHopIsHeardAsInProduction() async {
        for hop in Hop.allCases {
            let production = ScanResultsScreen(center: NotificationCenter.default)
            await hop.post(through: NotificationCenter.default)
            XCTAssertEqual(production.reloads.value, 1, "\(hop) on Foundation's center")
            production.stopObserving()

            let harness = Harness()
            let screen = await withObserverHarness(harness) {
                let screen = ScanResultsScreen()
                await hop.post()
                screen.stopObserving()
                return screen
            }
            XCTAssertEqual(screen.reloads.value, 1, "\(hop) under the harness")
            XCTAssertEqual(harness.analyze().findings.map(\.rule), [], "\(hop)")
        }
    }

    func testASharedManagerPostsIntoTheRunningTest() {
        let productionManager = ScanManager(center: NotificationCenter.default)
        let production = ScanResultsScreen(center: NotificationCenter.default)
        productionManager.finishScan()
        XCTAssertEqual(production.reloads.value, 1)
        production.stopObserving()

        let manager = withObserverHarness(Harness()) { ScanManager() }  // kept from an earlier test
        let harness = Harness()
        withObserverHarness(harness) {
            let screen = ScanResultsScreen()
            manager.finishScan()
            XCTAssertEqual(screen.reloads.value, 1, "heard, as in production")
            screen.stopObserving()
        }
        assertFindings(harness, .none())
    }

    func testARegistrationFromAnEarlierTestHearsThisOne() {
        let earlier = Harness()
        let service = withObserverHarness(earlier) {
            let service = ThemeService()
            service.start()
            return service
        }
        let harness = Harness()
        withObserverHarness(harness) { Observers.center.post(name: .journeyThemeChanged, object: nil) }
        XCTAssertEqual(service.changes.value, 1, "heard, as on the default center")
    }

    func testAScreenRegisteredFromABackgroundQueueRemovesItselfCleanly() {
        let harness = Harness()
        withObserverHarness(harness) {
            let screen = ScanResultsScreen(registeringFromBackgroundOn: Observers.center)
            Observers.center.post(name: .scanFinished, object: nil)
            XCTAssertEqual(screen.reloads.value, 1)
            screen.stopObserving()
        }
        assertFindings(harness, .none())
    }

    func testAForAwaitLoopInADetachedTaskHearsThePost() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            throw XCTSkip("async notification sequences need macOS 15")
        }
        let harness = Harness()
        let listener = DetachedListener()
        await withObserverHarness(harness) {
            await listener.start()
            Observers.center.post(name: .scanFinished, object: nil)
        }
        await listener.nextDelivery()
        listener.stop()
    }
}
