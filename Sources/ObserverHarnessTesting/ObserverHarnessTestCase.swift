#if canImport(XCTest)
    import Foundation
    import ObserverHarness
    import XCTest

    /// An `XCTestCase` whose every test runs inside a fresh harness's scope
    /// and fails on its findings at the app's lines: the XCTest counterpart of
    /// the `.observerHarness` trait. Change the superclass and nothing else:
    ///
    /// ```swift
    /// final class CheckoutTests: ObserverHarnessTestCase {
    ///     func testOneTapAddsOnce() { … }                           // unchanged
    ///
    ///     func testLegacyListAddsTwice() {
    ///         expectFindings(["broadcast-as-command"])              // demonstrates a bug
    ///         …
    ///     }
    /// }
    /// ```
    ///
    /// `setUp`, the test and `tearDown` run in the scope; then the harness is
    /// analysed and every finding at or above the threshold that is neither
    /// expected nor allowed fails the test at the line of the app that caused
    /// it, with the rule id and the fix. The report — JSON, and Markdown and
    /// HTML with each finding's sequence diagram (and the trace, when asked) —
    /// is written to the folder `OBSERVER_HARNESS_ARTIFACTS` names
    /// (default: `observer-harness-artifacts` in the temporary folder), and
    /// each failure message gives its path.
    ///
    /// Override ``observerHarnessOptions`` for the class; change
    /// ``harnessOptions`` in a test for that test alone. What neither sets,
    /// `OBSERVER_HARNESS_FAIL_ON` and `OBSERVER_HARNESS_KEEP_REPORTS` set for
    /// the whole run (see ``ObserverHarnessOptions``).
    open class ObserverHarnessTestCase: XCTestCase {
        /// The options every test of the class starts with. Override to change them:
        ///
        /// ```swift
        /// override class var observerHarnessOptions: ObserverHarnessOptions {
        ///     ObserverHarnessOptions(failingAt: .error)
        /// }
        /// ```
        open class var observerHarnessOptions: ObserverHarnessOptions { ObserverHarnessOptions() }

        /// The running test's options, read when it ends (`posts` and
        /// `isEnabled` when it starts).
        public var harnessOptions: ObserverHarnessOptions = ObserverHarnessOptions()

        /// The running test's harness, also `Harness.current` inside the test;
        /// nil outside a test, or when the options disable it.
        public private(set) var harness: Harness?

        private var expectationLocation: CodeLocation?

        /// Expects the test to demonstrate these findings (rule ids, repeats
        /// counted): the test fails, here, if one is missing, and not on them.
        public func expectFindings(
            _ rules: [String],
            fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
            column: UInt = #column
        ) {
            harnessOptions.expected = rules
            expectationLocation = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        }

        open override func invokeTest() {
            harnessOptions = Self.observerHarnessOptions
            guard harnessOptions.isEnabled else { return super.invokeTest() }
            let run = HarnessedTest(named: name, posts: harnessOptions.posts, parallel: false)
            harness = run.harness
            defer { harness = nil }
            run.run { super.invokeTest() }
            finish(run)
        }

        private func finish(_ run: HarnessedTest) {
            // The options as the test left them.
            guard let outcome = run.finish(harnessOptions), outcome.keepsReports else { return }
            let written = writeArtifacts(run.artifacts(for: outcome, named: artifactFileName(name), harnessOptions))
            for failure in outcome.failures {
                let message = failure.message + "\n" + written
                if let location = failure.location ?? expectationLocation {
                    ObserverHarnessTesting.recordFailure(message, at: location)
                } else {
                    XCTFail(message)
                }
            }
        }

        /// Writes the artifacts to the folder of this test class; says where.
        private func writeArtifacts(_ artifacts: [ReportArtifact]) -> String {
            let folder = artifactsFolder().appendingPathComponent(artifactFileName("\(type(of: self))"))
            var lines: [String] = []
            for artifact in artifacts {
                ReportArtifact.observer?(artifact)
                let file = folder.appendingPathComponent(artifact.name)
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try Data(artifact.bytes).write(to: file, options: .atomic)
                    lines.append("observer harness report written to \(file.path)")
                } catch {
                    lines.append("could not write \(file.path): \(error.localizedDescription)")
                }
            }
            return lines.joined(separator: "\n")
        }
    }
#endif
