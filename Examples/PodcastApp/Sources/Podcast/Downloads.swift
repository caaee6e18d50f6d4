import Foundation
import ObserverHarnessInterface

/// One episode being downloaded. Its progress is observable, KVO style.
@MainActor
public final class DownloadTask {
    public let episode: Episode
    public private(set) lazy var progress = ObservedProperty("progress", of: self, initialValue: 0.0)

    public init(episode: Episode) {
        self.episode = episode
    }
}

/// What the download manager tells the screens that watch it.
@MainActor
public protocol DownloadObserver: AnyObject {
    func downloadDidFinish(_ episode: Episode)
}

/// Downloads episodes, and tells its observers (a weak list) and the
/// notification center when one is done. It drops a task when it finishes.
@MainActor
public final class DownloadManager {
    public private(set) var tasks: [String: DownloadTask] = [:]
    private let observers = ObserverList<any DownloadObserver>("downloadObservers", hold: .weak)
    private let center: any NotificationCenterProtocol

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
    }

    // The manager's own add/remove pass their caller's line on, so a finding
    // points at the screen that registered, not at this file.
    public func addObserver(
        _ observer: any DownloadObserver,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        observers.add(observer, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    public func removeObserver(
        _ observer: any DownloadObserver,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        observers.remove(observer, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    @discardableResult
    public func start(_ episode: Episode) -> DownloadTask {
        let task = DownloadTask(episode: episode)
        tasks[episode.id] = task
        return task
    }

    public func receive(_ fraction: Double, for episode: Episode) {
        tasks[episode.id]?.progress.set(fraction)
    }

    public func finish(_ episode: Episode) {
        guard let task = tasks[episode.id] else { return }
        task.progress.set(1)
        observers.notify { $0.downloadDidFinish(episode) }
        center.post(name: .downloadDidFinish, object: task)
        tasks[episode.id] = nil
    }
}

/// The Downloads tab. Registers once when loaded, and removes itself when closed.
@MainActor
public final class DownloadsScreen: DownloadObserver {
    public private(set) var finished: [String] = []
    private let manager: DownloadManager

    public init(manager: DownloadManager) {
        self.manager = manager
    }

    public func viewDidLoad() {
        manager.addObserver(self)
    }

    /// Also called when the screen is dismissed before it ever loaded.
    public func close() {
        manager.removeObserver(self)  // bug: unbalanced-removal
    }

    public func downloadDidFinish(_ episode: Episode) {
        finished.append(episode.id)
    }
}

/// The badge on the Downloads tab: counts finished downloads.
@MainActor
public final class DownloadBadge: DownloadObserver {
    public private(set) var count = 0
    private let manager: DownloadManager

    public init(manager: DownloadManager) {
        self.manager = manager
    }

    /// Runs every time the tab bar appears, and registers again each time.
    public func viewWillAppear() {
        manager.addObserver(self)  // bug: duplicate-registration (observer)
    }

    public func downloadDidFinish(_ episode: Episode) {
        count += 1
    }
}

/// "3.2 GB used" in Settings: watches downloads, and never stops. The
/// manager's list holds its observers weakly, so a meter that goes away
/// without removing itself is dropped by design: no finding.
@MainActor
public final class StorageMeter: DownloadObserver {
    public private(set) var episodes = 0

    public init(manager: DownloadManager) {
        manager.addObserver(self)
    }

    public func downloadDidFinish(_ episode: Episode) {
        episodes += 1
    }
}

/// Downloads the next episode when one finishes, once: it stops watching
/// (its own removal, which the list allows) and, while the manager is still
/// going through its list, registers the next episode's row with it.
@MainActor
public final class AutoDownloadNext: DownloadObserver {
    public private(set) var queued: [String] = []
    private let manager: DownloadManager
    private let next: Episode
    /// The row that follows the next episode's download.
    public let nextRow: DownloadBadge

    public init(manager: DownloadManager, next: Episode) {
        self.manager = manager
        self.next = next
        nextRow = DownloadBadge(manager: manager)
        manager.addObserver(self)
    }

    public func downloadDidFinish(_ episode: Episode) {
        manager.removeObserver(self)
        queued.append(next.id)
        manager.start(next)
        manager.addObserver(nextRow)  // bug: mutation-during-notify
    }
}

/// The "Downloaded" toast: shows once, for the first finished download, and
/// removes its notification-center registration from inside its handler,
/// which a notification center is built for.
@MainActor
public final class DownloadToast {
    public private(set) var shown: [String] = []
    private var finishes: Subscription?

    public init(center: any NotificationCenterProtocol = Observers.center) {
        finishes = Subscription(
            center: center,
            token: center.addObserver(
                forName: .downloadDidFinish, object: nil, queue: nil
            ) { [weak self] note in
                let task = note.object as? DownloadTask
                MainActor.assumeIsolated {
                    guard let self, let task else { return }
                    self.finishes?.cancel()
                    self.shown.append(task.episode.id)
                }
            })
    }
}

extension Notification.Name {
    /// The system handed over a downloaded episode's file.
    public static let episodeFileDidArrive = Notification.Name("EpisodeFileDidArrive")
}

/// Receives the system's background-download callbacks, on the session's own
/// delegate queue.
public final class BackgroundDownloadSession: Sendable {
    private let center: any NotificationCenterProtocol

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
    }

    /// 1.x: tells the app from the delegate queue, so observers set up on the
    /// main actor run on that queue.
    public func didFinishDownloading(_ episode: Episode) {
        center.post(
            name: .episodeFileDidArrive, object: nil, userInfo: ["episode": episode.id])
    }

    /// Since 2.0: hops to the main actor first, where the screens listen.
    public func didFinishDownloadingOnMain(_ episode: Episode) async {
        await MainActor.run {
            center.post(name: .episodeFileDidArrive, object: nil, userInfo: ["episode": episode.id])
        }
    }
}

/// The text under the Downloads list, which the list observes to redraw. A
/// view model from before Swift 6, marked `@unchecked Sendable` in the
/// migration: its state belongs to the main thread, and nothing else checks that.
public final class FooterText: @unchecked Sendable {
    public private(set) var text: ObservedProperty<String>!

    public init() {
        text = ObservedProperty("text", of: self, initialValue: "No files yet")
    }
}

/// The Downloads list's footer: "N files on this device". Set up on the
/// main actor, and its handler writes main-thread state.
@MainActor
public final class DownloadsFooter {
    public let footer = FooterText()
    private var arrivals: Subscription?

    public init(center: any NotificationCenterProtocol = Observers.center) {
        let footer = footer
        arrivals = Subscription(
            center: center,
            token: center.addObserver(  // bug: delivery-off-isolation
                forName: .episodeFileDidArrive, object: nil, queue: nil
            ) { note in
                footer.text.set("Downloaded \(note.userInfo?["episode"] as? String ?? "an episode")")
            })
    }
}
