import Foundation

/// What app code needs from a notification center: Foundation's classic API.
/// `NotificationCenter` conforms, and so does the harness's instrumented center,
/// so the same code runs in the app and under test:
///
/// ```swift
/// final class CartBadge {
///     private let center: any NotificationCenterProtocol
///     init(center: any NotificationCenterProtocol = Observers.center) {
///         self.center = center
///     }
/// }
/// // in a test, by injection (or run the test inside `withObserverHarness`)
/// let badge = CartBadge(center: harness.notificationCenter())
/// ```
///
/// Call the methods as Foundation's, without `location:`: the extension
/// methods below capture the caller's file and line, so findings point at the
/// app's code. The protocol is `Sendable`: a center can be captured in a
/// `Task {}` or an `OperationQueue` block.
public protocol NotificationCenterProtocol: AnyObject, Sendable {
    func addObserver(forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
                     location: CodeLocation,
                     using block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol
    #if canImport(ObjectiveC)
    func addObserver(_ observer: Any, selector: Selector, name: Notification.Name?, object: Any?,
                     location: CodeLocation)
    #endif
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

    #if canImport(ObjectiveC)
    /// Foundation's `addObserver(_:selector:name:object:)`.
    public func addObserver(
        _ observer: Any, selector: Selector, name: Notification.Name?, object: Any?,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        addObserver(observer, selector: selector, name: name, object: object,
                    location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    #endif

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

    #if canImport(ObjectiveC)
    public func addObserver(_ observer: Any, selector: Selector, name: Notification.Name?, object: Any?,
                            location: CodeLocation) {
        addObserver(observer, selector: selector, name: name, object: object)
    }
    #endif

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
