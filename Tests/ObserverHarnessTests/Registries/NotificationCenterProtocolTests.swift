import Foundation
import Testing

@testable import ObserverHarness

@Suite struct NotificationCenterProtocolTests {
    /// Production-style code that only knows the protocol.
    final class CartBadge: @unchecked Sendable {
        private let center: any NotificationCenterProtocol
        private var token: (any NSObjectProtocol)?
        private let lock = NSLock()
        private var storedCount = 0
        var count: Int { lock.withLock { storedCount } }

        init(center: any NotificationCenterProtocol, name: Notification.Name) {
            self.center = center
            token = center.addObserver(forName: name, object: nil, queue: nil) { [unowned self] notification in
                let added = notification.userInfo?["added"] as? Int ?? 1
                lock.withLock { storedCount += added }
            }
        }

        func stop() {
            if let token { center.removeObserver(token) }
            token = nil
        }
    }

    @Test func codeWrittenAgainstTheProtocolBehavesTheSameWithFoundationAndOurs() {
        let name = Notification.Name("CartDidChange-\(UUID().uuidString)")
        let harness = Harness()
        let centers: [any NotificationCenterProtocol] = [
            NotificationCenter.default, NotificationCenter(),
            harness.notificationCenter(),
        ]
        for center in centers {
            let badge = CartBadge(center: center, name: name)
            center.post(name: name, object: nil)
            center.post(Notification(name: name, object: nil, userInfo: ["added": 2]))
            badge.stop()
            center.post(name: name, object: nil)
            #expect(badge.count == 3, "\(type(of: center))")
        }
        #expect(harness.recording().recordedCount(.deliver) == 2)
    }

    @Test func callsThroughTheProtocolRecordTheCallersLine() throws {
        let harness = Harness()
        let center: any NotificationCenterProtocol = harness.notificationCenter()
        let name = Notification.Name("Tap")
        let addLine = #line + 1
        var token: (any NSObjectProtocol)? = center.addObserver(forName: name, object: nil, queue: nil) { _ in }
        let postLine = #line + 1
        center.post(name: name, object: nil)
        let postNotificationLine = #line + 1
        center.post(Notification(name: name))
        let removeLine = #line + 1
        center.removeObserver(try #require(token), name: name, object: nil)
        let unmatchedRemoveLine = #line + 1
        center.removeObserver(try #require(token))
        token = nil
        _ = token

        let recording = harness.recording()
        func line(_ kind: EventKind, _ index: Int = 0) -> Int? {
            recording.site(recording.recordedEvents(kind)[index].event.site)?.line
        }
        #expect(line(.add) == addLine)
        #expect(line(.post, 0) == postLine)
        #expect(line(.post, 1) == postNotificationLine)
        #expect(line(.remove, 0) == removeLine)
        #expect(line(.remove, 1) == unmatchedRemoveLine)
        let file = recording.site(recording.recordedEvents(.add)[0].event.site)?.file
        #expect(file == "ObserverHarnessTests/NotificationCenterProtocolTests.swift")

        // A finding about those calls quotes the same lines.
        let report = recording.analyze()
        let unbalanced = try #require(report.findings.first { $0.rule == "unbalanced-removal" })
        #expect(unbalanced.site?.line == unmatchedRemoveLine)
        #expect(unbalanced.site?.codeLocation?.line == UInt(unmatchedRemoveLine))
        #expect("\(try #require(unbalanced.site?.codeLocation).filePath)" == #filePath)
    }

    @Test func discardedTokenFindingPointsAtTheAddThroughTheProtocol() throws {
        let harness = Harness()
        let center: any NotificationCenterProtocol = harness.notificationCenter()
        let addLine = #line + 1
        _ = center.addObserver(forName: Notification.Name("Tap"), object: nil, queue: nil) { _ in }
        let finding = try #require(harness.analyze().findings.first { $0.rule == "discarded-token" })
        #expect(finding.site?.file == "ObserverHarnessTests/NotificationCenterProtocolTests.swift")
        #expect(finding.site?.line == addLine)
    }
}
