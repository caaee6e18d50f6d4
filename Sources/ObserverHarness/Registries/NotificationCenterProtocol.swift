import Foundation

/// What code needs from a notification center, so production code can take
/// Foundation's `NotificationCenter` and tests can hand it an
/// ``InstrumentedNotificationCenter`` with one line changed:
///
/// ```swift
/// final class CartBadge {
///     init(center: any NotificationCenterProtocol = NotificationCenter.default) { … }
/// }
/// // in a test
/// let badge = CartBadge(center: harness.notificationCenter())
/// ```
///
/// Call the methods without `location:`; the extension methods below capture
/// the caller's file and line so findings point at the user's code.
public protocol NotificationCenterProtocol: AnyObject {
    func addObserver(forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
                     location: CodeLocation,
                     using block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol
    func removeObserver(_ observer: Any, location: CodeLocation)
    func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: CodeLocation)
    func post(_ notification: Notification, location: CodeLocation)
    func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: CodeLocation)
}

extension NotificationCenterProtocol {
    /// Foundation's `addObserver(forName:object:queue:using:)`.
    public func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        addObserver(forName: name, object: object, queue: queue,
                    location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
                    using: block)
    }

    /// Foundation's `removeObserver(_:)`.
    public func removeObserver(
        _ observer: Any,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        removeObserver(observer, location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `removeObserver(_:name:object:)`.
    public func removeObserver(
        _ observer: Any, name: Notification.Name?, object: Any?,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        removeObserver(observer, name: name, object: object,
                       location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `post(_:)`.
    public func post(
        _ notification: Notification,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        post(notification, location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `post(name:object:userInfo:)`.
    public func post(
        name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        post(name: name, object: object, userInfo: userInfo,
             location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

extension NotificationCenter: NotificationCenterProtocol {
    public func addObserver(forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
                            location: CodeLocation,
                            using block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol {
        addObserver(forName: name, object: object, queue: queue, using: block)
    }

    public func removeObserver(_ observer: Any, location: CodeLocation) {
        removeObserver(observer)
    }

    public func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: CodeLocation) {
        removeObserver(observer, name: name, object: object)
    }

    public func post(_ notification: Notification, location: CodeLocation) {
        post(notification)
    }

    public func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: CodeLocation) {
        post(name: name, object: object, userInfo: userInfo)
    }
}
