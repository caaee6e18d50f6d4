import Foundation
import Testing

@testable import ObserverHarness

extension Notification.Name {
    static let liveFileArrived = Notification.Name("FileArrived")
}

/// A footer set up on the main actor: `assumesMainActor` checks it with
/// `MainActor.assumeIsolated` (which traps off the main actor), otherwise
/// its block is given the main queue, which Foundation runs on the main
/// thread whoever posts.
@MainActor
final class LiveDownloadsFooter {
    private(set) var text = "No files yet"
    private var token: (any NSObjectProtocol)?

    init(assumesMainActor: Bool) {
        if assumesMainActor {
            token = Observers.center.addObserver(forName: .liveFileArrived, object: nil, queue: nil) { [weak self] _ in
                MainActor.assumeIsolated { self?.text = "1 file" }
            }
        } else {
            token = Observers.center.addObserver(forName: .liveFileArrived, object: nil, queue: .main) {
                [weak self] _ in
                MainActor.assumeIsolated { self?.text = "1 file" }
            }
        }
    }
}

/// The test bodies, run in this process or, where they may trap, as exit
/// tests in a child process (an exit test's body captures nothing).
@MainActor
enum BackgroundPostScenes {
    /// A file arrives while the footer shows; returns the footer's text once delivery settled.
    static func fileArrives(assumesMainActor: Bool, in harness: Harness) async -> String {
        let footer = withObserverHarness(harness) { LiveDownloadsFooter(assumesMainActor: assumesMainActor) }
        withObserverHarness(harness) { Observers.center.post(name: .liveFileArrived, object: nil) }
        await harness.settle()
        return footer.text
    }
}

extension Live {
    /// ``Harness/PostThread/background``: the same body with posts made from a background thread.
    @Suite struct BackgroundPosts {
        @Test(arguments: [Harness.PostThread.caller, .background])
        @MainActor func aMainActorObserverIsReportedWhenAPostComesFromTheBackground(posts: Harness.PostThread) async {
            let harness = Harness(posts: posts)
            let center = harness.notificationCenter()
            nonisolated(unsafe) var ranOnMainThread: [Bool] = []
            let lock = NSLock()
            let token = center.addObserver(forName: .liveFileArrived, object: nil, queue: nil) { _ in
                lock.withLock { ranOnMainThread.append(Thread.isMainThread) }
                harness.noteAction(.increment("files.arrived"))
            }
            center.post(name: .liveFileArrived, object: nil)
            center.removeObserver(token)

            let findings = harness.analyze().live("delivery-off-isolation")
            #expect(findings.count == (posts == .background ? 1 : 0))
            #expect(lock.withLock { ranOnMainThread.count } == 1, "post waits until delivery ends")
            if posts == .background {
                #expect(lock.withLock { ranOnMainThread } == [false])
            }
        }

        @Test @MainActor func aPostMadeByAHandlerStaysOnTheHandlersThread() {
            let harness = Harness(posts: .background)
            let center = harness.notificationCenter()
            let threads = NSLock()
            nonisolated(unsafe) var outer: Thread?
            nonisolated(unsafe) var inner: Thread?
            let relay = center.addObserver(forName: .liveFileArrived, object: nil, queue: nil) { _ in
                threads.withLock { outer = Thread.current }
                center.post(name: .liveThemeChanged, object: nil)
            }
            let listener = center.addObserver(forName: .liveThemeChanged, object: nil, queue: nil) { _ in
                threads.withLock { inner = Thread.current }
            }
            center.post(name: .liveFileArrived, object: nil)
            center.removeObserver(relay)
            center.removeObserver(listener)
            threads.withLock {
                #expect(outer != nil && outer === inner)
                #expect(outer?.isMainThread == false)
            }
        }

        @Test @MainActor func aMainQueueBlockRunsWhenTheMainQueueTurns() async {
            let harness = Harness(posts: .background)
            let text = await BackgroundPostScenes.fileArrives(assumesMainActor: false, in: harness)
            #expect(text == "1 file")
            harness.analyze().expectNone(of: "delivery-off-isolation")
        }

        // MARK: Exit tests: a trap ends the child process, not the test run
        // (they do not exist on iOS, tvOS, watchOS or visionOS)
        #if os(macOS) || os(Linux) || os(Windows)

            @Test func anObserverAssumingTheMainActorTrapsWhenAPostComesFromTheBackground() async {
                await #expect(processExitsWith: .failure) {
                    _ = await BackgroundPostScenes.fileArrives(assumesMainActor: true, in: Harness(posts: .background))
                }
            }

            @Test func theSameObserverSurvivesPostsFromTheMainActor() async {
                await #expect(processExitsWith: .success) {
                    let text = await BackgroundPostScenes.fileArrives(
                        assumesMainActor: true, in: Harness(posts: .caller))
                    if text != "1 file" { exit(1) }
                }
            }

            @Test func anObserverGivenTheMainQueueSurvivesPostsFromTheBackground() async {
                await #expect(processExitsWith: .success) {
                    let text = await BackgroundPostScenes.fileArrives(
                        assumesMainActor: false, in: Harness(posts: .background))
                    if text != "1 file" { exit(1) }
                }
            }
        #endif
    }
}
