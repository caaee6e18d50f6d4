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
    func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
        location: CodeLocation,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol
    #if canImport(ObjectiveC)
        func addObserver(
            _ observer: Any, selector: Selector, name: Notification.Name?, object: Any?,
            location: CodeLocation)
    #endif
    func removeObserver(_ observer: Any, location: CodeLocation)
    func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: CodeLocation)
    func post(_ notification: Notification, location: CodeLocation)
    func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: CodeLocation)

    // Async sequences and Foundation's typed messages: call them with
    // Foundation's labels (NotificationCenterProtocol+Messages.swift).

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func postedNotifications(
        named name: Notification.Name, object: AnyObject?, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<PostedNotification>
    /// The earlier name of ``postedNotifications(named:object:owner:location:)``.
    /// A center written against it keeps working: the new requirement's
    /// default calls it (NotificationCenterProtocol+Defaults.swift).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @available(*, deprecated, renamed: "postedNotifications(named:object:owner:location:)")
    func notifications(
        named name: Notification.Name, object: AnyObject?, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<PostedNotification>

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func addObserver<Message: NotificationCenter.MainActorMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func addObserver<Message: NotificationCenter.MainActorMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func addObserver<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func addObserver<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func removeObserver(_ token: NotificationCenter.ObservationToken, location: CodeLocation)
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @MainActor func post<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation) where Message.Subject: AnyObject
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @MainActor func post<Message: NotificationCenter.MainActorMessage>(_ message: Message, location: CodeLocation)
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func post<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation) where Message.Subject: AnyObject
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func post<Message: NotificationCenter.AsyncMessage>(_ message: Message, location: CodeLocation)
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func messages<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, bufferSize limit: Int, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<Message> where Message.Subject: AnyObject
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func messages<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, bufferSize limit: Int,
        owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<Message>
}

extension NotificationCenterProtocol {
    /// Foundation's `addObserver(forName:object:queue:using:)`. `isolation`
    /// records the caller's actor, so a test can catch the block running off it.
    public func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: (any Actor)? = #isolation,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        addObserver(
            forName: name, object: object, queue: queue,
            location: CodeLocation(
                fileID: fileID, filePath: filePath, line: line, column: column,
                isolation: isolation),
            using: block)
    }

    #if canImport(ObjectiveC)
        /// Foundation's `addObserver(_:selector:name:object:)`.
        public func addObserver(
            _ observer: Any, selector: Selector, name: Notification.Name?, object: Any?,
            fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
            column: UInt = #column,
            isolation: (any Actor)? = #isolation
        ) {
            addObserver(
                observer, selector: selector, name: name, object: object,
                location: CodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column,
                    isolation: isolation))
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
        removeObserver(
            observer, name: name, object: object,
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
        post(
            name: name, object: object, userInfo: userInfo,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

extension NotificationCenter: NotificationCenterProtocol {
    public func addObserver(
        forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
        location: CodeLocation,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        addObserver(forName: name, object: object, queue: queue, using: block)
    }

    #if canImport(ObjectiveC)
        public func addObserver(
            _ observer: Any, selector: Selector, name: Notification.Name?, object: Any?,
            location: CodeLocation
        ) {
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
