import Foundation
import ObserverHarnessInterface

/// What the player tells the screens that follow it.
@MainActor
public protocol PlayerObserver: AnyObject {
    func playerDidChangeQueue(_ queue: [Episode])
}

/// Plays episodes. The current episode and position are observable KVO style;
/// queue changes go to an observer list; start and end are notifications.
@MainActor
public final class Player {
    public private(set) lazy var nowPlaying = ObservedProperty("nowPlaying", of: self, initialValue: Episode?.none)
    public private(set) lazy var position = ObservedProperty("position", of: self, initialValue: 0.0)
    public private(set) var queue: [Episode] = []
    // A hand-written observer array from 1.0: it holds its observers strongly.
    private let observers = ObserverList<any PlayerObserver>("playerObservers")
    private let center: any NotificationCenterProtocol

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
    }

    public func addObserver(
        _ observer: any PlayerObserver,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        observers.add(observer, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    public func removeObserver(
        _ observer: any PlayerObserver,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        observers.remove(observer, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    public func play(_ episode: Episode) {
        nowPlaying.set(episode)
        position.set(0)
        center.post(name: .playbackDidStart, object: self, userInfo: ["episode": episode.id])  // bug: unobserved-post
    }

    public func seek(to seconds: Double) {
        position.set(seconds)
    }

    public func enqueue(_ episode: Episode) {
        queue.append(episode)
        observers.notify { $0.playerDidChangeQueue(queue) }
    }

    public func finish() {
        center.post(name: .episodeDidFinish, object: self)
        nowPlaying.set(nil)
    }
}

/// The bar above the tab bar showing what plays. It observes KVO style
/// (unowned, as KVO holds), and removes itself in `deinit`, as KVO requires.
@MainActor
public final class MiniPlayerBar {
    public private(set) var title = ""
    private let nowPlaying: ObservedProperty<Episode?>

    public init(player: Player) {
        nowPlaying = player.nowPlaying
        nowPlaying.addObserver(self) { bar, change in
            MainActor.assumeIsolated { bar.title = change.newValue?.title ?? "" }
        }
    }

    deinit { nowPlaying.removeObserver(self) }
}

/// The CarPlay now-playing template. Observes the same way as the mini
/// player, but was never taught to remove itself.
@MainActor
public final class CarPlayNowPlaying {
    public private(set) var title = ""

    public init(player: Player) {
        player.nowPlaying.addObserver(self) { template, change in  // bug: notify-after-dealloc
            MainActor.assumeIsolated { template.title = change.newValue?.title ?? "" }
        }
    }
}

/// The Up Next screen: follows the player's queue until it is closed.
@MainActor
public final class QueueScreen: PlayerObserver {
    public private(set) var titles: [String] = []
    private let player: Player

    public init(player: Player) {
        self.player = player
        player.addObserver(self)  // bug: registration-keeps-observer-alive (strong list)
    }

    public func close() {
        player.removeObserver(self)
    }

    public func playerDidChangeQueue(_ queue: [Episode]) {
        titles = queue.map(\.title)
    }
}

/// The scrubber under the artwork: follows the position while it is on screen.
@MainActor
public final class Scrubber {
    public private(set) var seconds = 0.0
    private var observation: PropertyObservation?

    public init(player: Player) {
        observation = player.position.observe { [weak self] change in
            MainActor.assumeIsolated { self?.seconds = change.newValue }
        }
    }
}

/// Stops playback after a while. Its observation is not kept, so it ends at
/// once and the timer never sees the position move.
@MainActor
public final class SleepTimer {
    public private(set) var elapsed = 0.0

    public init(player: Player) {
        _ = player.position.observe { [weak self] change in  // bug: discarded-token (property)
            MainActor.assumeIsolated { self?.elapsed = change.newValue }
        }
    }
}
