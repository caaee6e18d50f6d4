import ObserverHarness
import ObserverHarnessTesting
import PodcastTestSupport
import Testing

/// The running test's harness: the one the `.observerHarness` trait made for
/// it (failing on any finding, notes included, that the test leaves
/// unchecked), or a harness of its own outside the trait.
func podcastHarness() -> Harness { Harness.current ?? Harness(name: "podcast") }

/// Runs `wiring`'s buggy version and expects its rule to fail the findings
/// check at the app's marked line — the only failure there — and, for a
/// leak, `assertNoLeaks` at the same line.
@MainActor
func expectCaught(_ wiring: Wiring, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let harness = podcastHarness()
    let alive = wiring.runBuggy(in: harness)
    try expectReported(
        wiring.rule, at: wiring.markerComment, in: wiring.file, by: harness, leaks: wiring.leaks,
        sourceLocation: sourceLocation)
    withExtendedLifetime(alive) {}
}

/// Expects `rule` to fail the findings check of `harness` at the line of the
/// app's `file` ending with `marker`, and nothing else to fail.
func expectReported(
    _ rule: String, at marker: String, in file: String, by harness: Harness, leaks: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let line = try #require(
        appSourceLine(containing: marker, in: file),
        "exactly one line of \(file) ends with \(marker)", sourceLocation: sourceLocation)
    @Sendable func atTheMarkedLine(_ issue: Issue) -> Bool {
        issue.sourceLocation?.fileName == file && issue.sourceLocation?.line == line
    }
    withKnownIssue("\(rule) at \(file):\(line)", sourceLocation: sourceLocation) {
        assertFindings(harness, .none(atOrAbove: .note))
    } matching: { issue in
        atTheMarkedLine(issue) && String(describing: issue).contains("[\(rule)]")
    }
    if leaks {
        withKnownIssue("a leak at \(file):\(line)", sourceLocation: sourceLocation) {
            assertNoLeaks(harness)
        } matching: { issue in
            atTheMarkedLine(issue) && String(describing: issue).contains("Potential leak")
        }
    }
}

/// Runs `wiring`'s clean near miss: no finding at all, and no leak.
@MainActor
func expectSilent(_ wiring: Wiring, buggy: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
    let harness = podcastHarness()
    let alive = buggy ? wiring.runBuggy(in: harness) : wiring.runClean(in: harness)
    let report = assertFindings(harness, .none(atOrAbove: .note))
    #expect(!report.findings.contains { $0.rule == wiring.rule }, sourceLocation: sourceLocation)
    if wiring.leaks { assertNoLeaks(harness) }
    withExtendedLifetime(alive) {}
}

@MainActor
@Suite(.observerHarness(failingAt: .note)) struct Lifetimes {
    @Test func carPlayTemplateGetsAnEpisodeAfterItIsGone() throws { try expectCaught(Wirings.notifyAfterDealloc) }
    @Test func miniPlayerRemovesItselfInDeinit() { expectSilent(Wirings.notifyAfterDealloc) }

    /// The downloads' list declares `hold: .weak`: a meter dying in it is by design.
    @Test func storageMeterLeftInTheWeakDownloadListIsByDesign() {
        expectSilent(Wirings.danglingRegistration, buggy: true)
    }
    @Test func downloadsScreenRemovesItselfOnClose() { expectSilent(Wirings.danglingRegistration) }

    @Test func playerObserverArrayKeepsTheClosedQueueScreen() throws { try expectCaught(Wirings.strongObserverList) }
    @Test func queueScreenClosedBeforeReleaseIsFreed() { expectSilent(Wirings.strongObserverList) }

    @Test func strongControlsDelegateKeepsTheClosedPlayerScreen() throws { try expectCaught(Wirings.strongDelegate) }
    @Test func playerScreenClearingItsControlsDelegateIsFreed() { expectSilent(Wirings.strongDelegate) }

    @Test func chartsBlockCapturingSelfKeepsTheClosedScreen() throws { try expectCaught(Wirings.blockCapturingSelf) }
    @Test func chartsClosedBeforeReleaseIsFreed() { expectSilent(Wirings.blockCapturingSelf) }

    @Test func trendingBlockCapturingSelfWithItsTokenInASubscriptionKeepsTheScreen() throws {
        try expectCaught(Wirings.blockCapturingSelfInAWrapper)
    }
    @Test func feedBlockCapturingWeakSelfIsFreed() { expectSilent(Wirings.blockCapturingSelfInAWrapper) }

    @Test func progressRingObservesAFreedTask() throws { try expectCaught(Wirings.observedObjectDeallocated) }
    @Test func downloadRowEndsItsObservationBeforeTheTaskGoes() { expectSilent(Wirings.observedObjectDeallocated) }

    @Test func profileBadgeDropsItsToken() throws { try expectCaught(Wirings.discardedToken) }
    @Test func feedKeepsItsTokens() { expectSilent(Wirings.discardedToken) }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func topShowsWidgetDropsItsTypedMessageToken() throws { try expectCaught(Wirings.discardedTypedToken) }
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func showRatingViewKeepsItsTypedMessageToken() { expectSilent(Wirings.discardedTypedToken) }

    @Test
    func sleepTimerDropsItsPositionObservation() throws { try expectCaught(Wirings.discardedPropertyObservation) }
    @Test func scrubberKeepsItsPositionObservation() { expectSilent(Wirings.discardedPropertyObservation) }
}

