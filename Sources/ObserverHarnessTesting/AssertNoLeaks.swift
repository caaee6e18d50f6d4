import ObserverHarness

/// Fails for every object the test said it released
/// (``Harness/noteReleased(_:fileID:filePath:line:column:)``) that is still
/// alive, naming the registration or delegate slot that keeps it and the
/// chain of strong references that reaches it — the observer analogue of
/// LeakCanary's `assertNoLeaks` and its leak trace.
///
/// ```swift
/// var screen: ProfileScreen? = ProfileScreen(manager: manager)
/// harness.noteReleased(screen!)
/// screen = nil
/// assertNoLeaks(harness)   // fails at the manager's addObserver line if its list holds screens strongly
/// ```
public func assertNoLeaks(
    _ harness: Harness,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let here = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let leaks = harness.outlivingObjects()
    // Told once: the end-of-test check and a later `assertFindings` leave them out.
    harness.noteLeaksReported(leaks)
    for leak in leaks {
        recordFailure(leak.failureMessage, at: leak.site?.codeLocation ?? here)
    }
}
