import Foundation
import Testing

@testable import ObserverHarness

/// A subject typed messages are posted about.
final class LiveCart: Sendable {}

/// Delivered synchronously, on the main actor.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
struct LiveCartDidChange: NotificationCenter.MainActorMessage {
    typealias Subject = LiveCart
    let count: Int
}

/// Delivered later, off the posting thread.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
struct LiveCartSynced: NotificationCenter.AsyncMessage {
    typealias Subject = LiveCart
    let revision: Int
}

/// Counts from any thread.
final class LiveCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
    var values: [Int] { lock.withLock { storage } }
}

extension Live {
    /// Foundation's typed messages on the drop-in: delivery as Foundation's,
    /// and `discarded-token` told apart by token kind.
    @Suite struct TypedMessages {
        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test func aTypedTokenDroppedAtOnceIsReportedBecauseItsObserverNeverFires() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let cart = LiveCart()
            let counter = LiveCounter()
            let addLine: UInt = #line + 1
            _ = center.addObserver(of: cart, for: LiveCartDidChange.self) { message in counter.append(message.count) }
            center.post(LiveCartDidChange(count: 1), subject: cart)

            #expect(counter.values.isEmpty, "Foundation removes the observer with its token")
            let finding = try #require(harness.analyze().live("discarded-token").first)
            #expect(finding.site?.line == Int(addLine))
            #expect(finding.message.contains("never fires"))
            #expect(finding.channel == MessageRegistry.channel(LiveCartDidChange.self))
            // (and unobserved-post, a note: the post reached nobody)
            #expect(harness.analyze().findings.filter { $0.severity != .note }.count == 1)
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test func aStoredTypedTokenDeliversSynchronouslyAndIsClean() {
            let harness = Harness()
            let center = harness.notificationCenter()
            let cart = LiveCart()
            let counter = LiveCounter()
            let token = center.addObserver(of: cart, for: LiveCartDidChange.self) { message in
                counter.append(message.count)
            }
            center.post(LiveCartDidChange(count: 1), subject: cart)
            center.post(LiveCartDidChange(count: 2), subject: LiveCart())  // another subject: not delivered
            #expect(counter.values == [1])
            center.removeObserver(token)
            center.post(LiveCartDidChange(count: 3), subject: cart)

            #expect(counter.values == [1])
            #expect(
                harness.analyze().findings.filter { $0.severity != .note }.isEmpty,
                "\(harness.analyze().findings.map(\.message))")
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test func aTypedTokenLetGoWithItsOwnerAfterUseIsClean() {
            final class Badge {
                var token: NotificationCenter.ObservationToken?
            }
            let harness = Harness()
            let center = harness.notificationCenter()
            let cart = LiveCart()
            let counter = LiveCounter()
            var badge: Badge? = Badge()
            badge?.token = center.addObserver(of: cart, for: LiveCartDidChange.self) { counter.append($0.count) }
            center.post(LiveCartDidChange(count: 1), subject: cart)
            badge = nil  // the token goes with its owner: the observation ends
            center.post(LiveCartDidChange(count: 2), subject: cart)

            #expect(counter.values == [1])
            #expect(harness.analyze().live("discarded-token").isEmpty)
            #expect(center.messageRegistry.store.activeCount == 0)
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test func aClassicTokenDroppedIsStillReportedAsNeverRemovable() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let addLine: UInt = #line + 1
            _ = center.addObserver(forName: .liveSettingsChanged, object: nil, queue: nil) { _ in }

            let finding = try #require(harness.analyze().live("discarded-token").first)
            #expect(finding.site?.line == Int(addLine))
            #expect(finding.message.contains("can never be removed"))
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test func removingATypedTokenTwiceIsAnUnbalancedRemoval() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let token = center.addObserver(of: LiveCart.self, for: .liveCartDidChange) { _ in }
            center.removeObserver(token)
            let secondLine: UInt = #line + 1
            center.removeObserver(token)

            let finding = try #require(harness.analyze().live("unbalanced-removal").first)
            #expect(finding.site?.line == Int(secondLine))
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test func anAsyncMessageIsDeliveredLaterAndSettleWaitsForIt() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            let cart = LiveCart()
            let counter = LiveCounter()
            let token = center.addObserver(of: cart, for: LiveCartSynced.self) { message in
                counter.append(message.revision)
            }
            center.post(LiveCartSynced(revision: 7), subject: cart)
            center.post(LiveCartSynced(revision: 8))  // no subject: reaches only subject-less observers

            #expect(await harness.settle())
            #expect(counter.values == [7])
            center.removeObserver(token)
            let kinds = harness.recording().events.map(\.kind)
            #expect(kinds.filter { $0 == .deliver }.count == 1)
            #expect(kinds.lastIndex(of: .remove)! > kinds.lastIndex(of: .deliver)!)
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test func anAsyncTypedTokenDroppedAtOnceNeverFires() async throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let counter = LiveCounter()
            _ = center.addObserver(of: LiveCart.self, for: .liveCartSynced) { message in
                counter.append(message.revision)
            }
            center.post(LiveCartSynced(revision: 1), subject: LiveCart())

            #expect(await harness.settle())
            #expect(counter.values.isEmpty)
            #expect(harness.analyze().live("discarded-token").count == 1)
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test func typedAndClassicPostsNeverMeet() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            let counter = LiveCounter()
            let classic = center.addObserver(
                forName: Notification.Name(MessageRegistry.channel(LiveCartSynced.self)),
                object: nil, queue: nil
            ) { _ in counter.append(0) }
            center.post(LiveCartSynced(revision: 1))
            #expect(await harness.settle())
            #expect(counter.values.isEmpty)
            center.removeObserver(classic)
        }
    }
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension NotificationCenter.MessageIdentifier
where Self == NotificationCenter.BaseMessageIdentifier<LiveCartDidChange> {
    static var liveCartDidChange: Self { .init() }
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension NotificationCenter.MessageIdentifier
where Self == NotificationCenter.BaseMessageIdentifier<LiveCartSynced> {
    static var liveCartSynced: Self { .init() }
}
