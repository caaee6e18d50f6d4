import Foundation
import Testing

@testable import ObserverHarness

/// Where Foundation's center has a sharp edge, the drop-in behaves the same
/// (or, where it cannot without being unsafe, reports the edge as a finding).
/// Each behaviour runs side by side on Foundation's `NotificationCenter`.
@Suite struct FoundationParityTests {
    typealias Log = RegistryFixtures.Log
    private let tap = Notification.Name("Tap")

    // MARK: Value objects

    @Test func valueFilterMatchesOnlyWhatBoxesToTheSameObjectAsInFoundation() {
        let tap = self.tap
        let result = RegistryFixtures.sideBySide { shared, log in
            let byString = shared.base.addObserver(forName: tap, object: "cart-1", queue: nil) { _ in
                log.append("string filter")
            }
            // A small integer boxes to one cached number in Foundation.
            let bySmallNumber = shared.base.addObserver(forName: tap, object: 3, queue: nil) { _ in
                log.append("number filter")
            }
            shared.base.post(name: tap, object: "cart-1")
            shared.base.post(name: tap, object: 3)
            shared.base.post(name: tap, object: nil)
            shared.base.removeObserver(byString)
            shared.base.removeObserver(bySmallNumber)
        }
        #expect(result.foundation == ["number filter"])
        #expect(result.ours == result.foundation)
    }

    @Test func valueGivenToARemovalRemovesNothingAsInFoundation() {
        let tap = self.tap
        let result = RegistryFixtures.sideBySide { shared, log in
            let token = shared.base.addObserver(forName: tap, object: "cart-1", queue: nil) { _ in }
            let unfiltered = shared.base.addObserver(forName: tap, object: nil, queue: nil) { _ in log.append("got") }
            shared.base.removeObserver(unfiltered, name: tap, object: "cart-1")
            shared.base.post(name: tap, object: nil)
            shared.base.removeObserver(unfiltered)
            shared.base.post(name: tap, object: nil)
            shared.base.removeObserver(token)
        }
        #expect(result.foundation == ["got"])
        #expect(result.ours == result.foundation)
    }

    // MARK: Queues

