import Foundation
import ObserverHarnessInterface

/// The shows the user subscribed to.
@MainActor
public final class Library {
    public private(set) var shows: [String] = []
    /// Reports each subscription (analytics in the app, the harness in tests).
    private let onSubscribe: (Show) -> Void

    public init(onSubscribe: @escaping (Show) -> Void = { _ in }) {
        self.onSubscribe = onSubscribe
    }

    public func subscribe(to show: Show) {
        shows.append(show.id)
        onSubscribe(show)
    }
}

/// What an episode row asks of the screen that shows it.
@MainActor
public protocol EpisodeRowDelegate: AnyObject {
    func episodeRowDidTapSubscribe(_ row: EpisodeRow)
}

/// A row of an episode list. "Subscribe" goes to one object: the row's
/// screen, its (weak) delegate.
@MainActor
public final class EpisodeRow {
    public let episode: Episode
    public private(set) lazy var delegate = DelegateSlot<any EpisodeRowDelegate>(of: self)

    public init(episode: Episode) {
        self.episode = episode
    }

    public func tapSubscribe() {
        delegate.call { $0.episodeRowDidTapSubscribe(self) }
    }
}

/// The 1.x row: "Subscribe" posted a notification, so every screen that
/// listens subscribes — twice when two lists show the same show.
@MainActor
public final class LegacyEpisodeRow {
    public let episode: Episode
    private let center: any NotificationCenterProtocol

    public init(episode: Episode, center: any NotificationCenterProtocol = Observers.center) {
        self.episode = episode
        self.center = center
    }

    public func tapSubscribe() {
        let show = episode.show.id
        center.post(name: .subscribeToShow, object: nil, userInfo: ["show": show])  // bug: broadcast-as-command
    }
}

/// A list of episodes (Top Charts, New Releases…). Delegate of its own rows;
/// it also still answers the 1.x rows' notification.
@MainActor
public final class EpisodeListScreen: EpisodeRowDelegate {
    public let rows: [EpisodeRow]
    private let library: Library
    private var legacySubscribes: Subscription?

    public init(episodes: [Episode], library: Library, center: any NotificationCenterProtocol = Observers.center) {
        self.library = library
        rows = episodes.map { EpisodeRow(episode: $0) }
        for row in rows { row.delegate.set(self) }
        legacySubscribes = Subscription(
            center: center,
            token: center.addObserver(
                forName: .subscribeToShow, object: nil, queue: nil
            ) { [weak self] note in
                let showID = note.userInfo?["show"] as? String
                MainActor.assumeIsolated {
                    guard let self, let row = self.rows.first(where: { $0.episode.show.id == showID }) else { return }
                    self.library.subscribe(to: row.episode.show)
                }
            })
    }

    public func episodeRowDidTapSubscribe(_ row: EpisodeRow) {
        library.subscribe(to: row.episode.show)
    }
}
