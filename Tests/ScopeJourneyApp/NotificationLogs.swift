import Foundation
import ObserverHarnessInterface

// Two logs of the notifications an app sees: one registered for every name,
// one for the names it needs. Under a harness the first hears less than on
// Foundation's default center, and the report says so at its line.

/// Keeps the names it heard, one registration for every name.
public final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: [Notification.Name] = []
    private var token: (any NSObjectProtocol)?

    public init() {}

    public func start() {
        // ↓ wildcard-misses-foundation-posts
        token = Observers.center.addObserver(forName: nil, object: nil, queue: nil) { [weak self] note in
            self?.note(note.name)
        }
    }

    public func stop() {
        if let token { Observers.center.removeObserver(token) }
        token = nil
    }

    public func heard(_ name: Notification.Name) -> Bool { lock.withLock { heard.contains(name) } }

    private func note(_ name: Notification.Name) { lock.withLock { heard.append(name) } }
}

/// Keeps the names it heard, one registration for each name it is given.
public final class NamedNotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: [Notification.Name] = []
    private var tokens: [any NSObjectProtocol] = []

    public init() {}

    public func start(observing names: [Notification.Name]) {
        tokens = names.map { name in
            Observers.center.addObserver(forName: name, object: nil, queue: nil) { [weak self] note in
                self?.note(note.name)
            }
        }
    }

    public func stop() {
        for token in tokens { Observers.center.removeObserver(token) }
        tokens = []
    }

    public func heard(_ name: Notification.Name) -> Bool { lock.withLock { heard.contains(name) } }

    private func note(_ name: Notification.Name) { lock.withLock { heard.append(name) } }
}
