import Foundation
import ObserverHarnessInterface

/// The home feed: the latest episodes of the user's shows.
@MainActor
public final class FeedScreen {
    public private(set) var title = "Feed"
    public private(set) var reloads = 0
    private let center: any NotificationCenterProtocol
    private var subscriptions: [Subscription] = []

    public init(cache: AccountCache, center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
        // The account is read once the cache says it stored it, so the order
        // in which the session's observers run does not matter.
        subscriptions.append(
            Subscription(
                center: center,
                token: center.addObserver(
                    forName: .accountDidUpdate, object: cache, queue: nil
                ) { [weak self, weak cache] _ in
                    MainActor.assumeIsolated { self?.title = cache?.user.map { "\($0)'s feed" } ?? "Feed" }
                }))
    }

    /// Registers once, however often the screen appears.
    public func viewDidLoad() {
        subscriptions.append(
            Subscription(
                center: center,
                token: center.addObserver(
                    forName: .refreshEpisodes, object: nil, queue: nil
                ) { [weak self] _ in
                    MainActor.assumeIsolated { self?.reloads += 1 }
                }))
    }
}

/// The pull-to-refresh control above every episode list.
@MainActor
public final class PullToRefresh {
    private let center: any NotificationCenterProtocol

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
    }

    public func pull() {
        center.post(name: .refreshEpisodes, object: nil)  // bug: single-receiver-broadcast
    }
}

/// New episodes since the last visit.
@MainActor
public final class InboxScreen {
    public private(set) var reloads = 0
    private let center: any NotificationCenterProtocol
    private var tokens: [any NSObjectProtocol] = []

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
    }

    /// Runs every time the tab is shown, and registers again each time.
    public func viewWillAppear() {
        tokens.append(
            center.addObserver(  // bug: duplicate-registration (block)
                forName: .refreshEpisodes, object: nil, queue: nil
            ) { [weak self] _ in
                MainActor.assumeIsolated { self?.reloads += 1 }
            })
    }

    public func close() {
        for token in tokens { center.removeObserver(token) }
        tokens.removeAll()
    }
}

/// The top-charts tab: reloads on pull to refresh.
@MainActor
public final class ChartsScreen {
    public private(set) var reloads = 0
    private let center: any NotificationCenterProtocol
    private var tokens: [any NSObjectProtocol] = []

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
        // The block captures `self` strongly, and the screen keeps the block's
        // token: the screen is never freed, and `close()` is its only way out.
        tokens.append(
            center.addObserver(  // bug: registration-keeps-observer-alive (block)
                forName: .refreshEpisodes, object: nil, queue: nil
            ) { _ in
                MainActor.assumeIsolated { self.reloads += 1 }
            })
    }

    public func close() {
        for token in tokens { center.removeObserver(token) }
        tokens.removeAll()
    }
}

/// The trending tab: the same capture of `self`, with its token kept in a
/// `Subscription`, as most apps keep tokens (Combine's `AnyCancellable` too).
@MainActor
public final class TrendingScreen {
    public private(set) var reloads = 0
    private var refreshes: Subscription?

    public init(center: any NotificationCenterProtocol = Observers.center) {
        let token = center.addObserver(  // bug: registration-keeps-observer-alive (block in a wrapper)
            forName: .refreshEpisodes, object: nil, queue: nil
        ) { _ in
            MainActor.assumeIsolated { self.reloads += 1 }
        }
        refreshes = Subscription(center: center, token: token)
    }
}
