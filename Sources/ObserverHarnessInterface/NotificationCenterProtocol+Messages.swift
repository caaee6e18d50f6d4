import Foundation

// Foundation's typed messages and async sequences, with Foundation's labels
// and overloads, each capturing the caller's location. App code calls them on
// `Observers.center` as it would on `NotificationCenter.default`:
//
//     let token = Observers.center.addObserver(of: cart, for: .didChange) { message in … }
//     Observers.center.post(CartDidChange(count: 2), subject: cart)

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension NotificationCenterProtocol {
    /// An async sequence of the notifications posted with `name` (and from
    /// `object`, when given), on any center and on every platform. Its own
    /// name keeps it apart from Darwin Foundation's `notifications(named:object:)`,
    /// which yields `Notification`s and which Linux Foundation lacks.
    /// `Notification` is not `Sendable`, so the loop gets a
    /// ``PostedNotification``. The observer is registered when iteration
    /// starts and removed when the loop ends or its task is cancelled; values
    /// posted while the loop is busy are buffered without limit.
    ///
    /// `owner`, when given, is the object the loop works for (usually `self`):
    /// the harness then reports a loop still running after its owner was
    /// released (`async-observer-outlives-owner`). Production code ignores it.
    ///
    /// ```swift
    /// task = Task { [weak self] in
    ///     for await _ in Observers.center.postedNotifications(named: .themeDidChange, owner: self) {
    ///         self?.applyTheme()
    ///     }
    /// }
    /// ```
    public func postedNotifications(
        named name: Notification.Name, object: AnyObject? = nil, owner: AnyObject? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> AsyncObserverSequence<PostedNotification> {
        postedNotifications(
            named: name, object: object, owner: owner,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// The earlier name of ``postedNotifications(named:object:owner:fileID:filePath:line:column:)``,
    /// deprecated: on Darwin, Foundation's own `notifications(named:object:)`
    /// (elements `Notification`) answers a call on a value typed
    /// `NotificationCenter` that passes no `owner:`, so this spelling meant two
    /// different sequences there.
    @available(*, deprecated, renamed: "postedNotifications(named:object:owner:)")
    public func notifications(
        named name: Notification.Name, object: AnyObject? = nil, owner: AnyObject? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> AsyncObserverSequence<PostedNotification> {
        postedNotifications(
            named: name, object: object, owner: owner,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension NotificationCenterProtocol {
    // MARK: Main-actor messages

    /// Foundation's `addObserver(of:for:using:)` for a `MainActorMessage`
    /// and an identifier. Keep the token: dropping it ends the observation at
    /// once (`_ = center.addObserver(…)` never fires).
    public func addObserver<
        Identifier: NotificationCenter.MessageIdentifier,
        Message: NotificationCenter.MainActorMessage
    >(
        of subject: Message.Subject, for identifier: Identifier,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Identifier.MessageType == Message, Message.Subject: AnyObject {
        addObserver(
            of: Optional(subject), for: Message.self,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            using: observer)
    }

    /// Foundation's `addObserver(of:for:using:)` for every subject of a type.
    public func addObserver<
        Identifier: NotificationCenter.MessageIdentifier,
        Message: NotificationCenter.MainActorMessage
    >(
        of subject: Message.Subject.Type, for identifier: Identifier,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Identifier.MessageType == Message {
        addObserver(
            ofEvery: subject, for: Message.self,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            using: observer)
    }

    /// Foundation's `addObserver(of:for:using:)` by message type:
    ///
    /// ```swift
    /// token = Observers.center.addObserver(of: cart, for: CartDidChange.self) { [weak self] message in
    ///     self?.badge = message.count
    /// }
    /// ```
    public func addObserver<Message: NotificationCenter.MainActorMessage>(
        of subject: Message.Subject? = nil, for messageType: Message.Type,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        addObserver(
            of: subject, for: messageType,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            using: observer)
    }

    /// Foundation's `post(_:subject:)`: delivers synchronously, on the main actor.
    @MainActor
    public func post<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: Message.Subject,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) where Message.Subject: AnyObject {
        post(
            message, subject: subject,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `post(_:)` of a main-actor message with no subject.
    @MainActor
    public func post<Message: NotificationCenter.MainActorMessage>(
        _ message: Message,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        post(message, location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    // MARK: Async messages

    /// Foundation's `addObserver(of:for:using:)` for an `AsyncMessage` and an
    /// identifier: the observer runs later, off the posting thread.
    public func addObserver<
        Identifier: NotificationCenter.MessageIdentifier,
        Message: NotificationCenter.AsyncMessage
    >(
        of subject: Message.Subject, for identifier: Identifier,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken where Identifier.MessageType == Message, Message.Subject: AnyObject {
        addObserver(
            of: Optional(subject), for: Message.self,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            using: observer)
    }

    /// Foundation's `addObserver(of:for:using:)` for every subject of a type.
    public func addObserver<
        Identifier: NotificationCenter.MessageIdentifier,
        Message: NotificationCenter.AsyncMessage
    >(
        of subject: Message.Subject.Type, for identifier: Identifier,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken where Identifier.MessageType == Message {
        addObserver(
            ofEvery: subject, for: Message.self,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            using: observer)
    }

    /// Foundation's `addObserver(of:for:using:)` for an `AsyncMessage` type.
    public func addObserver<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject? = nil, for messageType: Message.Type,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        addObserver(
            of: subject, for: messageType,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            using: observer)
    }

    /// Foundation's `post(_:subject:)` of an async message: observers run later.
    public func post<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: Message.Subject,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) where Message.Subject: AnyObject {
        post(
            message, subject: subject,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `post(_:)` of an async message with no subject.
    public func post<Message: NotificationCenter.AsyncMessage>(
        _ message: Message,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        post(message, location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `removeObserver(_:)` for a typed-message token.
    public func removeObserver(
        _ token: NotificationCenter.ObservationToken,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        removeObserver(token, location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    // MARK: Message sequences

    /// Foundation's `messages(of:for:bufferSize:)` for a subject and an
    /// identifier. When the loop falls behind by more than `limit` messages,
    /// the oldest are dropped without a signal (the harness reports it:
    /// `message-dropped`). `owner`: see ``postedNotifications(named:object:owner:fileID:filePath:line:column:)``.
    public func messages<Identifier: NotificationCenter.MessageIdentifier, Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject, for identifier: Identifier, bufferSize limit: Int = 10, owner: AnyObject? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> AsyncObserverSequence<Message> where Identifier.MessageType == Message, Message.Subject: AnyObject {
        messages(
            of: Optional(subject), for: Message.self, bufferSize: limit, owner: owner,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `messages(of:for:bufferSize:)` for every subject of a type.
    public func messages<Identifier: NotificationCenter.MessageIdentifier, Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject.Type, for identifier: Identifier, bufferSize limit: Int = 10,
        owner: AnyObject? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> AsyncObserverSequence<Message> where Identifier.MessageType == Message {
        messages(
            ofEvery: subject, for: Message.self, bufferSize: limit, owner: owner,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Foundation's `messages(of:for:bufferSize:)` by message type:
    ///
    /// ```swift
    /// for await message in Observers.center.messages(of: cart, for: CartDidChange.self, owner: self) {
    ///     total = message.total
    /// }
    /// ```
    public func messages<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject? = nil, for messageType: Message.Type, bufferSize limit: Int = 10,
        owner: AnyObject? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> AsyncObserverSequence<Message> where Message.Subject: AnyObject {
        messages(
            of: subject, for: messageType, bufferSize: limit, owner: owner,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

// MARK: Foundation's center

// Its `postedNotifications(named:…)` is the protocol's default (NotificationCenterProtocol+Defaults.swift),
// built on its classic API.

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension NotificationCenter {
    public func addObserver<Message: NotificationCenter.MainActorMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        addObserver(of: subject, for: messageType, using: observer)
    }

    public func addObserver<Message: NotificationCenter.MainActorMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken {
        addObserver(of: subjectType, for: BaseMessageIdentifier<Message>(), using: observer)
    }

    public func addObserver<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        addObserver(of: subject, for: messageType, using: observer)
    }

    public func addObserver<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, location: CodeLocation,
        using observer: @escaping @Sendable (Message) async -> Void
    ) -> NotificationCenter.ObservationToken {
        addObserver(of: subjectType, for: BaseMessageIdentifier<Message>(), using: observer)
    }

    public func removeObserver(_ token: NotificationCenter.ObservationToken, location: CodeLocation) {
        removeObserver(token)
    }

    @MainActor
    public func post<Message: NotificationCenter.MainActorMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        post(message, subject: subject)
    }

    @MainActor
    public func post<Message: NotificationCenter.MainActorMessage>(_ message: Message, location: CodeLocation) {
        post(message)
    }

    public func post<Message: NotificationCenter.AsyncMessage>(
        _ message: Message, subject: Message.Subject, location: CodeLocation
    ) where Message.Subject: AnyObject {
        post(message, subject: subject)
    }

    public func post<Message: NotificationCenter.AsyncMessage>(_ message: Message, location: CodeLocation) {
        post(message)
    }

    public func messages<Message: NotificationCenter.AsyncMessage>(
        of subject: Message.Subject?, for messageType: Message.Type, bufferSize limit: Int, owner: AnyObject?,
        location: CodeLocation
    ) -> AsyncObserverSequence<Message> where Message.Subject: AnyObject {
        let messages = messages(of: subject, for: messageType, bufferSize: limit)
        return AsyncObserverSequence { messages.makeAsyncIterator() }
    }

    public func messages<Message: NotificationCenter.AsyncMessage>(
        ofEvery subjectType: Message.Subject.Type, for messageType: Message.Type, bufferSize limit: Int,
        owner: AnyObject?, location: CodeLocation
    ) -> AsyncObserverSequence<Message> {
        let messages = messages(of: subjectType, for: BaseMessageIdentifier<Message>(), bufferSize: limit)
        return AsyncObserverSequence { messages.makeAsyncIterator() }
    }
}
