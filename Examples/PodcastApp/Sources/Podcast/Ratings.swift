import Foundation
import ObserverHarnessInterface

/// The user's star ratings of shows.
@MainActor
public final class RatingsStore {
    public private(set) var stars: [String: Int] = [:]
    private let center: any NotificationCenterProtocol

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
    }

    public func rate(_ show: Show, stars: Int) {
        self.stars[show.id] = stars
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            center.post(RatingDidChange(showID: show.id, stars: stars), subject: self)
        }
    }

    /// The server confirmed these shows' ratings after a sync.
    public func receiveConfirmations(for shows: [Show]) {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
        for show in shows { center.post(RatingSynced(showID: show.id), subject: self) }
    }
}

/// Foundation's typed message for a rating the server confirmed, delivered asynchronously.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
public struct RatingSynced: NotificationCenter.AsyncMessage {
    public typealias Subject = RatingsStore
    public let showID: String
}

/// "Synced" next to each rating in Settings. It reads the confirmations from
/// a message sequence with room for two, and only when the screen refreshes:
/// a sync of more ratings than that loses the oldest.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@MainActor
public final class SyncStatusList {
    public private(set) var synced: [String] = []
    private var confirmations: AsyncObserverSequence<RatingSynced>.AsyncIterator

    public init(store: RatingsStore, center: any NotificationCenterProtocol = Observers.center) {
        confirmations = center.messages(  // bug: message-dropped
            of: store, for: RatingSynced.self, bufferSize: 2
        ).makeAsyncIterator()
    }

    /// Shows the next `count` confirmations.
    public func refresh(reading count: Int) async {
        var iterator = confirmations
        for _ in 0..<count {
            guard let confirmation = await iterator.next(isolation: #isolation) else { break }
            synced.append(confirmation.showID)
        }
        confirmations = iterator
    }
}

/// Foundation's typed message for a new rating, delivered on the main actor.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
public struct RatingDidChange: NotificationCenter.MainActorMessage {
    public typealias Subject = RatingsStore
    public let showID: String
    public let stars: Int
}

/// The stars on a show's page. Keeps its observation token while on screen.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@MainActor
public final class ShowRatingView {
    public private(set) var stars = 0
    private var ratings: NotificationCenter.ObservationToken?

    public init(show: Show, store: RatingsStore, center: any NotificationCenterProtocol = Observers.center) {
        ratings = center.addObserver(of: store, for: RatingDidChange.self) { [weak self] rating in
            if rating.showID == show.id { self?.stars = rating.stars }
        }
    }
}

/// The "your top shows" home-screen widget. It drops its token, and a typed
/// message's observer ends with its token: the widget never updates.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@MainActor
public final class TopShowsWidget {
    public private(set) var updates = 0

    public init(store: RatingsStore, center: any NotificationCenterProtocol = Observers.center) {
        _ = center.addObserver(of: store, for: RatingDidChange.self) { [weak self] _ in  // bug: discarded-token (typed)
            self?.updates += 1
        }
    }
}
