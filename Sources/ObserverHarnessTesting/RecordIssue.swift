// The one place that knows which test framework is running.
import ObserverHarness

#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// Reports one test failure at `location` through Swift Testing when a Swift
/// Testing test is running on this task. Off every test's task (an assertion
/// made from a queue) the framework cannot be told, so both hear it: Swift
/// Testing fails the run with an issue of no test, XCTest fails the test it
/// is running, and each drops what is not its own. Never lost.
func recordFailure(_ message: String, at location: CodeLocation) {
    #if canImport(Testing)
        // Swift Testing stops the process on a location that is not a line of
        // source: such a failure is told at the running test instead.
        let sourceLocation =
            CallSite.isSourceLine(location)
            ? Testing.SourceLocation(
                fileID: "\(location.fileID)", filePath: "\(location.filePath)",
                line: Int(location.line), column: Int(max(location.column, 1)))
            : Test.current?.sourceLocation
        if let sourceLocation {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        } else {
            Issue.record(Comment(rawValue: message))
        }
        if Test.current != nil { return }
    #endif
    #if canImport(XCTest)
        XCTFail(message, file: location.filePath, line: location.line)
    #elseif !canImport(Testing)
        print("\(location.fileID):\(location.line): error: \(message)")
    #endif
}
