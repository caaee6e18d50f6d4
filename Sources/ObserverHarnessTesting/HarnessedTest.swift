import Foundation
import ObserverHarness

/// One test run under its own harness, whichever framework runs it: the
/// `.observerHarness` trait and ``ObserverHarnessTestCase`` each make one per
/// test, case and repetition, run the test in its scope, then `finish()` it.
package final class HarnessedTest: Sendable {
    let harness: Harness
    private let checkedByTest = Flag()

    /// The harnessed test the current task runs, if any.
    @TaskLocal static var running: HarnessedTest?

    /// Sees each harnessed test's harness once its findings are checked: how
    /// the package's tests clean up after a test that shows a leak (a loop
    /// left running, which the check must still see running).
    @TaskLocal package static var finished: (@Sendable (Harness) -> Void)?

    /// `parallel`: the framework may run other tests beside this one (Swift
    /// Testing), so no work is given to it by elimination.
    init(named name: String, posts: Harness.PostThread, parallel: Bool) {
        harness = Harness(name: name, posts: posts)
        harness.assumesOneTestAtATime = !parallel
    }

    /// Runs `body` in the harness's scope.
    func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try HarnessedTest.$running.withValue(self) { try withObserverHarness(harness, operation: body) }
    }

    /// The `async` form of ``run(_:)``.
    func run<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result)
        async rethrows -> Result
    {
        try await HarnessedTest.$running.withValue(
            self, operation: { try await withObserverHarness(harness, operation: body) }, isolation: isolation)
    }

    /// An `assertFindings` call on `harness` made by the test itself: the test
    /// has checked the findings its own way (inside `withKnownIssue`, say),
    /// so the end-of-test check stands back.
    func noteChecked(_ checked: Harness) {
        if checked === harness { checkedByTest.set() }
    }

    /// The end of the test: the analysis, what fails `options` (and a bad
    /// value in the environment), and whether its reports are kept; nil when
    /// the test checked the findings itself.
    func finish(_ options: ObserverHarnessOptions) -> Outcome? {
        defer { HarnessedTest.finished?(harness) }
        guard !checkedByTest.isSet else { return nil }
        // One recording for the report and, when kept, its pictures.
        let recording = harness.recording()
        let report = recording.analyze(name: harness.name)
        var failures = expectationFailures(
            report, options.expectation, alreadyReported: harness.reportedLeakFindings())
        failures += HarnessEnvironment.current.problems.map { ExpectationFailure(message: $0, location: nil) }
        return Outcome(
            recording: recording, report: report, failures: failures,
            keepsReports: !failures.isEmpty || options.keepsEveryReport)
    }

    /// What ``finish(_:)`` found.
    struct Outcome {
        let recording: Recording
        let report: Report
        let failures: [ExpectationFailure]
        /// Whether the test's reports go beside it: it failed, or every test's are kept.
        let keepsReports: Bool
    }

    /// The files to put beside the test: the report as JSON, and as Markdown
    /// and HTML with each finding's sequence diagram, and the trace when
    /// `options` ask.
    func artifacts(for outcome: Outcome, named name: String, _ options: ObserverHarnessOptions) -> [ReportArtifact] {
        let pictured = outcome.recording.analyzeTellingStories(name: harness.name)
        let set = ReportSet(reports: [pictured.report])
        var artifacts = [
            ReportArtifact(name: "\(name).observer-harness.json", bytes: Array(outcome.report.jsonText().utf8)),
            ReportArtifact(
                name: "\(name).observer-harness.md", bytes: Array(set.markdownText(stories: [pictured.stories]).utf8)),
            ReportArtifact(
                name: "\(name).observer-harness.html", bytes: Array(set.htmlText(stories: [pictured.stories]).utf8)),
        ]
        if options.attachesTrace {
            artifacts.append(
                ReportArtifact(
                    name: "\(name).observer-harness.trace.jsonl",
                    bytes: Array(outcome.recording.traceData(name: harness.name))))
        }
        return artifacts
    }
}

/// A file shown beside a failing test: attached in Swift Testing, written to
/// the artifacts folder under XCTest.
package struct ReportArtifact: Sendable, Equatable {
    package var name: String
    package var bytes: [UInt8]

    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Sees every artifact a failing harnessed test produces, in addition to
    /// its attachment or file: how the package's tests check them without
    /// running `swift test --attachments-path` in a child process.
    @TaskLocal package static var observer: (@Sendable (ReportArtifact) -> Void)?
}

/// A file name made of `name`: letters, digits, `.`, `-` and `_` kept, runs of
/// anything else one `_`.
func artifactFileName(_ name: String) -> String {
    var result = ""
    for character in name {
        if character.isASCII, character.isLetter || character.isNumber || "._-".contains(character) {
            result.append(character)
        } else if !result.hasSuffix("_") {
            result.append("_")
        }
    }
    while result.hasSuffix("_") { result.removeLast() }
    return result.isEmpty ? "test" : result
}

/// Set once, read from any thread.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false  // guarded by `lock`

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
