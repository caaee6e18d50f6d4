import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Testing

// The trait as a team adopts it: one line on the suite, tests unchanged.
@Suite(.observerHarness)
struct TraitOnASuite {
    @Test func aCleanTestStaysGreenAndItsHarnessSawTheApp() throws {
        playAndCloseAScreen()
        let harness = try #require(Harness.current)
        #expect(harness.eventCount > 0)
    }

    /// Every case starts with a harness of its own, and records only its own
    /// events, though the cases run in parallel.
    @Test(arguments: 0..<12)
    func eachCaseRunsUnderItsOwnHarness(episodes: Int) throws {
        let harness = try #require(Harness.current)
        #expect(harness.eventCount == 0)
        let counter = endEpisodes(episodes)
        #expect(counter.count == episodes)
        // The same work under a harness of its own records as many events.
        let alone = Harness()
        let other = withObserverHarness(alone) { endEpisodes(episodes) }
        #expect(harness.eventCount == alone.eventCount)
        withExtendedLifetime(other) {}
    }

    private func endEpisodes(_ episodes: Int) -> EpisodeCounter {
        let counter = EpisodeCounter()
        for _ in 0..<episodes { Playback.endEpisode() }
        return counter
    }

    @Test func theHarnessStaysAcrossAwaits() async throws {
        let before = try #require(Harness.current)
        await Task.yield()
        let counter = EpisodeCounter()
        await Task { Playback.endEpisode() }.value  // a child task inherits the scope
        #expect(Harness.current === before)
        #expect(counter.count == 1)
    }

    @Test func anAsyncThrowingTestRunsInTheScope() async throws {
        try await Task.sleep(nanoseconds: 0)
        playAndCloseAScreen()
        #expect(try #require(Harness.current).eventCount > 0)
    }

    /// A test that checks its own harness inside `withKnownIssue` has taken
    /// charge: the trait does not report the same findings again.
    @Test func aTestCheckingItsFindingsInsideWithKnownIssueIsNotCheckedTwice() throws {
        showOneScreenTwice()
        let harness = try #require(Harness.current)
        withKnownIssue("the screen appears twice") {
            assertFindings(harness, .none())
        } matching: { issue in
            issue.sourceLocation?.line == NowPlayingScreens.registrationLine
        }
    }

    /// A test with its own harness and `assertFindings`, as before the trait:
    /// its scope is the inner one, so the suite's harness records nothing.
    @Test func existingAssertionsOnTheTestsOwnHarnessKeepWorking() throws {
        let own = Harness()
        withObserverHarness(own) { showOneScreenTwice() }
        assertFindings(own, .exactly(["duplicate-registration"]))
        #expect(try #require(Harness.current).eventCount == 0)
    }

    @Test(.observerHarness(expecting: ["duplicate-registration"]))
    func aTestDemonstratingABugExpectsItsFinding() {
        showOneScreenTwice()
    }

    @Test(.observerHarness(allowing: ["duplicate-registration"]))
    func aRuleOnTheAllowListIsTolerated() {
        showOneScreenTwice()
    }

    @Test(.observerHarness(allowing: [.site("HarnessedApp.swift")]))
    func aFileOnTheAllowListIsTolerated() {
        showOneScreenTwice()
    }

    @Test(
        .observerHarness(allowing: [
            .rule("duplicate-registration", at: "HarnessedApp.swift:\(NowPlayingScreens.registrationLine)")
        ]))
    func aRuleAtALineOnTheAllowListIsTolerated() {
        showOneScreenTwice()
    }

    /// The feed registers its block on each appearance and is closed before
    /// the test ends: its duplicate is still the test's finding, at its line.
    @Test(.observerHarness(expecting: ["duplicate-registration"]))
    func aFeedClosedBeforeTheEndOfTheTestIsStillCaught() throws {
        let harness = try #require(Harness.current)
        showTheFeed(appearances: 2, screens: 1) { harness.track($0, label: "feed") }
        let finding = try #require(harness.analyze().findings.first { $0.rule == "duplicate-registration" })
        #expect(finding.site?.line == FeedScreen.registrationLine)
        #expect(finding.objects == ["feed"])
    }

    /// Its near miss: two feeds, one appearance each, closed the same way.
    @Test func twoFeedsAppearingOnceEachAreClean() throws {
        let harness = try #require(Harness.current)
        showTheFeed(appearances: 1, screens: 2) { harness.track($0) }
    }

    /// `unobserved-post` is a note: below the default threshold.
    @Test func aNoteDoesNotFailByDefault() {
        Playback.endEpisode()
    }

    @Test(.observerHarness(isEnabled: false))
    func aTestCanRunWithoutTheHarness() {
        #expect(Harness.current == nil)
    }
}

/// A suite's options reach its tests, and a test's own refine them.
@Suite(.observerHarness(failingAt: .error))
struct TraitOptionsOnASuite {
    /// `unbalanced-removal` is a warning: below this suite's threshold.
    @Test func aWarningDoesNotFailUnderAnErrorThreshold() {
        NowPlayingScreens().disappear(PlayerScreen())
    }

    /// The suite's threshold still holds with the test's allow-list added.
    @Test(.observerHarness(allowing: ["duplicate-registration"]))
    func aTestsAllowListAddsToTheSuitesThreshold() {
        NowPlayingScreens().disappear(PlayerScreen())
        showOneScreenTwice()
    }

    @Test(.observerHarness(posts: .background))
    func postsCanComeFromABackgroundThread() throws {
        let counter = EpisodeCounter()
        Playback.endEpisode()
        #expect(counter.count == 1)
    }

