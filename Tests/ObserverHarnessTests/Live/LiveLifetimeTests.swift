import Foundation
import Testing

@testable import ObserverHarness

extension Live {
    /// A sender or observed object that deallocates while registrations name
    /// it is recorded at the next registry operation, not only by `analyze()`.
    @Suite struct Lifetimes {
        /// Freed while observed, and another operation (a post) came before the
        /// removal: a new object at the freed address could have matched.
        @Test func aSenderFreedWhileObservedIsCaughtWhenAPostComesBeforeTheRemoval() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var download: LiveScreen? = LiveScreen("download")
            let addLine: UInt = #line + 1
            let token = center.addObserver(forName: .liveFeedReloaded, object: download, queue: nil) { _ in }
            download = nil
            center.post(name: .liveFeedReloaded, object: nil)
            center.removeObserver(token)

            let finding = try #require(harness.analyze().live("observed-object-deallocated").first)
            #expect(finding.site?.line == Int(addLine))
        }

        /// The near miss: released, then removed by the very next operation.
        @Test func aSenderFreedAndRemovedByTheNextOperationIsClean() {
            let harness = Harness()
            let center = harness.notificationCenter()
            var download: LiveScreen? = LiveScreen("download")
            let token = center.addObserver(forName: .liveFeedReloaded, object: download, queue: nil) { _ in }
            download = nil
            center.removeObserver(token)
            #expect(harness.analyze().live("observed-object-deallocated").isEmpty)
        }

        /// A download manager finishes a task (`tasks[id] = nil`) and then tells
        /// its observers; the row observing that task removes its registration in
        /// that callback. Clean, whether analysed before or after the row goes.
        @Test(arguments: [false, true])
        func aFinishedDownloadWhoseRowStopsObservingInTheCallbackIsClean(analyseAfterRelease: Bool) {
            let harness = Harness()
            let center = harness.notificationCenter()
            let manager = DownloadManager(center: center)
            var row: DownloadRow? = DownloadRow(task: manager.start("episode-1"), center: center)
            manager.finish("episode-1")
            #expect(row?.finished == true)
            if analyseAfterRelease { row = nil }
            #expect(harness.analyze().live("observed-object-deallocated").isEmpty)
            _ = row
        }

        /// The bug beside it: the row stops observing only later, after another post.
        @Test func aFinishedDownloadWhoseRowStopsObservingLaterIsCaught() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let manager = DownloadManager(center: center)
            let row = DownloadRow(task: manager.start("episode-1"), center: center, stopsInCallback: false)
            manager.finish("episode-1")
            center.post(name: .liveFeedReloaded, object: nil)
            row.stop()
            let finding = try #require(harness.analyze().live("observed-object-deallocated").first)
            #expect(finding.site?.file == "ObserverHarnessTests/LiveLifetimeTests.swift")
        }

        @Test func anObservedObjectFreedIsCaughtAtAnotherRegistrysNextOperation() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let list = harness.observerList(of: LiveScreen.self)
            var track: LiveScreen? = LiveScreen("track")
            let title = harness.observedProperty("title", of: track!, initialValue: "")
            let screen = LiveScreen("screen")
            title.addObserver(screen, hold: .weak) { _, _ in }
            track = nil
            list.add(screen)  // another registry's operation notices it
            let dealloc = harness.recording().events.firstIndex { $0.kind == .dealloc }
            let add = harness.recording().events.lastIndex { $0.kind == .add }
            #expect(try #require(dealloc) < #require(add))
            title.removeObserver(screen)
            _ = center
            #expect(harness.analyze().live("observed-object-deallocated").count == 1)
        }

        @Test func aSenderFreedAfterItsObserverWasRemovedIsClean() {
            let harness = Harness()
            let center = harness.notificationCenter()
            var download: LiveScreen? = LiveScreen("download")
            let token = center.addObserver(forName: .liveFeedReloaded, object: download, queue: nil) { _ in }
            center.removeObserver(token)
            download = nil
            center.post(name: .liveFeedReloaded, object: nil)
            #expect(harness.analyze().live("observed-object-deallocated").isEmpty)
        }
    }
}

extension Notification.Name {
    static let liveDownloadFinished = Notification.Name("LiveDownloadFinished")
}

/// A download task, the sender its row observes.
final class DownloadTask: @unchecked Sendable {
    let id: String
    init(_ id: String) { self.id = id }
}

/// Keeps the running tasks; finishing one drops it, then tells its observers.
final class DownloadManager: @unchecked Sendable {
    private let center: InstrumentedNotificationCenter
    private var tasks: [String: DownloadTask] = [:]
    init(center: InstrumentedNotificationCenter) { self.center = center }

    func start(_ id: String) -> DownloadTask {
        let task = DownloadTask(id)
        tasks[id] = task
        return task
    }

    func finish(_ id: String) {
        tasks[id] = nil
        center.post(name: .liveDownloadFinished, object: nil, userInfo: ["id": id])
    }
}

/// Observes its task's progress (the task as sender) and its finish.
final class DownloadRow: @unchecked Sendable {
    private let center: InstrumentedNotificationCenter
    private var progress: (any NSObjectProtocol)?
    private var finish: (any NSObjectProtocol)?
    private(set) var finished = false

    init(task: DownloadTask, center: InstrumentedNotificationCenter, stopsInCallback: Bool = true) {
        self.center = center
        let id = task.id
        progress = center.addObserver(forName: .liveFeedReloaded, object: task, queue: nil) { _ in }
        finish = center.addObserver(forName: .liveDownloadFinished, object: nil, queue: nil) { [weak self] note in
            guard let self, note.userInfo?["id"] as? String == id else { return }
            self.finished = true
            if stopsInCallback { self.stop() }
        }
    }

    func stop() {
        if let progress { center.removeObserver(progress) }
        progress = nil
    }
}
