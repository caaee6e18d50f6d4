import Foundation

/// What `postedNotifications(named:object:)` and `messages(of:for:bufferSize:)`
/// return through ``NotificationCenterProtocol``: an async sequence that
/// registers an observer when iteration starts and removes it when the loop
/// ends, its task is cancelled or its iterator goes away.
///
/// ```swift
/// task = Task { [weak self] in
///     for await message in Observers.center.messages(of: cart, for: CartDidChange.self) {
///         self?.refresh(message.count)
///     }
/// }
/// // in deinit (or when the screen closes)
/// task?.cancel()
/// ```
///
/// Iterate it from one task at a time, as Foundation's sequences.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct AsyncObserverSequence<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private let makeIterator: @Sendable () -> any AsyncIteratorProtocol<Element, Never>

    package init(makeIterator: @escaping @Sendable () -> any AsyncIteratorProtocol<Element, Never>) {
        self.makeIterator = makeIterator
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: makeIterator())
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Failure = Never

        private var base: any AsyncIteratorProtocol<Element, Never>

        init(base: any AsyncIteratorProtocol<Element, Never>) {
            self.base = base
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await base.next(isolation: actor)
        }

        public mutating func next() async -> Element? {
            await base.next(isolation: nil)
        }
    }
}

/// A notification as `postedNotifications(named:object:)` yields it through
/// ``NotificationCenterProtocol``: `Notification` is not `Sendable`, so the
/// loop gets this projection, made on the posting thread.
///
/// ```swift
/// for await note in Observers.center.postedNotifications(named: .cartDidChange, object: cart) {
///     badge.count = note.userInfo["count"] as? Int ?? 0
/// }
/// ```
public struct PostedNotification: Sendable {
    public let name: Notification.Name
    /// The sender's identity (`object:`), when it is a class instance.
    public let objectIdentifier: ObjectIdentifier?
    /// The `userInfo` entries with a `String` key and a `String`, `Int`,
    /// `Double`, `Bool` or `Date` value (the rest are not `Sendable` in general).
    /// A number keeps its kind: a Boolean stays a `Bool` and a floating-point
    /// number a `Double`, also when it arrives as an `NSNumber`.
    public let userInfo: [String: any Sendable]

    public init(_ notification: Notification) {
        name = notification.name
        objectIdentifier = notification.object.flatMap { object in
            type(of: object) is AnyClass ? ObjectIdentifier(object as AnyObject) : nil
        }
        var values: [String: any Sendable] = [:]
        for (key, value) in notification.userInfo ?? [:] {
            guard let key = key.base as? String else { continue }
            switch value {
            case let value as String: values[key] = value
            // Before `Int`: an `NSNumber` (what an Objective-C poster sends, and
            // what Swift numbers bridge to) casts to `Int` whatever it holds,
            // `true` to 1 and 2.0 to 2. Its own type decides.
            case let number as NSNumber:
                if number.isBoolean {
                    values[key] = number.boolValue
                } else if number.holdsFloatingPoint {
                    values[key] = number.doubleValue
                } else {
                    values[key] = number.intValue
                }
            case let value as Date: values[key] = value
            default: continue
            }
        }
        userInfo = values
    }

    /// Whether `object` is the notification's sender.
    public func isPosted(by object: AnyObject) -> Bool {
        objectIdentifier == ObjectIdentifier(object)
    }
}

extension NSNumber {
    /// Whether this is one of Foundation's two Boolean numbers (`CFBoolean`
    /// on Darwin), which `NSNumber(value: true)` returns.
    fileprivate var isBoolean: Bool {
        #if canImport(Darwin)
            CFGetTypeID(self) == CFBooleanGetTypeID()
        #else
            type(of: self) == type(of: NSNumber(value: true))
        #endif
    }

    /// Whether it holds a `float` or a `double` (its Objective-C type code).
    fileprivate var holdsFloatingPoint: Bool {
        let code = UInt8(bitPattern: objCType.pointee)
        return code == UInt8(ascii: "d") || code == UInt8(ascii: "f")
    }
}
