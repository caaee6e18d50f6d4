import Foundation
import ObserverHarnessInterface

/// The user's settings on this device.
@MainActor
public final class SettingsStore {
    public private(set) var playbackSpeed = 1.0
    private let center: any NotificationCenterProtocol

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
    }

    public func setPlaybackSpeed(_ speed: Double) {
        playbackSpeed = speed
        center.post(name: .settingsDidChange, object: self)
    }

    /// Takes the server's value without telling anyone (the sync does).
    func merge(playbackSpeed speed: Double) {
        playbackSpeed = speed
    }
}

/// Keeps the settings in step with the user's other devices.
@MainActor
public final class SettingsSync {
    public private(set) var uploads = 0
    private let store: SettingsStore
    private let center: any NotificationCenterProtocol
    private var changes: Subscription?

    /// `announcement` is what the sync posts after merging, so screens
    /// redraw: `.settingsDidSync` since 1.4. Version 1.3 posted
    /// `.settingsDidChange`, the very name it observes, so every merge
    /// triggered another.
    public init(
        store: SettingsStore, announcement: Notification.Name = .settingsDidSync,
        center: any NotificationCenterProtocol = Observers.center
    ) {
        self.store = store
        self.center = center
        changes = Subscription(
            center: center,
            token: center.addObserver(
                forName: .settingsDidChange, object: nil, queue: nil
            ) { [weak self] _ in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.uploads += 1
                    self.store.merge(playbackSpeed: self.store.playbackSpeed)
                    self.center.post(name: announcement, object: self.store)  // bug: notification-cycle
                }
            })
    }
}

/// The playback speed button in the player: redraws when settings sync.
@MainActor
public final class SpeedButton {
    public private(set) var label = "1×"
    private var syncs: Subscription?

    public init(store: SettingsStore, center: any NotificationCenterProtocol = Observers.center) {
        syncs = Subscription(
            center: center,
            token: center.addObserver(
                forName: .settingsDidSync, object: store, queue: nil
            ) { [weak self, weak store] _ in
                MainActor.assumeIsolated { self?.label = "\(store?.playbackSpeed ?? 1)×" }
            })
    }
}
