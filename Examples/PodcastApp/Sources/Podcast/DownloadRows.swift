import Foundation
import ObserverHarnessInterface

/// The progress ring on an episode's artwork. It watches the task's progress
/// KVO style, and never stops: the manager frees the task when it finishes,
/// while the ring still observes it.
@MainActor
public final class ProgressRing {
    public private(set) var fraction = 0.0

    public init(task: DownloadTask) {
        task.progress.addObserver(self, hold: .weak) { ring, change in  // bug: observed-object-deallocated
            MainActor.assumeIsolated { ring.fraction = change.newValue }
        }
    }
}

/// A row of the Downloads list. It keeps its observation of the task's
/// progress and ends it when the download finishes, before the manager lets
/// the task go.
@MainActor
public final class DownloadRow: DownloadObserver {
    public let episode: Episode
    public private(set) var fraction = 0.0
    private var progress: PropertyObservation?

    public init(task: DownloadTask, manager: DownloadManager) {
        episode = task.episode
        progress = task.progress.observe { [weak self] change in
            MainActor.assumeIsolated { self?.fraction = change.newValue }
        }
        manager.addObserver(self)
    }

    public func downloadDidFinish(_ episode: Episode) {
        guard episode == self.episode else { return }
        progress?.invalidate()
        progress = nil
    }
}

/// The download button on an episode page: turns into "Downloaded" when the
/// episode's download finishes.
@MainActor
public final class EpisodeDownloadButton {
    public private(set) var isDownloaded = false
    private var finishes: Subscription?

    /// Filters by the episode's id: Foundation boxes a string given as
    /// `object:` and compares the box's identity, so on Linux this matches
    /// nothing, and on Darwin only a short id that happens to share its box.
    public init(episode: Episode, center: any NotificationCenterProtocol = Observers.center) {
        let token = center.addObserver(  // bug: value-object-filter
            forName: .downloadDidFinish, object: episode.id, queue: nil
        ) { [weak self] _ in
            MainActor.assumeIsolated { self?.downloadDidFinish() }
        }
        finishes = Subscription(center: center, token: token)
    }

    /// Filters by the task itself: an object, compared by identity as intended.
    public init(task: DownloadTask, center: any NotificationCenterProtocol = Observers.center) {
        let token = center.addObserver(forName: .downloadDidFinish, object: task, queue: nil) { [weak self] _ in
            MainActor.assumeIsolated { self?.downloadDidFinish() }
        }
        finishes = Subscription(center: center, token: token)
    }

    /// A download finishes once: stop watching before the manager frees the task.
    private func downloadDidFinish() {
        isDownloaded = true
        finishes?.cancel()
    }
}
