import Foundation
import ObserverHarnessInterface

/// Sends listening events to the analytics backend.
@MainActor
public final class PlaybackReporter {
    public private(set) var events: [String] = []
    private var subscriptions: [Subscription] = []

    public init(center: any NotificationCenterProtocol = Observers.center) {
        subscriptions.append(
            Subscription(
                center: center,
                token: center.addObserver(
                    forName: .playbackDidStart, object: nil, queue: nil
                ) { [weak self] note in
                    let episode = note.userInfo?["episode"] as? String ?? ""
                    MainActor.assumeIsolated { self?.events.append("start \(episode)") }
                }))
        subscriptions.append(
            Subscription(
                center: center,
                token: center.addObserver(
                    forName: .episodeDidFinish, object: nil, queue: nil
                ) { [weak self] _ in
                    MainActor.assumeIsolated { self?.events.append("finish") }
                }))
    }
}

/// "Hours listened this week" on the profile screen. Its name for the
/// finished-episode notification was typed by hand, and it is misspelt.
@MainActor
public final class ListeningStats {
    public private(set) var episodesFinished = 0
    private var finishes: Subscription?

    public init(center: any NotificationCenterProtocol = Observers.center) {
        let token = center.addObserver(  // bug: channel-name-typo
            forName: Notification.Name("EpisodeDidFinsh"), object: nil, queue: nil
        ) { [weak self] _ in
            MainActor.assumeIsolated { self?.episodesFinished += 1 }
        }
        finishes = Subscription(center: center, token: token)
    }
}
