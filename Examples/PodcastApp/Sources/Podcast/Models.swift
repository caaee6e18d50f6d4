import Foundation
import ObserverHarnessInterface

/// A podcast the user can subscribe to.
public struct Show: Hashable, Sendable {
    public let id: String
    public let title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

/// One episode of a show.
public struct Episode: Hashable, Sendable {
    public let id: String
    public let title: String
    public let show: Show

    public init(id: String, title: String, show: Show) {
        self.id = id
        self.title = title
        self.show = show
    }
}

extension Notification.Name {
    /// The user logged in or out; the object is the `SessionStore`.
    public static let sessionDidChange = Notification.Name("SessionDidChange")
    /// The `AccountCache` stored the new account: safe to read it now.
    public static let accountDidUpdate = Notification.Name("AccountDidUpdate")
    /// The 1.x "Subscribe" button's command, sent to everyone (see `LegacyEpisodeRow`).
    public static let subscribeToShow = Notification.Name("SubscribeToShow")
    /// A download finished; the object is its `DownloadTask`.
    public static let downloadDidFinish = Notification.Name("DownloadDidFinish")
    /// Pull to refresh; every list of episodes reloads.
    public static let refreshEpisodes = Notification.Name("RefreshEpisodes")
    /// The player started an episode; the object is the `Player`.
    public static let playbackDidStart = Notification.Name("PlaybackDidStart")
    /// The player reached the end of an episode; the object is the `Player`.
    public static let episodeDidFinish = Notification.Name("EpisodeDidFinish")
    /// A setting changed on this device.
    public static let settingsDidChange = Notification.Name("SettingsDidChange")
    /// The server's copy of the settings was merged in.
    public static let settingsDidSync = Notification.Name("SettingsDidSync")
}

/// Keeps one block registration and removes it when released, like Combine's
/// `AnyCancellable`. Removing it early with `cancel()` is fine: it removes once.
public final class Subscription {
    private let center: any NotificationCenterProtocol
    private var token: (any NSObjectProtocol)?

    public init(center: any NotificationCenterProtocol, token: any NSObjectProtocol) {
        self.center = center
        self.token = token
    }

    public func cancel() {
        guard let token else { return }
        center.removeObserver(token)
        self.token = nil
    }

    deinit { cancel() }
}
