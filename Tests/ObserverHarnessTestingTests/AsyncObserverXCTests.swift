import Foundation
import ObserverHarness
import ObserverHarnessTesting
import XCTest

/// The async-observer rules from an XCTest suite, through the interface
/// (`Observers.center` inside `withObserverHarness`) as app code uses it.
final class AsyncObserverXCTests: XCTestCase {
    final class Cart: Sendable {}

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    struct CartDidChange: NotificationCenter.MainActorMessage {
        typealias Subject = Cart
        let count: Int
    }

    /// An app object that observes its cart with a typed message.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @MainActor final class Badge {
        private(set) var count = 0
        private var token: NotificationCenter.ObservationToken?

        init(cart: Cart, keepsToken: Bool) {
            let token = Observers.center.addObserver(of: cart, for: CartDidChange.self) { [weak self] message in
                self?.count = message.count
            }
            if keepsToken { self.token = token }
        }
    }

    @MainActor func testATypedTokenNotKeptIsADiscardedTokenWhoseObserverNeverFires() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip("typed messages need macOS 26")
        }
        let harness = Harness()
        let cart = Cart()
        let badge = withObserverHarness(harness) {
            let badge = Badge(cart: cart, keepsToken: false)
            Observers.center.post(CartDidChange(count: 3), subject: cart)
            return badge
        }
        XCTAssertEqual(badge.count, 0)
        let report = assertFindings(harness, .exactly(["discarded-token"]))
        XCTAssertEqual(report.findings.first { $0.rule == "discarded-token" }?.message.contains("never fires"), true)
    }

    @MainActor func testATypedTokenKeptByItsOwnerIsClean() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip("typed messages need macOS 26")
        }
        let harness = Harness()
        let cart = Cart()
        let badge = withObserverHarness(harness) {
            let badge = Badge(cart: cart, keepsToken: true)
            Observers.center.post(CartDidChange(count: 3), subject: cart)
            return badge
        }
        XCTAssertEqual(badge.count, 3)
        assertFindings(harness, .none())
    }

    // MARK: async-observer-outlives-owner

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    struct CartSynced: NotificationCenter.AsyncMessage {
        typealias Subject = Cart
        let revision: Int
    }

    /// Follows its cart's syncs with a `for await` loop over `Observers.center`.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    final class SyncStatus: @unchecked Sendable {
        private(set) var task: Task<Void, Never>?
        private let cancelsInDeinit: Bool

        init(cart: Cart, cancelsInDeinit: Bool) {
            self.cancelsInDeinit = cancelsInDeinit
            task = Task { [weak self] in
                for await _ in Observers.center.messages(of: cart, for: CartSynced.self, owner: self) {
                    _ = self
                }
            }
        }

        deinit {
            if cancelsInDeinit { task?.cancel() }
        }
    }

    func testALoopNobodyCancelsOutlivesItsOwner() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip("typed messages need macOS 26")
        }
        let harness = Harness()
        let cart = Cart()
        let task: Task<Void, Never>? = await withObserverHarness(harness) {
            var status: SyncStatus? = SyncStatus(cart: cart, cancelsInDeinit: false)
            await harness.settle(loopsOpened: 1)
            let task = status?.task
            status = nil
            return task
        }
        let settled = await harness.settle(maxTurns: 100)
        XCTAssertFalse(settled)
        assertFindings(harness, .exactly(["async-observer-outlives-owner"]))
        task?.cancel()
        await task?.value
    }

    func testALoopCancelledInItsOwnersDeinitIsClean() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip("typed messages need macOS 26")
        }
        let harness = Harness()
        let cart = Cart()
        await withObserverHarness(harness) {
            var status: SyncStatus? = SyncStatus(cart: cart, cancelsInDeinit: true)
            await harness.settle(loopsOpened: 1)
            Observers.center.post(CartSynced(revision: 1), subject: cart)
            let task = status?.task
            status = nil
            await task?.value
        }
        let settled = await harness.settle()
        XCTAssertTrue(settled)
        assertFindings(harness, .none())
    }

    // MARK: message-dropped

    func testAConsumerThatFallsBehindLosesMessages() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip("typed messages need macOS 26")
        }
        let harness = Harness()
        let cart = Cart()
        let revisions: [Int] = await withObserverHarness(harness) {
            var iterator = Observers.center.messages(of: cart, for: CartSynced.self, bufferSize: 1).makeAsyncIterator()
            Observers.center.post(CartSynced(revision: 1), subject: cart)
            Observers.center.post(CartSynced(revision: 2), subject: cart)
            return [await iterator.next()?.revision ?? 0]
        }
        XCTAssertEqual(revisions, [2])
        assertFindings(harness, .exactly(["message-dropped"]))
    }

    func testAConsumerThatKeepsUpLosesNothing() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip("typed messages need macOS 26")
        }
        let harness = Harness()
        let cart = Cart()
        let revisions: [Int] = await withObserverHarness(harness) {
            var iterator = Observers.center.messages(of: cart, for: CartSynced.self, bufferSize: 1).makeAsyncIterator()
            Observers.center.post(CartSynced(revision: 1), subject: cart)
            let first = await iterator.next()?.revision ?? 0
            Observers.center.post(CartSynced(revision: 2), subject: cart)
            return [first, await iterator.next()?.revision ?? 0]
        }
        XCTAssertEqual(revisions, [1, 2])
        assertFindings(harness, .none())
    }
}
