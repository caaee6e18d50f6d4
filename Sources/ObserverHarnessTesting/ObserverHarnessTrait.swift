#if canImport(Testing)
    import ObserverHarness
    import Testing

    /// Runs each test — each case of a parameterized test, each repetition —
    /// inside a fresh harness's scope, and fails it on its findings at the
    /// app's lines. One line adopts it for a whole suite:
    ///
    /// ```swift
    /// @Suite(.observerHarness) struct CheckoutTests {
    ///     @Test func oneTapAddsOnce() { … }                       // unchanged
    ///     @Test(.observerHarness(expecting: ["broadcast-as-command"]))
    ///     func legacyListAddsTwice() { … }                          // demonstrates a bug
    /// }
    /// ```
    ///
    /// At the end of each test — once every task the test's tracked objects
    /// keep has opened its `for await` loop, finished or been cancelled — the
    /// harness is analysed; every finding at or above the threshold that is
    /// neither expected nor allowed is an issue at the line of the app that
    /// caused it, with the rule id and the fix, and the report — JSON, and
    /// Markdown and HTML with each finding's sequence diagram (the trace too,
    /// when asked) — is attached to the test (`swift test --attachments-path
    /// DIR` writes it to `DIR`). The test reaches its harness as `Harness.current`.
    ///
    /// A test's own `.observerHarness(…)` refines its suite's: options it
    /// names replace the suite's, allow-lists add up. A test that calls
    /// `assertFindings` on `Harness.current` has checked its findings itself,
    /// and the trait does not check them again.
    public struct ObserverHarnessTrait: SuiteTrait, TestTrait, TestScoping {
        // What this trait says; nil leaves it to an enclosing one or the default.
        var isEnabled: Bool?
        var threshold: Severity?
        var failsOnFindings: Bool?
        var expected: [String]?
        var allowed: [FindingAllowance] = []
        var posts: Harness.PostThread?
        var attachesTrace: Bool?
        var keepsEveryReport: Bool?

        /// Every test of a suite, and of its nested suites, gets its own harness.
        public var isRecursive: Bool { true }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            // A suite's trait and a test's own one both scope the test: the
            // outer applies them all, the inner stands back.
            guard HarnessedTest.running == nil else { return try await function() }
            let options = options(for: test)
            guard options.isEnabled else { return try await function() }
            let run = HarnessedTest(named: test.displayName ?? test.name, posts: options.posts, parallel: true)
            var thrown: (any Error)?
            do {
                try await run.run { try await function() }
            } catch {
                thrown = error  // still check the findings: they may explain the error
            }
            // A loop whose task had not run yet when the test released its owner opens now.
            await run.harness.awaitHeldTasksStarted()
            Self.finish(run, of: test, options)
            if let thrown { throw thrown }
        }

        /// The options of every `.observerHarness` on the test, outermost
        /// (the suite's) first; this one alone when called directly.
        func options(for test: Test) -> ObserverHarnessOptions {
            var traits = test.traits.compactMap { $0 as? ObserverHarnessTrait }
            if traits.isEmpty { traits = [self] }
            var options = ObserverHarnessOptions()
            for trait in traits {
                if let isEnabled = trait.isEnabled { options.isEnabled = isEnabled }
                if let threshold = trait.threshold {
                    options.threshold = threshold
                    options.failsOnFindings = trait.failsOnFindings ?? true
                }
                if let expected = trait.expected { options.expected = expected }
                options.allowed += trait.allowed
                if let posts = trait.posts { options.posts = posts }
                if let attachesTrace = trait.attachesTrace { options.attachesTrace = attachesTrace }
                if let keepsEveryReport = trait.keepsEveryReport { options.keepsEveryReport = keepsEveryReport }
            }
            return options
        }

        private static func finish(_ run: HarnessedTest, of test: Test, _ options: ObserverHarnessOptions) {
            guard let outcome = run.finish(options), outcome.keepsReports else { return }
            for failure in outcome.failures {
                if let location = failure.location {
                    recordFailure(failure.message, at: location)
                } else {
                    Issue.record(Comment(rawValue: failure.message), sourceLocation: test.sourceLocation)
                }
            }
            for artifact in run.artifacts(for: outcome, named: artifactFileName(test.name), options) {
                Attachment.record(artifact.bytes, named: artifact.name, sourceLocation: test.sourceLocation)
                ReportArtifact.observer?(artifact)
            }
        }
    }

    extension Trait where Self == ObserverHarnessTrait {
        /// Each test under its own harness, failing on errors and warnings.
        ///
        /// ```swift
        /// @Suite(.observerHarness) struct CheckoutTests { … }
        /// ```
        public static var observerHarness: Self { ObserverHarnessTrait() }

        /// Each test under its own harness, with what this suite or test needs.
        /// Options left out keep an enclosing suite's setting, or the default.
        ///
        /// ```swift
        /// @Test(.observerHarness(expecting: ["broadcast-as-command"]))
        /// @Test(.observerHarness(failingAt: .note, allowing: [.site("LegacyProductList.swift")]))
        /// @Test(.observerHarness(posts: .background))
        /// @Test(.observerHarness(isEnabled: false))
        /// ```
        ///
        /// - Parameters:
        ///   - threshold: Findings this severe or more fail the test (default `.warning`).
        ///   - expected: Rule ids the test demonstrates, repeats counted: each
        ///     must be reported that many times, and does not fail the test.
        ///   - allowed: Findings tolerated, by rule (a string), `.site(…)` or
        ///     `.rule(_:at:)`; added to an enclosing suite's.
        ///   - posts: Which thread the harness's centers post on (default `.caller`).
        ///   - attachesTrace: Attach the trace beside the report on failure (default false).
        ///   - isEnabled: False runs the test without a harness.
        ///   - keepsEveryReport: Attach the reports of passing tests too (default false).
        ///
        /// `threshold` and `keepsEveryReport`, left out here and in the
        /// enclosing suites, come from `OBSERVER_HARNESS_FAIL_ON` and
        /// `OBSERVER_HARNESS_KEEP_REPORTS` (see ``ObserverHarnessOptions``).
        public static func observerHarness(
            failingAt threshold: Severity? = nil, expecting expected: [String]? = nil,
            allowing allowed: [FindingAllowance] = [], posts: Harness.PostThread? = nil,
            attachingTrace attachesTrace: Bool? = nil, isEnabled: Bool? = nil,
            keepingEveryReport keepsEveryReport: Bool? = nil
        ) -> Self {
            ObserverHarnessTrait(
                isEnabled: isEnabled, threshold: threshold, expected: expected, allowed: allowed, posts: posts,
                attachesTrace: attachesTrace, keepsEveryReport: keepsEveryReport)
        }

        /// Each test under a harness with every option of `options` (allow-lists still add up).
        public static func observerHarness(_ options: ObserverHarnessOptions) -> Self {
            ObserverHarnessTrait(
                isEnabled: options.isEnabled, threshold: options.threshold, failsOnFindings: options.failsOnFindings,
                expected: options.expected, allowed: options.allowed, posts: options.posts,
                attachesTrace: options.attachesTrace, keepsEveryReport: options.keepsEveryReport)
        }
    }
#endif
