import Foundation
import ObserverHarness
import ObserverHarnessTesting
import XCTest

/// Tests that only changed their superclass: each runs under its own harness,
/// `setUp` included, and passes when the app is clean.
final class ObserverHarnessTestCaseTests: ObserverHarnessTestCase {
    private var harnessInSetUp: Harness?

    override func setUp() {
        super.setUp()
        harnessInSetUp = Harness.current
        XCTAssertEqual(Harness.current?.eventCount, 0, "a fresh harness for every test")
    }

    func testACleanTestPassesAndItsHarnessSawTheApp() throws {
        playAndCloseAScreen()
        let harness = try XCTUnwrap(Harness.current)
        XCTAssertTrue(harness === self.harness)
        XCTAssertTrue(harness === harnessInSetUp)
        XCTAssertGreaterThan(harness.eventCount, 0)
    }

    func testAnAsyncTestKeepsItsHarnessAcrossAwaits() async throws {
        let harness = try XCTUnwrap(Harness.current)
        await Task.yield()
        let counter = EpisodeCounter()
        Playback.endEpisode()
        XCTAssertTrue(Harness.current === harness)
        XCTAssertEqual(counter.count, 1)
    }

    func testAThrowingTestRunsInTheScope() throws {
        playAndCloseAScreen()
        XCTAssertNotNil(try XCTUnwrap(Harness.current))
    }

    func testATestDemonstratingABugExpectsItsFinding() {
        expectFindings(["duplicate-registration"])
        showOneScreenTwice()
    }

    /// The feed is closed before the end-of-test check: still caught.
    func testAFeedClosedBeforeTheEndOfTheTestIsStillCaught() throws {
        expectFindings(["duplicate-registration"])
        let harness = try XCTUnwrap(Harness.current)
        showTheFeed(appearances: 2, screens: 1) { harness.track($0) }
    }

    func testTwoFeedsAppearingOnceEachAreClean() throws {
        let harness = try XCTUnwrap(Harness.current)
        showTheFeed(appearances: 1, screens: 2) { harness.track($0) }
    }

    func testARuleOnTheAllowListIsTolerated() {
        harnessOptions.allowed = ["duplicate-registration"]
        showOneScreenTwice()
    }

    func testASiteOnTheAllowListIsTolerated() {
        harnessOptions.allowed = [.site("HarnessedApp.swift:\(NowPlayingScreens.registrationLine)")]
        showOneScreenTwice()
    }

    func testANoteDoesNotFailByDefault() {
        Playback.endEpisode()
    }

    func testExistingAssertionsOnTheTestsOwnHarnessKeepWorking() {
        let own = Harness()
        withObserverHarness(own) { showOneScreenTwice() }
        assertFindings(own, .exactly(["duplicate-registration"]))
        XCTAssertEqual(harness?.eventCount, 0)
    }
}

/// Options for the whole class.
final class ObserverHarnessTestCaseOptionsTests: ObserverHarnessTestCase {
    override class var observerHarnessOptions: ObserverHarnessOptions { ObserverHarnessOptions(failingAt: .error) }

    func testAWarningDoesNotFailUnderTheClassesErrorThreshold() {
        NowPlayingScreens().disappear(PlayerScreen())
    }
}

final class ObserverHarnessTestCaseOffTests: ObserverHarnessTestCase {
    override class var observerHarnessOptions: ObserverHarnessOptions { ObserverHarnessOptions(isEnabled: false) }

    func testATestCanRunWithoutTheHarness() {
        XCTAssertNil(Harness.current)
        XCTAssertNil(harness)
    }
}

/// Test support, with no tests of its own: `invokeTest` captures the
/// failures the test records and hands them to the check the test left in
/// `verify`; `environment`, when given, stands for the process's environment.
class FailureCapturingTestCase: ObserverHarnessTestCase {
    struct Failure {
        let description: String
        let file: String
        let line: Int
    }

    class var environment: [String: String]? { nil }

    private var captured: [Failure]?
    var verify: (([Failure]) throws -> Void)?
    /// The report files the test wrote, by name, once it ended (for `verify`).
    private(set) var writtenArtifacts: [String] = []

    override func invokeTest() {
        captured = []
        let written = Collected<ReportArtifact>()
        let collect: @Sendable (ReportArtifact) -> Void = { written.append($0) }
        ReportArtifact.$observer.withValue(collect) {
            if let environment = Self.environment {
                HarnessEnvironment.$override.withValue(environment) { super.invokeTest() }
            } else {
                super.invokeTest()
            }
        }
        writtenArtifacts = written.all.map(\.name)
        let failures = captured ?? []
        captured = nil
        guard let verify else { return XCTFail("the test left no check of its failures") }
        XCTAssertNoThrow(try verify(failures))
    }

