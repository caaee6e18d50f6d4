// Test support: leaves nothing running after a test that shows a leaking loop.
import ObserverHarness
import Testing

@testable import ObserverHarnessTesting

/// Once the harness has checked a test's findings, cancels the tasks the
/// test's tracked objects keep: a loop a test shows leaking must still run
/// when the check looks, and must not outlive the test run (LeakSanitizer
/// would report its task). Put it before `.observerHarness`, so that it is
/// the outer scope.
struct CancellingTrackedTasks: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await HarnessedTest.$finished.withValue({ $0.cancelHeldTasks() }, operation: { try await function() })
    }
}

extension Trait where Self == CancellingTrackedTasks {
    static var cancellingTrackedTasks: Self { CancellingTrackedTasks() }
}
