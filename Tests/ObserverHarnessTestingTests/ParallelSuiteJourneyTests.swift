import Foundation
import ObserverHarness
import ObserverHarnessTesting
import ScopeJourneyApp
import Testing

// Suites as teams write them: the trait on each, several tests of several
// suites running at once (Swift Testing's default), the app's hops not
// wrapped. Each misuse is caught in every run, in its own test; no correct
// test fails on another test's work; nothing crashes the process.

/// Repeats, so that many tests of each suite run at once.
private let runs = Array(0..<6)

@Suite(.observerHarness) struct SyncEngineJourney {
    /// The post leaves on the engine's queue; the engine is the sender, and
    /// only this test has used it, so the post is this test's.
    @MainActor @Test(.observerHarness(expecting: ["delivery-off-isolation"]), arguments: runs)
    func aSyncPostedFromItsQueueReachesAMainActorObserverOffItsActor(run: Int) async {
        let engine = SyncEngine()
        let heard = Counter()
        let harness = Harness.current!
        let token = Observers.center.addObserver(forName: .syncFinished, object: engine, queue: nil) { _ in
            heard.bump()
            harness.noteAction(.increment("status.syncs"))  // main-actor state, as the row sees it
        }
        engine.sync()
        await heard.reach(1)
        Observers.center.removeObserver(token)
    }

    @MainActor @Test(arguments: runs)
    func aSyncThatHopsToTheMainActorBeforePostingIsClean(run: Int) async {
        let engine = SyncEngine()
        let heard = Counter()
        let token = Observers.center.addObserver(forName: .syncFinished, object: engine, queue: nil) { _ in
            heard.bump()
        }
        engine.sync(hopToMainFirst: true)
        await heard.reach(1)
        Observers.center.removeObserver(token)
    }
}

@Suite(.observerHarness) struct UploaderJourney {
    /// The uploader stored the center when this test made it: its posts from
    /// the operation queue are this test's, and no other test hears them.
    @MainActor @Test(.observerHarness(expecting: ["delivery-off-isolation"]), arguments: runs)
    func progressFromTheOperationQueueReachesAMainActorRowOffItsActor(run: Int) async {
        let uploader = Uploader()
        let parts = Counter()
        let harness = Harness.current!
        let token = Observers.center.addObserver(forName: .uploadProgress, object: nil, queue: nil) { _ in
            parts.bump()
            harness.noteAction(.increment("row.progress"))  // main-actor state, as the row sees it
        }
        uploader.upload(parts: 1)
        await parts.reach(1)
        Observers.center.removeObserver(token)
        #expect(parts.value == 1, "only its own uploader's progress")
    }

    @Test(arguments: runs)
    func progressReachingARowThatAssumesNoActorIsClean(run: Int) async {
        let uploader = Uploader()
        let parts = Counter()
        let token = Observers.center.addObserver(forName: .uploadProgress, object: nil, queue: nil) { _ in
            parts.bump()
        }
        uploader.upload(parts: 3)
        await parts.reach(3)
        Observers.center.removeObserver(token)
        #expect(parts.value == 3, "only its own uploader's progress")
    }
}

@Suite(.observerHarness) struct PresenceJourney {
    /// Nothing ties a sender-less post made on a thread to a test: it reaches
    /// every running test's observers, as the default center would, and is a
    /// note in each, failing none.
    @MainActor @Test(arguments: runs)
    func aPostNothingTiesToATestIsHeardAndFailsNobody(run: Int) async throws {
        let heard = Counter()
        let token = Observers.center.addObserver(forName: .presenceChanged, object: nil, queue: nil) { _ in
            heard.bump()
        }
        PresenceReader().read()
        await heard.reach(1)
        Observers.center.removeObserver(token)
        let findings = try #require(Harness.current).analyze().findings
        #expect(findings.allSatisfy { $0.severity == .note })
        #expect(findings.contains { $0.rule == "escaped-test-scope" })
    }

    /// A banner posts after its test returned, through the center it stored:
    /// the test has ended, so the post is no running test's, and fails none.
    @Test(arguments: runs)
    func aPostAfterItsTestEndedFailsNoOne(run: Int) {
        ConnectionBanner().connectionDroppedLater(after: .milliseconds(5 * run)) {}
    }
}

@Suite(.observerHarness) struct SocketJourney {
    /// Typed messages posted from a detached task, with and without a subject,
    /// while many tests' scopes are open: heard, and the process lives.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test(arguments: runs)
    func messagesPostedFromADetachedTaskAreHeardWithoutACrash(run: Int) async {
        let socket = Socket()
        let aboutIt = Counter()
        let every = Counter()
        let one = Observers.center.addObserver(of: socket, for: MessagesArrived.self) { _ in aboutIt.bump() }
        let all = Observers.center.addObserver(for: MessagesArrived.self) { _ in every.bump() }
        socket.receive(run)
        await aboutIt.reach(1)
        await every.reach(1)
        Observers.center.removeObserver(one)
        Observers.center.removeObserver(all)
    }
}
