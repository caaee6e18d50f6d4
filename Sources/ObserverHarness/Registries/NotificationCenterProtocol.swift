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
                     location: SourceLocation,
                     using block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol
    func removeObserver(_ observer: Any, location: SourceLocation)
    func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: SourceLocation)
    func post(_ notification: Notification, location: SourceLocation)
    func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: SourceLocation)
}

extension NotificationCenterProtocol {
    /// Foundation's `addObserver(forName:object:queue:using:)`.
    public func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        addObserver(forName: name, object: object, queue: queue,
                    location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
                    using: block)
    }

    /// Foundation's `removeObserver(_:)`.
    public func removeObserver(
        _ observer: Any,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        removeObserver(observer, location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `removeObserver(_:name:object:)`.
    public func removeObserver(
        _ observer: Any, name: Notification.Name?, object: Any?,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        removeObserver(observer, name: name, object: object,
                       location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `post(_:)`.
    public func post(
        _ notification: Notification,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        post(notification, location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `post(name:object:userInfo:)`.
    public func post(
        name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        post(name: name, object: object, userInfo: userInfo,
             location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

extension NotificationCenter: NotificationCenterProtocol {
    public func addObserver(forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
                            location: SourceLocation,
                            using block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol {
        addObserver(forName: name, object: object, queue: queue, using: block)
    }

    public func removeObserver(_ observer: Any, location: SourceLocation) {
        removeObserver(observer)
    }

    public func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: SourceLocation) {
        removeObserver(observer, name: name, object: object)
    }

    public func post(_ notification: Notification, location: SourceLocation) {
        post(notification)
    }

    public func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: SourceLocation) {
        post(name: name, object: object, userInfo: userInfo)
    }
}