    static func reportPaths(in description: String) -> [String] {
        description.split(separator: "\n").compactMap { line in
            let prefix = "observer harness report written to "
            return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
        }
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
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            guard captured != nil else {
                return super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
            captured?.append(Failure(description: description, file: filePath, line: lineNumber))
        }
    #endif
}

/// Tests the harness must fail.
final class FailingObserverHarnessTestCaseTests: FailureCapturingTestCase {
    func testAMisuseFailsAtTheAppsLineWithThePathOfTheReport() {
        showOneScreenTwice()
        verify = { failures in
            XCTAssertEqual(failures.count, 1)
            let failure = try XCTUnwrap(failures.first)
            XCTAssertTrue(failure.file.hasSuffix("HarnessedApp.swift"), failure.file)
            XCTAssertEqual(failure.line, NowPlayingScreens.registrationLine)
            XCTAssertTrue(failure.description.contains("[duplicate-registration]"), failure.description)
            XCTAssertTrue(failure.description.contains("fix: "), failure.description)
            let path = try XCTUnwrap(Self.reportPaths(in: failure.description).first)
            XCTAssertTrue(path.hasSuffix(".observer-harness.json"), path)
            let report = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(report.contains(#""rule": "duplicate-registration""#), report)
            // The pictures beside it, each with the finding's sequence diagram.
            let paths = Self.reportPaths(in: failure.description)
            XCTAssertEqual(paths.map { ($0 as NSString).pathExtension }, ["json", "md", "html"])
            let markdown = try String(contentsOfFile: paths[1], encoding: .utf8)
            XCTAssertTrue(markdown.contains("sequenceDiagram"), markdown)
            let html = try String(contentsOfFile: paths[2], encoding: .utf8)
            XCTAssertTrue(html.contains("<svg") && html.contains("duplicate-registration"))
        }
    }

    func testTheTraceIsWrittenWhenAsked() {
        harnessOptions.attachesTrace = true
        showOneScreenTwice()
        verify = { failures in
            let paths = Self.reportPaths(in: try XCTUnwrap(failures.first).description)
            XCTAssertEqual(paths.count, 4)
            let trace = try String(contentsOfFile: try XCTUnwrap(paths.last), encoding: .utf8)
            XCTAssertTrue(trace.hasPrefix(#"{"format":"observer-harness-trace""#), trace)
        }
    }

    func testAMissingExpectedFindingFailsWhereItWasExpected() {
        let expectedLine = #line + 1
        expectFindings(["duplicate-registration"])
        playAndCloseAScreen()
        verify = { failures in
            XCTAssertEqual(failures.count, 1)
            XCTAssertEqual(failures.first?.line, expectedLine)
            XCTAssertEqual(failures.first?.file.hasSuffix("ObserverHarnessTestCaseTests.swift"), true)
        }
    }

    func testANoteFailsUnderANoteThreshold() {
        harnessOptions.threshold = .note
        Playback.endEpisode()
        verify = { failures in
            XCTAssertEqual(failures.map(\.line), [Playback.postLine])
            XCTAssertEqual(failures.first?.description.contains("[unobserved-post]"), true)
        }
    }

    func testAnAllowanceForAnotherSiteDoesNotTolerateTheFinding() {
        harnessOptions.allowed = [.site("SomewhereElse.swift")]
        showOneScreenTwice()
        verify = { failures in XCTAssertEqual(failures.map(\.line), [NowPlayingScreens.registrationLine]) }
    }
}

/// The XCTest base under OBSERVER_HARNESS_FAIL_ON=note and
/// OBSERVER_HARNESS_KEEP_REPORTS=all: a class that sets neither option.
final class EnvironmentNoteXCTests: FailureCapturingTestCase {
    override class var environment: [String: String]? {
        ["OBSERVER_HARNESS_FAIL_ON": "note", "OBSERVER_HARNESS_KEEP_REPORTS": "all"]
    }

    func testANoteFailsWhenTheEnvironmentSaysNote() {
        Playback.endEpisode()
        verify = { failures in
            XCTAssertEqual(failures.map(\.line), [Playback.postLine])
            XCTAssertEqual(failures.first?.description.contains("[unobserved-post]"), true)
        }
    }

    func testTheTestsOwnThresholdWins() {
        harnessOptions.threshold = .warning
        Playback.endEpisode()
        verify = { failures in XCTAssertEqual(failures.count, 0) }
    }

    func testAPassingTestsReportsAreWritten() {
        harnessOptions.threshold = .warning
        Playback.endEpisode()  // a note: the test passes, and its reports are written
        verify = { [unowned self] failures in
            XCTAssertEqual(failures.count, 0)
            XCTAssertEqual(writtenArtifacts.map { ($0 as NSString).pathExtension }, ["json", "md", "html"])
            XCTAssertTrue(writtenArtifacts.allSatisfy { $0.contains("testAPassingTestsReportsAreWritten") })
        }
    }
}

/// OBSERVER_HARNESS_FAIL_ON=never: no finding fails a test of a class that sets no threshold.
final class EnvironmentNeverXCTests: FailureCapturingTestCase {
    override class var environment: [String: String]? { ["OBSERVER_HARNESS_FAIL_ON": "never"] }

    func testAMisuseDoesNotFail() {
        showOneScreenTwice()
        verify = { failures in XCTAssertEqual(failures.count, 0) }
    }

    /// A threshold the test sets in code wins over the environment's `never`.
    func testTheTestsOwnThresholdWinsOverNever() {
        harnessOptions.threshold = .warning
        showOneScreenTwice()
        verify = { failures in XCTAssertEqual(failures.map(\.line), [NowPlayingScreens.registrationLine]) }
    }
}

/// A value OBSERVER_HARNESS_FAIL_ON does not take fails the test with a message.
final class EnvironmentBadValueXCTests: FailureCapturingTestCase {
    override class var environment: [String: String]? { ["OBSERVER_HARNESS_FAIL_ON": "loud"] }

    func testABadValueFailsWithAMessage() {
        playAndCloseAScreen()
        verify = { failures in
            XCTAssertEqual(failures.count, 1)
            XCTAssertEqual(
                failures.first?.description.contains(
                    "OBSERVER_HARNESS_FAIL_ON must be error, warning, note or never, not 'loud'"), true,
                failures.first?.description ?? "")
        }
    }
}
