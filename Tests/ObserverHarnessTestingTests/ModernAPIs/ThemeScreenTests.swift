import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Testing

/// The article's suites: the tasks a test shows leaking stop once it is checked.
@Suite(.cancellingTrackedTasks) enum ModernAPIsArticle {}

extension ModernAPIsArticle {
    // article: theme-screen-test
    @Suite(.observerHarness) @MainActor struct ThemeScreenTests {
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test(.observerHarness(expecting: ["async-observer-outlives-owner"]))
        func closingTheScreenEndsItsThemeLoop() {
            let harness = Harness.current!
            var screen: ThemeScreen? = ThemeScreen()
            harness.track(screen!, label: "theme screen")
            harness.noteReleased(screen!)
            screen = nil
            Observers.center.post(name: .themeChanged, object: nil)
        }
    }
    // end
}

/// The ways a team writes the test for a loop that outlives its screen, and
/// the near misses, under the suite trait. A leaking loop's task is left
/// running: cancelling it before the test ends would hide what the test shows.
@Suite(.cancellingTrackedTasks, .observerHarness) @MainActor struct LoopOwnerTraitTests {
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test(.observerHarness(expecting: ["async-observer-outlives-owner"]))
    func noOwnerArgumentAndAPlainSettleReportsTheLoop() async {
        let harness = Harness.current!
        var screen: ThemeScreen? = ThemeScreen()
        harness.track(screen!, label: "theme screen")
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        await harness.settle(maxTurns: 1_000)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func noOwnerArgumentAndAssertFindingsReportsTheLoopAtItsLine() async throws {
        let harness = Harness.current!
        var screen: ThemeScreen? = ThemeScreen()
        harness.track(screen!, label: "theme screen")
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        await harness.settle(maxTurns: 1_000)

        let report = assertFindings(harness, .exactly(["async-observer-outlives-owner"]))
        let finding = try #require(report.findings.first { $0.rule == "async-observer-outlives-owner" })
        #expect(finding.site?.file.hasSuffix("ThemeScreens.swift") == true)
        #expect(finding.site?.line == 20)
        #expect(finding.objects.first == "theme screen")
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test(.observerHarness(expecting: ["async-observer-outlives-owner"]))
    func anOwnerArgumentWithOneYieldBeforeTheReleaseReportsTheLoop() async {
        let harness = Harness.current!
        var screen: OwnedThemeScreen? = OwnedThemeScreen()
        harness.track(screen!, label: "theme screen")
        await Task.yield()
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        await harness.settle(maxTurns: 1_000)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test(.observerHarness(expecting: ["async-observer-outlives-owner"]))
    func anOwnerArgumentSettledBeforeTheReleaseReportsTheLoop() async {
        let harness = Harness.current!
        var screen: OwnedThemeScreen? = OwnedThemeScreen()
        harness.track(screen!, label: "theme screen")
        await harness.settle()
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        await harness.settle(maxTurns: 1_000)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func aLoopCancelledInDeinitIsClean() async {
        let harness = Harness.current!
        var screen: FixedThemeScreen? = FixedThemeScreen()
        harness.track(screen!, label: "theme screen")
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        #expect(await harness.settle())
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func aWeakSelfLoopThatBreaksOnceTheScreenIsGoneIsClean() async {
        let harness = Harness.current!
        var screen: SelfEndingThemeScreen? = SelfEndingThemeScreen()
        harness.track(screen!, label: "theme screen")
        #expect(await harness.settle(), "the screen's loop listens")
        harness.noteReleased(screen!)
        screen = nil
        Observers.center.post(name: .themeChanged, object: nil)
        #expect(await harness.settle())
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func aLongLivedServicesLoopIsClean() async {
        let harness = Harness.current!
        let service = ThemeSettingsService()
        harness.track(service, label: "theme service")
        Observers.center.post(name: .themeChanged, object: nil)
        #expect(await harness.settle())
        service.task?.cancel()
    }
}
