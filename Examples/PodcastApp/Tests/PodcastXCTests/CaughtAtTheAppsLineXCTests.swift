import ObserverHarness
import ObserverHarnessTesting
import PodcastTestSupport
import XCTest

/// The same checks as `PodcastTests`, for suites still on XCTest: the base
/// class runs each test under a harness of its own, and the assertions report
/// through `XCTFail` when no Swift Testing test is running. (Test methods are
/// `async`: a synchronous `@MainActor` one crashes the Linux runner.)
final class CaughtAtTheAppsLineXCTests: ObserverHarnessTestCase {
    /// Any finding the test leaves unchecked fails it, notes included.
    override class var observerHarnessOptions: ObserverHarnessOptions { ObserverHarnessOptions(failingAt: .note) }

    // MARK: Lifetimes

    @MainActor func testCarPlayTemplateGetsAnEpisodeAfterItIsGone() async throws {
        try assertCaught(Wirings.notifyAfterDealloc)
    }
    @MainActor func testMiniPlayerRemovesItselfInDeinit() async { assertSilent(Wirings.notifyAfterDealloc) }

    /// The downloads' list declares `hold: .weak`: a meter dying in it is by design.
    @MainActor func testStorageMeterLeftInTheWeakDownloadListIsByDesign() async {
        assertSilent(Wirings.danglingRegistration, buggy: true)
    }
    @MainActor func testDownloadsScreenRemovesItselfOnClose() async { assertSilent(Wirings.danglingRegistration) }

    @MainActor func testPlayerObserverArrayKeepsTheClosedQueueScreen() async throws {
        try assertCaught(Wirings.strongObserverList)
    }
    @MainActor func testQueueScreenClosedBeforeReleaseIsFreed() async { assertSilent(Wirings.strongObserverList) }

    @MainActor func testStrongControlsDelegateKeepsTheClosedPlayerScreen() async throws {
        try assertCaught(Wirings.strongDelegate)
    }
    @MainActor func testPlayerScreenClearingItsControlsDelegateIsFreed() async { assertSilent(Wirings.strongDelegate) }

    @MainActor func testChartsBlockCapturingSelfKeepsTheClosedScreen() async throws {
        try assertCaught(Wirings.blockCapturingSelf)
    }
    @MainActor func testChartsClosedBeforeReleaseIsFreed() async { assertSilent(Wirings.blockCapturingSelf) }

    @MainActor func testTrendingBlockCapturingSelfWithItsTokenInASubscriptionKeepsTheScreen() async throws {
        try assertCaught(Wirings.blockCapturingSelfInAWrapper)
    }
    @MainActor func testFeedBlockCapturingWeakSelfIsFreed() async {
        assertSilent(Wirings.blockCapturingSelfInAWrapper)
    }

    @MainActor func testProgressRingObservesAFreedTask() async throws {
        try assertCaught(Wirings.observedObjectDeallocated)
    }
    @MainActor func testDownloadRowEndsItsObservationBeforeTheTaskGoes() async {
        assertSilent(Wirings.observedObjectDeallocated)
    }

    @MainActor func testProfileBadgeDropsItsToken() async throws { try assertCaught(Wirings.discardedToken) }
    @MainActor func testFeedKeepsItsTokens() async { assertSilent(Wirings.discardedToken) }

