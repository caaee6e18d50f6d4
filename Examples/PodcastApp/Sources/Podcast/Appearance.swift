import Foundation
import ObserverHarnessInterface

extension Notification.Name {
    /// The user picked another theme.
    public static let themeDidChange = Notification.Name("ThemeDidChange")
}

/// The app's theme.
@MainActor
public final class ThemeStore {
    public private(set) var isDark = false
    private let center: any NotificationCenterProtocol

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
    }

    public func toggle() {
        isDark.toggle()
        center.post(name: .themeDidChange, object: self)
    }
}

/// An episode's page: follows the theme with a `for await` loop in a task
/// that captures `self`, so the loop keeps the page alive after it is closed,
/// and runs forever.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor
public final class EpisodeScreen {
    public private(set) var themeChanges = 0
    public private(set) var themeUpdates: Task<Void, Never>?

    public init(center: any NotificationCenterProtocol = Observers.center) {
        themeUpdates = Task {
            let changes = center.postedNotifications(  // bug: async-observer-outlives-owner
                named: .themeDidChange, owner: self)
            for await _ in changes {
                self.themeChanges += 1
            }
        }
    }
}

/// A show's page: the same loop with `[weak self]`, cancelled when the page goes.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor
public final class ShowScreen {
    public private(set) var themeChanges = 0
    public private(set) var themeUpdates: Task<Void, Never>?

    public init(center: any NotificationCenterProtocol = Observers.center) {
        themeUpdates = Task { [weak self] in
            for await _ in center.postedNotifications(named: .themeDidChange, owner: self) {
                self?.themeChanges += 1
            }
        }
    }

    deinit { themeUpdates?.cancel() }
}
