import Foundation
import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct DeliveryOffIsolation {
        static let rule = "delivery-off-isolation"
        static let cartChanged = Notification.Name("CartChanged")

        final class Badge {}
        protocol DownloadDelegate: AnyObject { func didFinish() }
        final class Store: DownloadDelegate { func didFinish() {} }

        /// Registers from inside the actor, and can post from inside it too.
        actor CartSync {
            private var token: (any NSObjectProtocol)?

            func observe(_ center: InstrumentedNotificationCenter, harness: Harness? = nil) {
                token = center.addObserver(forName: DeliveryOffIsolation.cartChanged, object: nil, queue: nil) { _ in
                    harness?.noteAction(.increment("sync.changes"))
                }
            }

            func stopObserving(_ center: InstrumentedNotificationCenter) {
                if let token { center.removeObserver(token) }
            }

            func post(_ center: InstrumentedNotificationCenter) {
                center.post(name: DeliveryOffIsolation.cartChanged, object: nil)
            }
        }

        // MARK: Live: the main actor

        @Test @MainActor func firesWhenABackgroundThreadPostsToAMainActorObserver() async throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let registrationLine = #line + 1
            let token = center.addObserver(forName: Self.cartChanged, object: nil, queue: nil) { _ in
                harness.noteAction(.increment("badge.count"))
            }
            await Task.detached { center.post(name: Self.cartChanged, object: nil) }.value
            center.removeObserver(token)

            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.severity == .error)
            // The handler is the bug, whoever posts: reported where it is registered.
            #expect(finding.site?.line == registrationLine)
            #expect(finding.message.contains(#"changed "badge.count" there"#), "\(finding.message)")
            #expect(finding.channel == "CartChanged")
            #expect(finding.message.contains("off the main actor"), "\(finding.message)")
            #expect(finding.message.contains("set up on the main actor"), "\(finding.message)")
            #expect(finding.message.contains("ran on another thread"), "\(finding.message)")
            #expect(finding.message.contains(":\(registrationLine)"), "\(finding.message)")
        }

        /// Live, a handler of which nothing is seen may have only hopped: a
        /// `Task` it started can end before it returns, leaving no trace. The
        /// rule says nothing rather than guess by timing.
        @Test @MainActor func isQuietLiveWhenTheHandlerRecordsNothingOffTheMainActor() async {
            await Self.emptyBlockPostedFromTheBackground().expectNone(of: Self.rule)
        }

        /// An empty block registered where the caller runs, posted to from a detached task.
        static func emptyBlockPostedFromTheBackground(isolation: isolated (any Actor)? = #isolation) async -> Report {
            let harness = Harness()
            let center = harness.notificationCenter()
            let token = center.addObserver(forName: Self.cartChanged, object: nil, queue: nil) { _ in }
            await Task.detached { center.post(name: Self.cartChanged, object: nil) }.value
            center.removeObserver(token)
            return harness.analyze()
        }

        @Test @MainActor func isQuietWhenTheMainActorObserverIsPostedToOnTheMainActor() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            let token = center.addObserver(forName: Self.cartChanged, object: nil, queue: nil) { _ in }
            center.post(name: Self.cartChanged, object: nil)
            await Task { @MainActor in center.post(name: Self.cartChanged, object: nil) }.value
            center.removeObserver(token)
            harness.analyze().expectNone(of: Self.rule)
        }

        @Test func isQuietWhenANonisolatedObserverIsPostedToFromAnyThread() async {
            await Self.emptyBlockPostedFromTheBackground().expectNone(of: Self.rule)
        }

        @Test @MainActor func firesWhenAMainActorBlockIsGivenABackgroundQueue() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let queue = OperationQueue()
            let token = center.addObserver(forName: Self.cartChanged, object: nil, queue: queue) { _ in
                harness.noteAction(.increment("badge.count"))
            }
            center.post(name: Self.cartChanged, object: nil)
            center.removeObserver(token)
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.message.contains("off the main actor"), "\(finding.message)")
        }

        @Test @MainActor func firesForAnObserverListAndADelegateSlotCalledFromTheBackground() async {
            let harness = Harness()
            let list = harness.observerList(of: Badge.self, hold: .strong)
            let slot = harness.delegateSlot(of: Badge(), as: (any DownloadDelegate).self, hold: .strong)
            list.add(Badge())
            slot.set(Store())
            await Task.detached {
                list.notify { _ in harness.noteAction(.increment("badge.count")) }
                slot.call { _ in harness.noteAction(.increment("store.downloads")) }
            }.value
            let findings = harness.analyze().findings(of: Self.rule)
            #expect(findings.count == 2)
            #expect(findings.contains { $0.message.contains("delegate call") }, "\(findings.map(\.message))")
        }

        @Test @MainActor func recordsWhereEachDeliveryRan() async throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let token = center.addObserver(forName: Self.cartChanged, object: nil, queue: nil) { _ in }
            center.post(name: Self.cartChanged, object: nil)
            await Task.detached { center.post(name: Self.cartChanged, object: nil) }.value
            center.removeObserver(token)
            let recording = harness.recording()
            let add = try #require((0..<recording.events.count).map { recording.events[$0] }.first { $0.kind == .add })
            #expect(add.flags.contains(.mainActorIsolated))
            let deliveries = (0..<recording.events.count).map { recording.events[$0] }.filter { $0.kind == .deliver }
            #expect(deliveries.map { $0.flags.contains(.onMainActor) } == [true, false])
            #expect(deliveries.map { $0.flags.contains(.offIsolation) } == [false, true])
            #expect(deliveries[0].thread != deliveries[1].thread)
        }

        // MARK: Live: another actor

        @Test @MainActor func firesWhenTheMainActorPostsToAnActorsObserver() async throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let sync = CartSync()
            await sync.observe(center, harness: harness)
            center.post(name: Self.cartChanged, object: nil)
            await sync.stopObserving(center)
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.message.contains("set up on an actor"), "\(finding.message)")
            #expect(finding.message.contains("ran on the main actor"), "\(finding.message)")
        }

        @Test func isQuietWhenTheActorPostsToItsOwnObserver() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            let sync = CartSync()
            await sync.observe(center)
            await sync.post(center)
            await sync.stopObserving(center)
            harness.analyze().expectNone(of: Self.rule)
        }

        // MARK: Scenarios

        @Test func firesForAMainActorObserverPostedToFromTheBackground() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "isolation": "main-actor", "handler": [ { "increment": "badge.count" } ],
                    "site": "CartBadge.swift:12" },
                  { "op": "post", "registry": "center", "channel": "CartChanged", "isolation": "background",
                    "site": "CartSync.swift:40" }
                ]
                """
            ).report()
            // The handler changed state off the main actor: reported at its registration.
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.step == 2)
            #expect(finding.site?.description == "CartBadge.swift:12")
            #expect(finding.objects == ["badge"])
            #expect(finding.message.contains("CartSync.swift:40"), "\(finding.message)")
            #expect(finding.message.contains("changed \"badge.count\" there"), "\(finding.message)")
        }

        @Test func firesForAnActorsObserverPostedToFromAnotherActor() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "store" },
                  { "op": "observe", "registry": "subject", "observer": "store", "isolation": "ImageStore",
                    "handler": [] },
                  { "op": "post", "registry": "subject", "isolation": "Downloader" },
                  { "op": "post", "registry": "subject", "isolation": "ImageStore" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.step == 2)
        }

        @Test func handlerEffectsRunWhereTheirDeliveryRuns() throws {
            // The relay's handler re-posts from the background post's thread.
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "relay" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "Badge",
                    "isolation": "main-actor", "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "relay", "channel": "Sync",
                    "handler": [ { "post": { "registry": "center", "channel": "Badge" } } ] },
                  { "op": "post", "registry": "center", "channel": "Sync", "isolation": "background" },
                  { "op": "post", "registry": "center", "channel": "Sync" }
                ]
                """
            ).report()
            #expect(report.findings(of: Self.rule).map(\.step) == [4])
        }

        @Test func isolationInsideAHandlerIsAnInputError() {
            #expect(throws: InputError.self) {
                try InlineScenario(
                    """
                    [
                      { "op": "create", "object": "a" },
                      { "op": "observe", "registry": "center", "observer": "a", "channel": "X",
                        "handler": [ { "post": { "registry": "center", "channel": "Y", "isolation": "background" } } ] }
                    ]
                    """
                ).report()
            }
        }
    }
}
