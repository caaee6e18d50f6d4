// OBSERVER_HARNESS_FAIL_ON and OBSERVER_HARNESS_KEEP_REPORTS under the trait:
// the environment sets what the code leaves out; the code wins.
import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Testing

private let failOn = "OBSERVER_HARNESS_FAIL_ON"
private let keepReports = "OBSERVER_HARNESS_KEEP_REPORTS"

@Suite struct EnvironmentSwitchTests {
    @Test func theVariablesSetWhatTheOptionsLeaveOut() {
        HarnessEnvironment.$override.withValue([failOn: "note", keepReports: "all"]) {
            let options = ObserverHarnessOptions()
            #expect(options.threshold == .note)
            #expect(options.failsOnFindings)
            #expect(options.keepsEveryReport)
            let explicit = ObserverHarnessOptions(failingAt: .error, keepingEveryReport: false)
            #expect(explicit.threshold == .error)
            #expect(!explicit.keepsEveryReport)
        }
        HarnessEnvironment.$override.withValue([failOn: "NEVER"]) {
            let options = ObserverHarnessOptions()
            #expect(!options.failsOnFindings)
            #expect(ObserverHarnessOptions(failingAt: .warning).failsOnFindings)
        }
        HarnessEnvironment.$override.withValue([:]) {
            let options = ObserverHarnessOptions()
            #expect(options.threshold == .warning && options.failsOnFindings && !options.keepsEveryReport)
        }
    }

    @Test func aValueTheyDoNotTakeIsNamedAndCountsAsUnset() {
        let environment = HarnessEnvironment([failOn: "notes", keepReports: "yes"])
        #expect(environment.failOn == nil)
        #expect(environment.keepsEveryReport == nil)
        #expect(
            environment.problems == [
                "OBSERVER_HARNESS_FAIL_ON must be error, warning, note or never, not 'notes': "
                    + "the tests use the option in the code, or warning",
                "OBSERVER_HARNESS_KEEP_REPORTS must be all or failing, not 'yes': "
                    + "the tests keep the reports of failing tests only",
            ])
    }

    // Through the real process environment: in a child process of its own,
    // which sets the variables before anything reads them.
    #if os(macOS) || os(Linux) || os(Windows)
        @Test func theRealEnvironmentVariablesAreRead() async {
            await #expect(processExitsWith: .success) {
                setenv("OBSERVER_HARNESS_FAIL_ON", "note", 1)
                setenv("OBSERVER_HARNESS_KEEP_REPORTS", "all", 1)
                let options = ObserverHarnessOptions()
                guard options.threshold == .note, options.keepsEveryReport,
                    HarnessEnvironment.current.problems.isEmpty
                else { exit(1) }
                setenv("OBSERVER_HARNESS_FAIL_ON", "sometimes", 1)
                guard HarnessEnvironment.current.problems.first?.contains("not 'sometimes'") == true else { exit(2) }
            }
        }
    #endif
}

// The trait under the variables: each test below would pass, or fail, the
// other way without them.

@Test(
    .failing(1) { issue, _ in
        issue.sourceLocation?.line == Playback.postLine
            && issue.comments.contains { $0.rawValue.contains("[unobserved-post]") }
    }, .environment([failOn: "note"]), .observerHarness)
func aNoteFailsWhenTheEnvironmentSaysNote() {
    Playback.endEpisode()
}

@Test(.environment([failOn: "never"]), .observerHarness)
func nothingFailsWhenTheEnvironmentSaysNever() {
    showOneScreenTwice()
}

@Test(
    .failing(1) { issue, _ in
        issue.comments.contains { $0.rawValue.contains("expected 1 more duplicate-registration finding(s)") }
    }, .environment([failOn: "never"]), .observerHarness(expecting: ["duplicate-registration"]))
func underNeverAMissingExpectedFindingStillFails() {
    playAndCloseAScreen()
}

@Test(.environment([failOn: "note"]), .observerHarness(failingAt: .warning))
func theSuitesOwnThresholdWinsOverTheEnvironment() {
    Playback.endEpisode()
}

@Test(
    .artifacts { artifacts in
        artifacts.map(\.name) == [
            "aPassingTestsReportsAreKeptWhenTheEnvironmentSaysAll.observer-harness.json",
            "aPassingTestsReportsAreKeptWhenTheEnvironmentSaysAll.observer-harness.md",
            "aPassingTestsReportsAreKeptWhenTheEnvironmentSaysAll.observer-harness.html",
        ] && artifacts[1].text.contains("unobserved-post")
    }, .environment([keepReports: "all"]), .observerHarness)
func aPassingTestsReportsAreKeptWhenTheEnvironmentSaysAll() {
    Playback.endEpisode()  // a note: the test passes, and its report shows it
}

@Test(.artifacts { $0.isEmpty }, .environment([keepReports: "all"]), .observerHarness(keepingEveryReport: false))
func theTestsOwnKeepingOptionWins() {
    Playback.endEpisode()
}

@Test(
    .failing(1) { issue, _ in
        issue.comments.contains {
            $0.rawValue.hasPrefix("OBSERVER_HARNESS_FAIL_ON must be error, warning, note or never, not 'notes'")
        }
    }, .environment([failOn: "notes"]), .observerHarness)
func aBadValueFailsTheTestWithAMessageNotACrash() {
    playAndCloseAScreen()
}
