import Foundation
import ObserverHarness
import XCTest

@testable import ObserverHarnessTesting

/// The loop that outlives its screen, and its near misses, from XCTest: the
/// base class's harness, `settle()`, then the end-of-test check.
@MainActor final class ThemeScreenXCTests: ObserverHarnessTestCase {
    /// A loop a test shows leaking runs until the end-of-test check, then stops.
    nonisolated override func invokeTest() {
        HarnessedTest.$finished.withValue({ $0.cancelHeldTasks() }, operation: { super.invokeTest() })
    }

    func testNoOwnerArgumentReportsTheLoop() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            throw XCTSkip("async notification sequences need macOS 15")
        }
        expectFindings(["async-observer-outlives-owner"])
        let harness = try XCTUnwrap(harness)
        var screen: ThemeScreen? = ThemeScreen()
        harness.track(screen!, label: "theme screen")
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        let settled = await harness.settle(maxTurns: 1_000)
        XCTAssertFalse(settled, "the loop never ends")
    }

    func testNoOwnerArgumentWithAssertFindingsReportsTheLoopAtItsLine() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            throw XCTSkip("async notification sequences need macOS 15")
        }
        let harness = try XCTUnwrap(harness)
        var screen: ThemeScreen? = ThemeScreen()
        harness.track(screen!, label: "theme screen")
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        await harness.settle(maxTurns: 1_000)

        let report = assertFindings(harness, .exactly(["async-observer-outlives-owner"]))
        XCTAssertEqual(report.findings.first { $0.rule == "async-observer-outlives-owner" }?.site?.line, 20)
    }

    func testAnOwnerArgumentWithOneYieldBeforeTheReleaseReportsTheLoop() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            throw XCTSkip("async notification sequences need macOS 15")
        }
        expectFindings(["async-observer-outlives-owner"])
        let harness = try XCTUnwrap(harness)
        var screen: OwnedThemeScreen? = OwnedThemeScreen()
        harness.track(screen!, label: "theme screen")
        await Task.yield()
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        await harness.settle(maxTurns: 1_000)
    }

    func testAnOwnerArgumentSettledBeforeTheReleaseReportsTheLoop() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            throw XCTSkip("async notification sequences need macOS 15")
        }
        expectFindings(["async-observer-outlives-owner"])
        let harness = try XCTUnwrap(harness)
        var screen: OwnedThemeScreen? = OwnedThemeScreen()
        harness.track(screen!, label: "theme screen")
        await harness.settle()
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        await harness.settle(maxTurns: 1_000)
    }

    func testALoopCancelledInDeinitIsClean() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            throw XCTSkip("async notification sequences need macOS 15")
        }
        let harness = try XCTUnwrap(harness)
        var screen: FixedThemeScreen? = FixedThemeScreen()
        harness.track(screen!, label: "theme screen")
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        let settled = await harness.settle()
        XCTAssertTrue(settled)
    }

    func testAWeakSelfLoopThatBreaksOnceTheScreenIsGoneIsClean() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            throw XCTSkip("async notification sequences need macOS 15")
        }
        let harness = try XCTUnwrap(harness)
        var screen: SelfEndingThemeScreen? = SelfEndingThemeScreen()
        harness.track(screen!, label: "theme screen")
        await harness.settle()
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        let settled = await harness.settle()
        XCTAssertTrue(settled)
    }

    func testALongLivedServicesLoopIsClean() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            throw XCTSkip("async notification sequences need macOS 15")
        }
        let harness = try XCTUnwrap(harness)
        let service = ThemeSettingsService()
        harness.track(service, label: "theme service")
        Observers.center.post(name: .themeChanged, object: nil)
        let settled = await harness.settle()
        XCTAssertTrue(settled)
        service.task?.cancel()
    }
}