@MainActor
@Suite(.observerHarness(failingAt: .note)) struct Registrations {
    @Test func downloadBadgeRegistersOnEveryAppearance() throws { try expectCaught(Wirings.duplicateObserver) }
    @Test func twoBadgesEachRegisteringOnceAreClean() { expectSilent(Wirings.duplicateObserver) }

    @Test func inboxRegistersABlockOnEveryAppearance() throws { try expectCaught(Wirings.duplicateBlock) }
    @Test func twoInboxesEachRegisteringABlockOnceAreClean() { expectSilent(Wirings.duplicateBlock) }

    @Test func downloadsScreenClosedBeforeLoadingRemovesNothing() throws { try expectCaught(Wirings.unbalancedRemoval) }
    @Test func downloadsScreenClosedAfterLoadingRemovesOnce() { expectSilent(Wirings.unbalancedRemoval) }
}

@MainActor
@Suite(.observerHarness(failingAt: .note)) struct Deliveries {
    @Test func autoDownloadRegistersTheNextRowWhileTheListDelivers() throws {
        try expectCaught(Wirings.mutationDuringNotify)
    }
    @Test func toastRemovingItsCenterTokenInItsHandlerIsClean() { expectSilent(Wirings.mutationDuringNotify) }

    /// The sync re-posts what it observes, endlessly: the harness cuts the
    /// loop, the test process survives, and the finding is at the re-post.
    @Test func settingsSyncRepostingWhatItObservesIsCutAndReported() throws {
        try expectCaught(Wirings.notificationCycle)
    }
    @Test func settingsSyncAnnouncingWithAnotherNameIsClean() { expectSilent(Wirings.notificationCycle) }
}

@MainActor
@Suite(.observerHarness(failingAt: .note)) struct Design {
    @Test func legacySubscribeRowMakesBothListsSubscribe() throws { try expectCaught(Wirings.broadcastAsCommand) }
    @Test func subscribeRowTellsOnlyItsScreen() { expectSilent(Wirings.broadcastAsCommand) }

    @Test
    func keyboardRouterForwardsOneCallbackToTwoScreens() throws { try expectCaught(Wirings.delegateAsBroadcast) }
    @Test func focusedKeyboardRouterForwardsToOneScreen() { expectSilent(Wirings.delegateAsBroadcast) }

    @Test func suggestionsPanelTakesTheFieldFromTheLiveSearchScreen() throws {
        try expectCaught(Wirings.delegateOverwritten)
    }
    @Test func searchScreenHandsTheFieldOverFirst() { expectSilent(Wirings.delegateOverwritten) }

    @Test func pullToRefreshOnlyEverReachesTheFeed() throws { try expectCaught(Wirings.singleReceiverBroadcast) }
    @Test func pullToRefreshReachingFeedAndInboxIsABroadcast() { expectSilent(Wirings.singleReceiverBroadcast) }

    @Test func playbackStartReachesNobody() throws { try expectCaught(Wirings.unobservedPost) }
    @Test func playbackStartReachesTheReporter() { expectSilent(Wirings.unobservedPost) }

    @Test func listeningStatsWaitForAMisspeltName() throws { try expectCaught(Wirings.channelNameTypo) }
    @Test func reporterUsesTheDeclaredName() { expectSilent(Wirings.channelNameTypo) }

    @Test func downloadButtonFiltersByTheEpisodeID() throws { try expectCaught(Wirings.valueObjectFilter) }
    @Test func downloadButtonFiltersByTheTask() { expectSilent(Wirings.valueObjectFilter) }
}

