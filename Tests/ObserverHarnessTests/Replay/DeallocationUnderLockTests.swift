import Foundation
import Testing

@testable import ObserverHarness

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ReplayTests {
    /// A removal or a delegate assignment that drops the last strong reference
    /// to an object the scenario already released: the object deallocates, and
    /// its deinit records through the recorder. Once, the lock was still held
    /// then and the replay waited for itself forever.
    ///
    /// Each case runs in a child process that an alarm ends, so a regression
    /// fails the test instead of hanging the suite.
    @Suite struct DeallocationUnderLock {
        /// A `subject` holding `observer` strongly through a token, the app's
        /// reference released, then `ending` (the step that drops the last one).
        static func heldOnlyByTheRegistry(ending: String) -> InlineScenario {
            InlineScenario(
                """
                [
                  { "op": "create", "object": "observer" },
                  { "op": "observe", "registry": "subject", "observer": "observer", "token": "t",
                    "handler": [] },
                  { "op": "release", "object": "observer" },
                  \(ending)
                ]
                """, registries: #"{ "subject": { "kind": "subject", "hold": "strong" } }"#)
        }

        static let removalByToken = heldOnlyByTheRegistry(
            ending: #"{ "op": "remove", "registry": "subject", "token": "t" }"#)
        static let removalWhileHeld = InlineScenario(
            """
            [
              { "op": "create", "object": "observer" },
              { "op": "observe", "registry": "subject", "observer": "observer", "token": "t", "handler": [] },
              { "op": "remove", "registry": "subject", "token": "t" }
            ]
            """, registries: #"{ "subject": { "kind": "subject", "hold": "strong" } }"#)

        static let delegateReplaced = InlineScenario(
            """
            [
              { "op": "create", "object": "owner" },
              { "op": "create", "object": "delegate", "methods": { "deinit": [ { "increment": "freed" } ] } },
              { "op": "set-delegate", "registry": "slot", "owner": "owner", "delegate": "delegate" },
              { "op": "release", "object": "delegate" },
              { "op": "set-delegate", "registry": "slot", "owner": "owner", "delegate": null }
            ]
            """, registries: #"{ "slot": { "kind": "delegate", "hold": "strong" } }"#)

        /// The near miss: the scenario still holds the observer, so the removal frees nothing.
        @Test func removingByTokenWhileTheScenarioHoldsTheObserverFreesNothing() throws {
            let result = try Replay(Self.removalWhileHeld.parse(), schedule: Schedule()).run()
            #expect(result.objects(of: .dealloc).isEmpty)
            #expect(result.count(of: .remove) == 1)
        }

        // Exit tests do not exist on iOS, tvOS, watchOS or visionOS.
        #if os(macOS) || os(Linux) || os(Windows)
            /// Ends this process (the child of an exit test) if it is still running
            /// after a minute: a deadlock is a failure, not a hang.
            static func armWatchdog() { _ = alarm(60) }

            @Test func removingByTokenTheLastReferenceFreesTheObserver() async {
                await #expect(processExitsWith: .success) {
                    DeallocationUnderLock.armWatchdog()
                    let result = try Replay(DeallocationUnderLock.removalByToken.parse(), schedule: Schedule()).run()
                    #expect(result.objects(of: .dealloc) == ["observer"])
                }
            }

            @Test func replacingAStronglyHeldDelegateFreesItAndRunsItsDeinit() async {
                await #expect(processExitsWith: .success) {
                    DeallocationUnderLock.armWatchdog()
                    let result = try Replay(DeallocationUnderLock.delegateReplaced.parse(), schedule: Schedule()).run()
                    #expect(result.objects(of: .dealloc) == ["delegate"])
                    #expect(result.state["freed"] == "1")
                }
            }

            @Test func theWholeExplorationOfTheHangingScenarioFinishes() async {
                await #expect(processExitsWith: .success) {
                    DeallocationUnderLock.armWatchdog()
                    let report = try DeallocationUnderLock.removalByToken.report()
                    #expect(!report.findings.contains { $0.rule == "registration-keeps-observer-alive" })
                }
            }

            /// Live code: a strongly held delegate whose deinit posts, let go by
            /// `set(nil)`.
            @Test func aLiveDelegateSlotLetsGoOfItsDelegateOutsideTheLock() async {
                await #expect(processExitsWith: .success) {
                    DeallocationUnderLock.armWatchdog()
                    let harness = Harness()
                    let center = harness.notificationCenter()
                    let owner = Owner()
                    let slot = harness.delegateSlot(of: owner, as: AnyObject.self, hold: .strong)
                    slot.set(PostsWhenFreed(center: center))
                    slot.set(nil)
                    #expect(harness.recording().events.contains { $0.kind == .post })
                }
            }

            /// Production code: the plain slot's own lock, with a delegate whose
            /// deinit reads the slot.
            @Test func aPlainDelegateSlotLetsGoOfItsDelegateOutsideItsLock() async {
                await #expect(processExitsWith: .success) {
                    DeallocationUnderLock.armWatchdog()
                    let slot = DelegateSlot<AnyObject>(of: Owner(), hold: .strong)
                    slot.set(ReadsSlotWhenFreed(slot: slot))
                    slot.set(nil)
                    #expect(slot.delegate == nil)
                }
            }
        #endif

        final class Owner {}

        final class ReadsSlotWhenFreed {
            unowned let slot: DelegateSlot<AnyObject>
            init(slot: DelegateSlot<AnyObject>) { self.slot = slot }
            deinit { _ = slot.delegate }
        }

        final class PostsWhenFreed {
            let center: any NotificationCenterProtocol
            init(center: any NotificationCenterProtocol) { self.center = center }
            deinit { center.post(name: Notification.Name("Freed"), object: nil) }
        }
    }
}