    @Test func blockWhoseQueueNothingKeepsNeverRunsAndIsReported() throws {
        let tap = self.tap
        let result = RegistryFixtures.sideBySide { shared, log in
            let token = shared.base.addObserver(forName: tap, object: nil, queue: OperationQueue()) { _ in
                log.append("ran")
            }
            shared.base.post(name: tap, object: nil)
            log.append("posted")
            shared.base.removeObserver(token)
        }
        #expect(result.foundation == ["posted"])
        #expect(result.ours == result.foundation)
        let finding = try #require(result.recording.analyze().findings.first { $0.rule == "dangling-registration" })
        #expect(finding.message.contains("holds a block's queue weakly"), "\(finding.message)")
        // The post the block first missed, from the skip's delivery.
        #expect(
            finding.message.contains("(first skipped at ObserverHarnessTests/FoundationParityTests.swift:58)"),
            "\(finding.message)")
        #expect(finding.objects.count == 2)
    }

    @Test func blockWhoseQueueIsKeptRunsAndIsNotReported() {
        let tap = self.tap
        let queue = OperationQueue()
        let result = RegistryFixtures.sideBySide { shared, log in
            let token = shared.base.addObserver(forName: tap, object: nil, queue: queue) { _ in log.append("ran") }
            shared.base.post(name: tap, object: nil)
            shared.base.removeObserver(token)
        }
        #expect(result.foundation == ["ran"])
        #expect(result.ours == result.foundation)
        #expect(!result.recording.analyze().findings.contains { $0.rule == "dangling-registration" })
    }

    @Test func postWaitsForEveryOperationOnTheQueueAsInFoundation() {
        let tap = self.tap
        let result = RegistryFixtures.sideBySide { shared, log in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 2
            let postReturned = DispatchSemaphore(value: 0)
            // Other work already on the queue. It can only learn that post
            // returned if post did not wait for it; a post that waits (as
            // Foundation's does) sees it give up first. The timeout bounds
            // the test; the outcome does not depend on it.
            queue.addOperation {
                let sawReturn = postReturned.wait(timeout: .now() + 0.3) == .success
                log.append(sawReturn ? "other work saw post return" : "other work finished first")
            }
            let token = shared.base.addObserver(forName: tap, object: nil, queue: queue) { _ in
                log.append("block ran")
            }
            shared.base.post(name: tap, object: nil)
            log.append("post returned")
            postReturned.signal()
            queue.waitUntilAllOperationsAreFinished()
            shared.base.removeObserver(token)
        }
        #expect(result.foundation.last == "post returned")
        #expect(Set(result.foundation) == ["block ran", "other work finished first", "post returned"])
        #expect(result.ours.last == "post returned")
        #expect(Set(result.ours) == Set(result.foundation))
    }

    // MARK: Lifetimes

    final class Canary: Sendable {}

    @Test func releasedCenterFreesItsBlocksThoughATokenIsKept() {
        for makeCenter in centerFactories() {
            weak var canary: Canary?
            var token: (any NSObjectProtocol)?
            do {
                let center = makeCenter()
                let captured = Canary()
                canary = captured
                token = center.addObserver(forName: tap, object: nil, queue: nil) { _ in _ = captured }
            }
            #expect(canary == nil, "the center's blocks outlived it")
            #expect(token != nil)
        }
    }

    @Test func keptCenterKeepsItsBlocks() {
        for makeCenter in centerFactories() {
            weak var canary: Canary?
            let center = makeCenter()
            var token: (any NSObjectProtocol)?
            do {
                let captured = Canary()
                canary = captured
                token = center.addObserver(forName: tap, object: nil, queue: nil) { _ in _ = captured }
            }
            #expect(canary != nil)
            center.removeObserver(token!)
            token = nil
            #expect(canary == nil, "removing the token frees the block")
        }
    }

    private func centerFactories() -> [() -> any NotificationCenterProtocol] {
        let harness = Harness()
        return [{ NotificationCenter() }, { harness.notificationCenter() }]
    }

    // MARK: Hazards reported rather than reproduced

    @Test func tokenRemovedTwiceIsReportedAndRemovesNothingNewer() throws {
        let harness = Harness()
        let center = harness.notificationCenter()
        let log = Log()
        let first = center.addObserver(forName: tap, object: nil, queue: nil) { _ in }
        center.removeObserver(first)
        let second = center.addObserver(forName: tap, object: nil, queue: nil) { _ in log.append("second") }
        let line = #line + 1
        center.removeObserver(first)
        center.post(name: tap, object: nil)
        center.removeObserver(second)
        #expect(log.entries == ["second"], "Foundation on Linux would have removed the second registration")
        let finding = try #require(harness.analyze().findings.first { $0.rule == "unbalanced-removal" })
        #expect(finding.site?.line == line)
        #expect(finding.message.contains("already removed"), "\(finding.message)")
    }

    @Test func tokenRemovedOnceIsNotReported() {
        let harness = Harness()
        let center = harness.notificationCenter()
        let token = center.addObserver(forName: tap, object: nil, queue: nil) { _ in }
        center.post(name: tap, object: nil)
        center.removeObserver(token)
        #expect(!harness.analyze().findings.contains { $0.rule == "unbalanced-removal" })
    }

    @Test func anotherCentersTokenIsReportedAndRemovesNothingHere() throws {
        let harness = Harness()
        let center = harness.notificationCenter("center")
        let other = harness.notificationCenter("other")
        let log = Log()
        let here = center.addObserver(forName: tap, object: nil, queue: nil) { _ in log.append("here") }
        let foreign = other.addObserver(forName: tap, object: nil, queue: nil) { _ in }
        let line = #line + 1
        center.removeObserver(foreign)
        center.post(name: tap, object: nil)
        center.removeObserver(here)
        other.removeObserver(foreign)
        #expect(log.entries == ["here"], "Foundation on Linux would have removed the registration with the same key")
        let finding = try #require(harness.analyze().findings.first { $0.rule == "unbalanced-removal" })
        #expect(finding.site?.line == line)
        #expect(finding.message.contains("another center"), "\(finding.message)")
    }

    @Test func freedFilterObjectIsReportedAndItsAddressMatchesNothingNew() throws {
        let harness = Harness()
        let center = harness.notificationCenter()
        let log = Log()
        var sender: RegistryFixtures.Sender? = RegistryFixtures.Sender("a")
        let token = center.addObserver(forName: tap, object: sender, queue: nil) { _ in log.append("got") }
        sender = nil
        // Whatever address a new sender gets, it is not the freed one's identity.
        for _ in 0..<8 { center.post(name: tap, object: RegistryFixtures.Sender("b")) }
        center.removeObserver(token)
        #expect(log.entries.isEmpty)
        #expect(harness.analyze().findings.contains { $0.rule == "observed-object-deallocated" })
    }

    // MARK: Substitutability

    @Test func centersAreEqualAndHashedByIdentity() {
        let harness = Harness()
        let center = harness.notificationCenter()
        let same = center
        let other = harness.notificationCenter()
        #expect(center == same)
        #expect(center != other)
        #expect(Set([center, same, other]).count == 2)
        #expect(NotificationCenter.default == NotificationCenter.default, "Foundation's is Equatable too")
    }
}
