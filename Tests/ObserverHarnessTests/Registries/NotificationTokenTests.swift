import Foundation
import Testing

@testable import ObserverHarness

@Suite struct NotificationTokenTests {
    private let tap = Notification.Name("Tap")

    @Test func droppingTheLastReferenceToAnActiveTokenRecordsTokenDropped() throws {
        let harness = Harness()
        let center = harness.notificationCenter()
        weak var weakToken: AnyObject?
        do {
            let token = center.addObserver(forName: tap, object: nil, queue: nil) { _ in }
            weakToken = token
        }
        #expect(weakToken == nil)
        let recording = harness.recording()
        let add = try #require(recording.recordedEvents(.add).first).event
        let dropped = recording.recordedEvents(.tokenDropped)
        #expect(dropped.count == 1)
        #expect(dropped.first?.event.registration == add.registration)
        #expect(dropped.first?.event.object == add.object)
        // The registration lives on: a post still reaches the block, as in Foundation.
        center.post(name: tap, object: nil)
        #expect(harness.recording().recordedCount(.deliver) == 1)
        #expect(harness.analyze().findings.map(\.rule).contains("discarded-token"))
    }

    @Test func blockRegistrationsAreNamedInReportsAfterTheLineThatAddedThem() throws {
        let harness = Harness()
        let center = harness.notificationCenter()
        let first = center.addObserver(forName: tap, object: nil, queue: nil) { _ in
            harness.noteAction(.increment("cart.count"))
        }
        let firstLine = #line - 3
        let second = center.addObserver(forName: tap, object: nil, queue: nil) { _ in
            harness.noteAction(.increment("cart.count"))
        }
        let secondLine = #line - 3
        center.post(name: tap, object: nil)
        let finding = try #require(harness.analyze().findings.first { $0.rule == "broadcast-as-command" })
        #expect(
            finding.objects == [
                "block#1 (NotificationTokenTests.swift:\(firstLine))",
                "block#2 (NotificationTokenTests.swift:\(secondLine))",
            ])
        _ = (first, second)
    }

    @Test func droppingATokenAfterItsRemovalRecordsNothing() {
        let harness = Harness()
        let center = harness.notificationCenter()
        do {
            let token = center.addObserver(forName: tap, object: nil, queue: nil) { _ in }
            center.removeObserver(token)
        }
        let recording = harness.recording()
        #expect(recording.recordedCount(.tokenDropped) == 0)
        #expect(!harness.analyze().findings.map(\.rule).contains("discarded-token"))
    }

    @Test func aTokenStillHeldRecordsNothing() {
        let harness = Harness()
        let center = harness.notificationCenter()
        let token = center.addObserver(forName: tap, object: nil, queue: nil) { _ in }
        #expect(harness.recording().recordedCount(.tokenDropped) == 0)
        withExtendedLifetime(token) {}
    }

    @Test func aTokenFromAnotherCenterDoesNotRemoveFromThisOne() {
        let harness = Harness()
        let first = harness.notificationCenter("first")
        let second = harness.notificationCenter("second")
        let token = first.addObserver(forName: tap, object: nil, queue: nil) { _ in }
        second.removeObserver(token)
        #expect(first.registrationCount == 1)
        first.removeObserver(token)
        #expect(first.registrationCount == 0)
    }
}
