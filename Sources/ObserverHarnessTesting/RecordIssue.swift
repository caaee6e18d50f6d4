// The one place that knows which test framework is running.
import ObserverHarness

#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// Reports one test failure at `location` through Swift Testing when a Swift
/// Testing test is running, otherwise through XCTest.
func recordFailure(_ message: String, at location: CodeLocation) {
    #if canImport(Testing)
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: Testing.SourceLocation(
                    fileID: "\(location.fileID)", filePath: "\(location.filePath)",
                    line: Int(location.line), column: Int(max(location.column, 1))))
            return
        }
    #endif
    #if canImport(XCTest)
        XCTFail(message, file: location.filePath, line: location.line)
    #else
        print("\(location.fileID):\(location.line): error: \(message)")
    #endif
}
