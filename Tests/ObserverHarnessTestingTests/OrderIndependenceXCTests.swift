import ObserverHarness
import ObserverHarnessTesting
import XCTest

/// `assertOrderIndependent` from an XCTest suite: failures go through
/// `XCTFail` at the receivers' registration lines.
final class OrderIndependenceXCTests: XCTestCase {
    private struct Failure {
        let description: String
        let file: String
        let line: Int
    }

    private var captured: [Failure]?

    func testConflictingReceiversAreReportedAtTheirRegistrations() {
        let failures = capturingFailures {
            assertOrderIndependent { LoginScene.bannerText($0, bannerReadsCache: true) }
        }
        XCTAssertEqual(failures.map(\.line), [LoginScene.cacheLine, LoginScene.bannerLine])
        XCTAssertTrue(failures.allSatisfy { $0.file.hasSuffix("OrderIndependenceTests.swift") })
        XCTAssertTrue(
            failures.allSatisfy {
                $0.description.contains(#"it returns "Welcome back, ada" when block#1"#)
                    && $0.description.contains(#", "Welcome" when block#2"#)
            }, failures.first?.description ?? "no failure")
    }

    func testReceiversReadingTheNotificationAreQuiet() {
        let failures = capturingFailures {
            assertOrderIndependent { LoginScene.bannerText($0, bannerReadsCache: false) }
        }
        XCTAssertEqual(failures.count, 0)
    }

    func testCommutingReceiversNeedOneReversedRun() {
        let failures = capturingFailures { assertOrderIndependent(LoginScene.screensReadingTheCache) }
        XCTAssertEqual(failures.count, 0)
        XCTAssertEqual(checkOrderIndependence(LoginScene.screensReadingTheCache).runs, 2)
    }

    private func capturingFailures(_ body: () -> Void) -> [Failure] {
        captured = []
        body()
        defer { captured = nil }
        return captured ?? []
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
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
            expected: Bool
        ) {
            guard captured != nil else {
                return super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber,
                    expected: expected)
            }
            captured?.append(Failure(description: description, file: filePath, line: lineNumber))
        }
    #endif
}
