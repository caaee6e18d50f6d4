// Test support: a trait that expects the harness to fail a test.
import Foundation
import ObserverHarnessTesting
import Testing

/// Runs the test, and the scopes of the traits after it (`.observerHarness`),
/// inside `withKnownIssue`: exactly `count` issues must be recorded, each
/// satisfying `matches` given the report artifacts the test produced.
struct FailingTrait: TestTrait, TestScoping {
    let count: Int
    let matches: @Sendable (Issue, [ReportArtifact]) -> Bool

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let issues = Collected<Issue>(), artifacts = Collected<ReportArtifact>()
        let collect: @Sendable (ReportArtifact) -> Void = { artifacts.append($0) }
        try await ReportArtifact.$observer.withValue(collect) {
            try await withKnownIssue {
                try await function()
            } matching: { issue in
                issues.append(issue)
                return true
            }
        }
        let recorded = issues.all, attached = artifacts.all
        #expect(recorded.count == count, "the issues recorded: \(recorded)")
        for issue in recorded {
            #expect(matches(issue, attached), "unexpected: \(issue); artifacts: \(attached.map(\.name))")
        }
    }
}

extension Trait where Self == FailingTrait {
    static func failing(_ count: Int, matching: @escaping @Sendable (Issue, [ReportArtifact]) -> Bool) -> Self {
        FailingTrait(count: count, matches: matching)
    }
}

final class Collected<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []  // guarded by `lock`
    func append(_ element: Element) { lock.withLock { elements.append(element) } }
    var all: [Element] { lock.withLock { elements } }
}

/// Runs the test, and the scopes of the traits after it, as if the process's
/// environment were `variables` (the harness reads them through
/// `HarnessEnvironment.override`; the process is shared by parallel tests).
struct EnvironmentTrait: TestTrait, TestScoping {
    let variables: [String: String]

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await HarnessEnvironment.$override.withValue(variables) { try await function() }
    }
}

/// Runs the test, and the scopes of the traits after it, collecting the
/// report artifacts it produces; `check` must accept them.
struct ArtifactsTrait: TestTrait, TestScoping {
    let check: @Sendable ([ReportArtifact]) -> Bool

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let artifacts = Collected<ReportArtifact>()
        let collect: @Sendable (ReportArtifact) -> Void = { artifacts.append($0) }
        try await ReportArtifact.$observer.withValue(collect) { try await function() }
        #expect(check(artifacts.all), "artifacts: \(artifacts.all.map(\.name))")
    }
}

extension Trait where Self == EnvironmentTrait {
    static func environment(_ variables: [String: String]) -> Self { EnvironmentTrait(variables: variables) }
}

extension Trait where Self == ArtifactsTrait {
    static func artifacts(_ check: @escaping @Sendable ([ReportArtifact]) -> Bool) -> Self {
        ArtifactsTrait(check: check)
    }
}
