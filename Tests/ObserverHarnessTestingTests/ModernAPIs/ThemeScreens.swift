// App code of the "Modern observer APIs in app code" article: the blocks
// between `// article:` and `// end` are the article's, verbatim (`.ci/docs`
// checks it). It uses only `Observers`, as an app does.
import Foundation
import ObserverHarnessInterface

// article: theme-screen
extension Notification.Name {
    static let themeChanged = Notification.Name("ThemeChanged")
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor final class ThemeScreen {
    var task: Task<Void, Never>?
    var reloads = 0

    init() {
        task = Task {
            // ↓ async-observer-outlives-owner
            for await _ in Observers.center.postedNotifications(named: .themeChanged) { self.reloads += 1 }
        }
    }
}
// end

// article: theme-screen-fixed
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor final class FixedThemeScreen {
    var task: Task<Void, Never>?
    var reloads = 0

    init() {
        task = Task { [weak self] in
            for await _ in Observers.center.postedNotifications(named: .themeChanged) { self?.reloads += 1 }
        }
    }

    deinit { task?.cancel() }
}
// end

/// The other near miss: a `[weak self]` loop that ends itself once
/// its screen is gone.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor final class SelfEndingThemeScreen {
    var task: Task<Void, Never>?
    var reloads = 0

    init() {
        task = Task { [weak self] in
            for await _ in Observers.center.postedNotifications(named: .themeChanged) {
                guard let self else { break }
                self.reloads += 1
            }
        }
    }
}

/// The bug with `owner:`, the precise form.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor final class OwnedThemeScreen {
    var task: Task<Void, Never>?
    var reloads = 0

    init() {
        task = Task {
            for await _ in Observers.center.postedNotifications(named: .themeChanged, owner: self) {
                self.reloads += 1
            }
        }
    }
}

/// An app-wide service that follows the theme for its whole life.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor final class ThemeSettingsService {
    var task: Task<Void, Never>?
    var changes = 0

    init() {
        task = Task {
            for await _ in Observers.center.postedNotifications(named: .themeChanged) { self.changes += 1 }
        }
    }
}