@MainActor
@Suite(.observerHarness(failingAt: .note)) struct DeliveryOrder {
    /// The banner and the cache both observe the session; the banner reads
    /// what the cache writes. The cache first says "Welcome back, ada", the
    /// banner first "Welcome": reported at both registrations.
    @Test func welcomeBannerDependsOnWhichSessionObserverRunsFirst() throws {
        let banner = try #require(appSourceLine(containing: "// bug: ordering-dependence", in: "Session.swift"))
        let cache = try #require(
            appSourceLine(
                containing: "// bug: ordering-dependence (the other receiver)",
                in: "Session.swift"))
        withKnownIssue {
            assertOrderIndependent(DeliveryOrderScenes.welcomeBannerAfterLogin)
        } matching: { issue in
            let text = String(describing: issue)
            return issue.sourceLocation?.fileName == "Session.swift"
                && [banner, cache].contains(issue.sourceLocation?.line ?? 0)
                && text.contains(#"returns "Welcome back, ada""#) && text.contains(#", "Welcome" when"#)
        }
    }

    @Test func feedWaitingForTheCacheIsOrderIndependent() {
        assertOrderIndependent(DeliveryOrderScenes.feedTitleAfterLogin)
        #expect(DeliveryOrderScenes.feedTitleAfterLogin(.reversed) == "ada's feed")
    }
}

@MainActor
@Suite(.observerHarness(failingAt: .note)) struct AsyncLoops {
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test
    func episodePageLoopCapturingSelfRunsOnAfterThePageIsClosed() async throws {
        let harness = podcastHarness()
        let loop = await ThemeLoopScenes.closeEpisodePage(in: harness)
        try expectReported(
            "async-observer-outlives-owner", at: "// bug: async-observer-outlives-owner",
            in: "Appearance.swift", by: harness)
        loop?.cancel()
        await loop?.value
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func showPageLoopEndsWithThePage() async {
        let harness = podcastHarness()
        let loop = await ThemeLoopScenes.closeShowPage(in: harness)
        #expect(loop?.isCancelled == true)
        assertFindings(harness, .none(atOrAbove: .note))
        assertNoLeaks(harness)
    }
}

@MainActor
@Suite(.observerHarness(failingAt: .note)) struct MessageSequences {
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func syncStatusListLosesConfirmationsPastItsBuffer() async throws {
        let harness = podcastHarness()
        let synced = await RatingsSyncScenes.confirmSync(of: 5, in: harness)
        #expect(synced == ["show-4", "show-5"])
        try expectReported("message-dropped", at: "// bug: message-dropped", in: "Ratings.swift", by: harness)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func syncStatusListKeepsUpWithASyncWithinItsBuffer() async {
        let harness = podcastHarness()
        let synced = await RatingsSyncScenes.confirmSync(of: 2, in: harness)
        #expect(synced == ["show-1", "show-2"])
        assertFindings(harness, .none(atOrAbove: .note))
    }
}

@MainActor
@Suite(.observerHarness(failingAt: .note)) struct Isolation {
    @Test
    func footerSetUpOnTheMainActorRunsOnTheSessionsQueue() async throws {
        let harness = podcastHarness()
        let text = await BackgroundDownloadScenes.fileArrives(postedOnTheMainActor: false, in: harness)
        #expect(text == "Downloaded st-1")
        try expectReported(
            "delivery-off-isolation", at: "// bug: delivery-off-isolation", in: "Downloads.swift",
            by: harness)
    }

    @Test func footerHearsAFileAnnouncedOnTheMainActor() async {
        let harness = podcastHarness()
        let text = await BackgroundDownloadScenes.fileArrives(postedOnTheMainActor: true, in: harness)
        #expect(text == "Downloaded st-1")
        assertFindings(harness, .none(atOrAbove: .note))
    }
}