    /// A main-actor observer reached from a background post, expected.
    @MainActor
    @Test(.observerHarness(expecting: ["delivery-off-isolation"], posts: .background))
    func aMainActorObserverOfABackgroundPostIsReported() {
        let harness = Harness.current!
        let token = Observers.center.addObserver(forName: .episodeDidEnd, object: nil, queue: nil) { _ in
            harness.noteAction(.increment("episodes.ended"))
        }
        Playback.endEpisode()
        Observers.center.removeObserver(token)
    }
}

// Tests whose harness must fail them: `.failing` runs the test, the harness's
// end-of-test check included, inside `withKnownIssue`, and checks each issue.

@Test(
    .failing(1) { issue, artifacts in
        issue.sourceLocation?.fileName == "HarnessedApp.swift"
            && issue.sourceLocation?.line == NowPlayingScreens.registrationLine
            && issue.comments.contains { $0.rawValue.contains("[duplicate-registration]") }
            && issue.comments.contains { $0.rawValue.contains("fix: ") }
            && artifacts.map(\.name) == [
                "aMisuseFailsTheTestAtTheAppsLine.observer-harness.json",
                "aMisuseFailsTheTestAtTheAppsLine.observer-harness.md",
                "aMisuseFailsTheTestAtTheAppsLine.observer-harness.html",
            ]
            && artifacts[0].text.contains(#""rule": "duplicate-registration""#)
            && artifacts[0].text.contains(#""scenario": "aMisuseFailsTheTestAtTheAppsLine()""#)
            // The pictures: the finding, with its sequence diagram.
            && artifacts[1].text.contains("duplicate-registration") && artifacts[1].text.contains("sequenceDiagram")
            && artifacts[2].text.contains("duplicate-registration") && artifacts[2].text.contains("<svg")
    }, .observerHarness)
func aMisuseFailsTheTestAtTheAppsLine() {
    showOneScreenTwice()
}

@Test(
    .failing(1) { _, artifacts in
        artifacts.map(\.name) == [
            "theTraceIsAttachedWhenAsked.observer-harness.json",
            "theTraceIsAttachedWhenAsked.observer-harness.md",
            "theTraceIsAttachedWhenAsked.observer-harness.html",
            "theTraceIsAttachedWhenAsked.observer-harness.trace.jsonl",
        ] && artifacts[3].text.hasPrefix(#"{"format":"observer-harness-trace""#)
    }, .observerHarness(attachingTrace: true))
func theTraceIsAttachedWhenAsked() {
    showOneScreenTwice()
}

@Test(
    .failing(1) { issue, _ in
        issue.sourceLocation?.line == Playback.postLine
            && issue.comments.contains { $0.rawValue.contains("[unobserved-post]") }
    }, .observerHarness(failingAt: .note))
func aNoteFailsUnderANoteThreshold() {
    Playback.endEpisode()
}

@Test(
    .failing(1) { issue, _ in issue.sourceLocation?.line == NowPlayingScreens.removalLine },
    .observerHarness)
func aWarningFailsByDefault() {
    NowPlayingScreens().disappear(PlayerScreen())
}

/// An expected finding that does not happen fails at the test.
@Test(
    .failing(1) { issue, _ in
        issue.sourceLocation?.fileName == "ObserverHarnessTraitTests.swift"
            && issue.comments.contains {
                $0.rawValue.contains("expected 1 more duplicate-registration finding(s), but the harness reported 0")
            }
    }, .observerHarness(expecting: ["duplicate-registration"]))
func aMissingExpectedFindingFailsTheTest() {
    playAndCloseAScreen()
}

@Test(
    .failing(1) { issue, _ in issue.sourceLocation?.line == NowPlayingScreens.registrationLine },
    .observerHarness(allowing: [
        .site("SomewhereElse.swift"), .rule("duplicate-registration", at: "HarnessedApp.swift:1"),
    ]))
func anAllowanceForAnotherSiteDoesNotTolerateTheFinding() {
    showOneScreenTwice()
}

/// A throwing test fails with its error and with its findings.
@Test(
    .failing(2) { issue, _ in
        if case .errorCaught = issue.kind { return true }
        return issue.sourceLocation?.line == NowPlayingScreens.registrationLine
    }, .observerHarness)
func aTestThatThrowsIsStillCheckedForFindings() throws {
    showOneScreenTwice()
    throw CocoaError(.featureUnsupported)
}

/// Called as Swift Testing calls it for each repetition, the trait makes a
/// fresh harness each time, and removes it after.
@Test func eachRepetitionRunsUnderAFreshHarness() async throws {
    let trait: ObserverHarnessTrait = .observerHarness
    let test = try #require(Test.current)
    let seen = Harnesses()
    for _ in 0..<3 {
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            let harness = try #require(Harness.current)
            #expect(harness.eventCount == 0)
            seen.append(harness)
            playAndCloseAScreen()
        }
        #expect(Harness.current == nil)
    }
    let harnesses = seen.all
    #expect(harnesses.count == 3)
    #expect(Set(harnesses.map(ObjectIdentifier.init)).count == 3)
}

private final class Harnesses: @unchecked Sendable {
    private let lock = NSLock()
    private var harnesses: [Harness] = []  // guarded by `lock`
    func append(_ harness: Harness) { lock.withLock { harnesses.append(harness) } }
    var all: [Harness] { lock.withLock { harnesses } }
}
