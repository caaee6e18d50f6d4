import ObserverHarness
import Podcast

/// What a screen shows after the user logs in, with the session's observers
/// called in `order`: for `assertOrderIndependent`, which runs it once per order.
@MainActor
public enum DeliveryOrderScenes {
    /// The welcome banner reads the account cache on the same notification
    /// the cache writes it on: its text depends on who runs first.
    public static func welcomeBannerAfterLogin(_ order: DeliveryOrder) -> String {
        let center = Harness(name: "podcast").notificationCenter(order: order)
        let cache = AccountCache(center: center)
        let banner = WelcomeBanner(cache: cache, center: center)
        SessionStore(center: center).logIn(as: "ada")
        return banner.text
    }

    /// The feed reads the cache when the cache says it stored the account.
    public static func feedTitleAfterLogin(_ order: DeliveryOrder) -> String {
        let center = Harness(name: "podcast").notificationCenter(order: order)
        let cache = AccountCache(center: center)
        let feed = FeedScreen(cache: cache, center: center)
        SessionStore(center: center).logIn(as: "ada")
        return feed.title
    }
}