    @MainActor func testTopShowsWidgetDropsItsTypedMessageToken() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip("typed messages need macOS 26")
        }
        try assertCaught(Wirings.discardedTypedToken)
    }
    @MainActor func testShowRatingViewKeepsItsTypedMessageToken() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip("typed messages need macOS 26")
        }
        assertSilent(Wirings.discardedTypedToken)
    }

    @MainActor func testSleepTimerDropsItsPositionObservation() async throws {
        try assertCaught(Wirings.discardedPropertyObservation)
    }
    @MainActor func testScrubberKeepsItsPositionObservation() async {
        assertSilent(Wirings.discardedPropertyObservation)
    }

    // MARK: Registrations

    @MainActor func testDownloadBadgeRegistersOnEveryAppearance() async throws {
        try assertCaught(Wirings.duplicateObserver)
    }
    @MainActor func testTwoBadgesEachRegisteringOnceAreClean() async { assertSilent(Wirings.duplicateObserver) }

    @MainActor func testInboxRegistersABlockOnEveryAppearance() async throws {
        try assertCaught(Wirings.duplicateBlock)
    }
    @MainActor func testTwoInboxesEachRegisteringABlockOnceAreClean() async { assertSilent(Wirings.duplicateBlock) }

    @MainActor func testDownloadsScreenClosedBeforeLoadingRemovesNothing() async throws {
        try assertCaught(Wirings.unbalancedRemoval)
    }
    @MainActor func testDownloadsScreenClosedAfterLoadingRemovesOnce() async { assertSilent(Wirings.unbalancedRemoval) }

    // MARK: Deliveries

    @MainActor func testAutoDownloadRegistersTheNextRowWhileTheListDelivers() async throws {
        try assertCaught(Wirings.mutationDuringNotify)
    }
    @MainActor func testToastRemovingItsCenterTokenInItsHandlerIsClean() async {
        assertSilent(Wirings.mutationDuringNotify)
    }

    /// An endless re-post loop: cut by the harness, and this process survives.
    @MainActor func testSettingsSyncRepostingWhatItObservesIsCutAndReported() async throws {
        try assertCaught(Wirings.notificationCycle)
    }
    @MainActor func testSettingsSyncAnnouncingWithAnotherNameIsClean() async { assertSilent(Wirings.notificationCycle) }

    /// Reported at both registrations: the cache's, then the banner's.
    @MainActor func testWelcomeBannerDependsOnWhichSessionObserverRunsFirst() async throws {
        let banner = try XCTUnwrap(appSourceLine(containing: "// bug: ordering-dependence", in: "Session.swift"))
        let cache = try XCTUnwrap(
            appSourceLine(
                containing: "// bug: ordering-dependence (the other receiver)",
                in: "Session.swift"))
        let failures = capturingFailures { assertOrderIndependent(DeliveryOrderScenes.welcomeBannerAfterLogin) }
        XCTAssertEqual(failures.map(\.line), [cache, banner])
        XCTAssertTrue(failures.allSatisfy { $0.file.hasSuffix("Sources/Podcast/Session.swift") })
        XCTAssertEqual(failures.first?.description.contains(#"returns "Welcome back, ada""#), true)
    }
    @MainActor func testFeedWaitingForTheCacheIsOrderIndependent() async {
        assertOrderIndependent(DeliveryOrderScenes.feedTitleAfterLogin)
    }

    // MARK: Async loops

    @MainActor func testEpisodePageLoopCapturingSelfRunsOnAfterThePageIsClosed() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            throw XCTSkip("notification sequences need macOS 15")
        }
        let harness = podcastHarness()
        let loop = await ThemeLoopScenes.closeEpisodePage(in: harness)
        try assertReported(
            "async-observer-outlives-owner", at: "// bug: async-observer-outlives-owner",
            in: "Appearance.swift", by: harness)
        loop?.cancel()
        await loop?.value
    }

    @MainActor func testShowPageLoopEndsWithThePage() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            throw XCTSkip("notification sequences need macOS 15")
        }
        let harness = podcastHarness()
        let loop = await ThemeLoopScenes.closeShowPage(in: harness)
        XCTAssertEqual(loop?.isCancelled, true)
        assertFindings(harness, .none(atOrAbove: .note))
        assertNoLeaks(harness)
    }

    // MARK: Message sequences

    @MainActor func testSyncStatusListLosesConfirmationsPastItsBuffer() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip("typed messages need macOS 26")
        }
        let harness = podcastHarness()
        let synced = await RatingsSyncScenes.confirmSync(of: 5, in: harness)
        XCTAssertEqual(synced, ["show-4", "show-5"])
        try assertReported("message-dropped", at: "// bug: message-dropped", in: "Ratings.swift", by: harness)
    }

    @MainActor func testSyncStatusListKeepsUpWithASyncWithinItsBuffer() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip("typed messages need macOS 26")
        }
        let harness = podcastHarness()
        let synced = await RatingsSyncScenes.confirmSync(of: 2, in: harness)
        XCTAssertEqual(synced, ["show-1", "show-2"])
        assertFindings(harness, .none(atOrAbove: .note))
    }

    // MARK: Isolation

    @MainActor func testFooterSetUpOnTheMainActorRunsOnTheSessionsQueue() async throws {
        let harness = podcastHarness()
        let text = await BackgroundDownloadScenes.fileArrives(postedOnTheMainActor: false, in: harness)
        XCTAssertEqual(text, "Downloaded st-1")
        try assertReported(
            "delivery-off-isolation", at: "// bug: delivery-off-isolation", in: "Downloads.swift",
            by: harness)
    }

    @MainActor func testFooterHearsAFileAnnouncedOnTheMainActor() async {
        let harness = podcastHarness()
        let text = await BackgroundDownloadScenes.fileArrives(postedOnTheMainActor: true, in: harness)
        XCTAssertEqual(text, "Downloaded st-1")
        assertFindings(harness, .none(atOrAbove: .note))
    }

    // MARK: Observation tracking

    @MainActor func testChapterTitleObservesOnceAndMissesTheNextChapter() async throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else {
            throw XCTSkip("Observation needs macOS 14")
        }
        try assertCaught(Wirings.observationNotRearmed)
    }

    @MainActor func testChapterHighlightObservesAgainFromOnChange() async throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else {
            throw XCTSkip("Observation needs macOS 14")
        }
        assertSilent(Wirings.observationNotRearmed)
    }

    // MARK: Design

    @MainActor func testLegacySubscribeRowMakesBothListsSubscribe() async throws {
        try assertCaught(Wirings.broadcastAsCommand)
    }
    @MainActor func testSubscribeRowTellsOnlyItsScreen() async { assertSilent(Wirings.broadcastAsCommand) }

    @MainActor func testKeyboardRouterForwardsOneCallbackToTwoScreens() async throws {
        try assertCaught(Wirings.delegateAsBroadcast)
    }
    @MainActor func testFocusedKeyboardRouterForwardsToOneScreen() async { assertSilent(Wirings.delegateAsBroadcast) }

    @MainActor func testSuggestionsPanelTakesTheFieldFromTheLiveSearchScreen() async throws {
        try assertCaught(Wirings.delegateOverwritten)
    }
    @MainActor func testSearchScreenHandsTheFieldOverFirst() async { assertSilent(Wirings.delegateOverwritten) }

    @MainActor func testPullToRefreshOnlyEverReachesTheFeed() async throws {
        try assertCaught(Wirings.singleReceiverBroadcast)
    }
    @MainActor func testPullToRefreshReachingFeedAndInboxIsABroadcast() async {
        assertSilent(Wirings.singleReceiverBroadcast)
    }

    @MainActor func testPlaybackStartReachesNobody() async throws { try assertCaught(Wirings.unobservedPost) }
    @MainActor func testPlaybackStartReachesTheReporter() async { assertSilent(Wirings.unobservedPost) }

    @MainActor func testListeningStatsWaitForAMisspeltName() async throws { try assertCaught(Wirings.channelNameTypo) }
    @MainActor func testReporterUsesTheDeclaredName() async { assertSilent(Wirings.channelNameTypo) }

    @MainActor func testDownloadButtonFiltersByTheEpisodeID() async throws {
        try assertCaught(Wirings.valueObjectFilter)
    }
    @MainActor func testDownloadButtonFiltersByTheTask() async { assertSilent(Wirings.valueObjectFilter) }

    // MARK: Checking where the failures land

    /// The running test's harness, or one of its own when the base class is off.
    private func podcastHarness() -> Harness { harness ?? Harness(name: "podcast") }

    /// Runs `wiring`'s buggy version: the findings check fails exactly once,
    /// for its rule, at the app's marked line; a leak fails `assertNoLeaks`
    /// there too.
    @MainActor private func assertCaught(_ wiring: Wiring, file: StaticString = #filePath, line: UInt = #line) throws {
        let harness = podcastHarness()
        let alive = wiring.runBuggy(in: harness)
        defer { withExtendedLifetime(alive) {} }
        try assertReported(
            wiring.rule, at: wiring.markerComment, in: wiring.file, by: harness, leaks: wiring.leaks,
            file: file, line: line)
    }

    /// The findings check of `harness` fails exactly once, for `rule`, at the
    /// line of the app's `appFile` ending with `marker`.
    private func assertReported(
        _ rule: String, at marker: String, in appFile: String, by harness: Harness,
        leaks: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let expectedLine = try XCTUnwrap(
            appSourceLine(containing: marker, in: appFile),
            "exactly one line of \(appFile) ends with \(marker)", file: file, line: line)
        let findings = capturingFailures {
            assertFindings(harness, .none(atOrAbove: .note))
        }
        assertOneFailure(findings, at: expectedLine, in: appFile, containing: "[\(rule)]", file: file, line: line)
        if leaks {
            let leaks = capturingFailures { assertNoLeaks(harness) }
            assertOneFailure(leaks, at: expectedLine, in: appFile, containing: "Potential leak", file: file, line: line)
        }
    }

    /// Runs `wiring`'s clean near miss: nothing is reported, not even a note.
    @MainActor private func assertSilent(
        _ wiring: Wiring, buggy: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) {
        let harness = podcastHarness()
        let alive = buggy ? wiring.runBuggy(in: harness) : wiring.runClean(in: harness)
        let report = assertFindings(harness, .none(atOrAbove: .note), filePath: file, line: line)
        XCTAssertFalse(report.findings.contains { $0.rule == wiring.rule }, file: file, line: line)
        if wiring.leaks { assertNoLeaks(harness, filePath: file, line: line) }
        withExtendedLifetime(alive) {}
    }

    private func assertOneFailure(
        _ failures: [Failure], at expectedLine: Int, in appFile: String,
        containing text: String, file: StaticString, line: UInt
    ) {
        XCTAssertEqual(failures.count, 1, "\(failures.map(\.description))", file: file, line: line)
        XCTAssertEqual(
            failures.first?.file.hasSuffix("Sources/Podcast/\(appFile)"), true,
            "\(failures.first?.file ?? "no failure")", file: file, line: line)
        XCTAssertEqual(failures.first?.line, expectedLine, file: file, line: line)
        XCTAssertEqual(failures.first?.description.contains(text), true, file: file, line: line)
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
