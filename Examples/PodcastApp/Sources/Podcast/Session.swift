import Foundation
import ObserverHarnessInterface

/// Logs the user in and out, and tells the app.
@MainActor
public final class SessionStore {
    public private(set) var user: String?
    private let center: any NotificationCenterProtocol

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
    }

    public func logIn(as user: String) {
        self.user = user
        center.post(name: .sessionDidChange, object: self, userInfo: ["user": user])
    }

    public func logOut() {
        user = nil
        center.post(name: .sessionDidChange, object: self)
    }
}

/// The signed-in account, kept for every screen to read.
@MainActor
public final class AccountCache {
    public private(set) var user: String?
    private var sessionChanges: Subscription?

    public init(center: any NotificationCenterProtocol = Observers.center) {
        sessionChanges = Subscription(
            center: center,
            token: center.addObserver(  // bug: ordering-dependence (the other receiver)
                forName: .sessionDidChange, object: nil, queue: nil
            ) { [weak self] note in
                let user = note.userInfo?["user"] as? String
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.user = user
                    center.post(name: .accountDidUpdate, object: self)
                }
            })
    }
}

/// "Welcome back, …" above the feed.
///
/// Reads the cache when the session changes: whether the cache has stored the
/// new account yet depends on which of the two observers runs first.
@MainActor
public final class WelcomeBanner {
    public private(set) var text = ""
    private var sessionChanges: Subscription?

    public init(cache: AccountCache, center: any NotificationCenterProtocol = Observers.center) {
        sessionChanges = Subscription(
            center: center,
            token: center.addObserver(  // bug: ordering-dependence
                forName: .sessionDidChange, object: nil, queue: nil
            ) { [weak self, weak cache] _ in
                MainActor.assumeIsolated { self?.text = cache?.user.map { "Welcome back, \($0)" } ?? "Welcome" }
            })
    }
}

/// The avatar in the navigation bar.
@MainActor
public final class ProfileBadge {
    public private(set) var initials = ""

    public init(cache: AccountCache, center: any NotificationCenterProtocol = Observers.center) {
        // Nothing keeps the token: the registration can never be removed.
        _ = center.addObserver(  // bug: discarded-token
            forName: .accountDidUpdate, object: cache, queue: nil
        ) { [weak self, weak cache] _ in
            MainActor.assumeIsolated { self?.initials = String(cache?.user?.prefix(1) ?? "") }
        }
    }
}
