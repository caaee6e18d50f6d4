// A small app the trait and base-class tests run, written as app code is:
// against the interface only, with no harness in sight.
import Foundation
import ObserverHarness

final class PlayerScreen {}

/// Keeps the screens that show the player. `appear` registers a screen
/// again each time, so a screen that appears twice is registered twice.
final class NowPlayingScreens {
    private let screens = ObserverList<PlayerScreen>("nowPlaying", hold: .weak)

    static let registrationLine = #line + 2
    func appear(_ screen: PlayerScreen) {
        screens.add(screen)  // bug: duplicate-registration when a screen appears twice
    }

    static let removalLine = #line + 2
    func disappear(_ screen: PlayerScreen) {
        screens.remove(screen)  // unbalanced-removal (a warning) when it never appeared
    }

    func showEpisode() { screens.notify { _ in } }
}

extension Notification.Name {
    static let episodeDidEnd = Notification.Name("EpisodeDidEnd")
}

/// Announces the end of an episode on the default center.
enum Playback {
    static let postLine = #line + 2
    static func endEpisode() {
        Observers.center.post(name: .episodeDidEnd, object: nil)  // unobserved-post (a note) when nobody listens
    }
}

/// Counts ended episodes; removes its registration when it goes.
final class EpisodeCounter: @unchecked Sendable {
    private let center = Observers.center
    private var token: (any NSObjectProtocol)?
    private(set) var count = 0  // written by deliveries on the posting thread; read after they finish

    init() {
        token = center.addObserver(forName: .episodeDidEnd, object: nil, queue: nil) { [weak self] _ in
            self?.count += 1
        }
    }
    deinit { if let token { center.removeObserver(token) } }
}

/// The cleanest wiring there is: a screen appears, is told, disappears.
func playAndCloseAScreen() {
    let screens = NowPlayingScreens()
    let screen = PlayerScreen()
    screens.appear(screen)
    screens.showEpisode()
    screens.disappear(screen)
}

/// The bug: one screen appears twice.
func showOneScreenTwice() {
    let screens = NowPlayingScreens()
    let screen = PlayerScreen()
    screens.appear(screen)
    screens.appear(screen)
    screens.showEpisode()
    screens.disappear(screen)
}

extension Notification.Name {
    static let userDidSignOut = Notification.Name("UserDidSignOut")
}

/// Registers its sign-out block on every appearance and removes its tokens
/// only in deinit: the classic `viewWillAppear` bug. Appearing twice is a
/// duplicate.
final class FeedScreen: @unchecked Sendable {
    private var tokens: [any NSObjectProtocol] = []
    private(set) var signOuts = 0  // written by deliveries on the posting thread

    deinit {
        for token in tokens { Observers.center.removeObserver(token) }
    }

    static let registrationLine = #line + 3
    func viewWillAppear() {
        tokens.append(
            Observers.center.addObserver(forName: .userDidSignOut, object: nil, queue: nil) { [weak self] _ in
                self?.signOuts += 1
            })
    }
}

/// The test a team writes: show the feed, sign out, close it, then check.
/// `track` is the test's call, not the app's: it names the screen in findings.
func showTheFeed(appearances: Int, screens: Int, tracking track: (AnyObject) -> Void) {
    var feeds: [FeedScreen] = (0..<screens).map { _ in FeedScreen() }
    for feed in feeds {
        track(feed)
        for _ in 0..<appearances { feed.viewWillAppear() }
    }
    Observers.center.post(name: .userDidSignOut, object: nil)
    feeds.removeAll()  // closed before the test's end-of-test check
}
