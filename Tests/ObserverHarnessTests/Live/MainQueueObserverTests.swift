import Foundation
import Testing

@testable import ObserverHarness

extension Notification.Name {
    static let liveLayoutChanged = Notification.Name("LayoutChanged")
}

/// What a `queue: .main` block saw: whether it ran, and on the main actor.
private final class MainQueueRuns: @unchecked Sendable {
    private let lock = NSLock()
    private var places: [Bool] = []

    func ran() { lock.withLock { places.append(MainActorCheck.isOnMainActor) } }
    var onMainActor: [Bool] { lock.withLock { places } }
}

/// The main actor's own check, not the harness's: where the block really ran.
private enum MainActorCheck {
    static var isOnMainActor: Bool { ExecutionPlace.current.isMainActor }
}

extension Live {
    /// A post on the main actor to a `queue: .main` block runs the block in
    /// place, as on Darwin: never a wait for the main queue from the thread
    /// that drains it.
    @Suite struct MainQueueObservers {
        @Test(arguments: [Harness.PostThread.caller, .background])
        @MainActor func aPostOnTheMainActorToAMainQueueBlockFinishes(posts: Harness.PostThread) async {
            let harness = Harness(posts: posts)
            let center = harness.notificationCenter()
            let runs = MainQueueRuns()
            let token = center.addObserver(forName: .liveLayoutChanged, object: nil, queue: .main) { _ in runs.ran() }
            center.post(name: .liveLayoutChanged, object: nil)
            if posts == .caller { #expect(runs.onMainActor == [true], "run in place, inside the post") }
            await harness.settle()
            center.removeObserver(token)
            #expect(runs.onMainActor == [true])
            harness.analyze().expectNone(of: "delivery-off-isolation")
        }

        /// One case at a time: both post the same name through `Observers.center`,
        /// and run together each would hear the other's post, as on the default center.
        @Test(.serialized, arguments: [Harness.PostThread.caller, .background])
        @MainActor func aPostThroughTheScopedCenterToAMainQueueBlockFinishes(posts: Harness.PostThread) async {
            let harness = Harness(posts: posts)
            let runs = MainQueueRuns()
            let token = withObserverHarness(harness) {
                let token = Observers.center.addObserver(forName: .liveLayoutChanged, object: nil, queue: .main) { _ in
                    runs.ran()
                }
                Observers.center.post(name: .liveLayoutChanged, object: nil)
                return token
            }
            if posts == .caller { #expect(runs.onMainActor == [true], "run in place, inside the post") }
            await harness.settle()
            withObserverHarness(harness) { Observers.center.removeObserver(token) }
            #expect(runs.onMainActor == [true])
            harness.analyze().expectNone(of: "delivery-off-isolation")
        }

        @Test @MainActor func aPostFromAnotherThreadStillWaitsForTheMainQueue() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            let runs = MainQueueRuns()
            let token = center.addObserver(forName: .liveLayoutChanged, object: nil, queue: .main) { _ in runs.ran() }
            // The main actor is free while it awaits, so the main queue turns.
            await Task.detached {
                center.post(name: .liveLayoutChanged, object: nil)
                #expect(runs.onMainActor == [true], "post waited until the main queue ran the block")
            }.value
            center.removeObserver(token)
        }
    }
}
