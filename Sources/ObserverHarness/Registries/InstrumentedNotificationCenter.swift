import Foundation

/// A NotificationCenter drop-in that records every add, remove, post and
/// delivery, and delivers by itself with Foundation's semantics:
///
/// - `object:` filters by sender identity; a `nil` name observes every name;
/// - delivery is synchronous, on the posting thread, in registration order
///   (or the harness's ``DeliveryOrder``);
/// - a block given a queue runs on that `OperationQueue`, and `post` waits;
/// - a block registration ends only when its token is removed: removing "the
///   observer" some other way matches nothing, as in Foundation;
/// - the observer form (``addObserver(_:name:object:fileID:filePath:line:column:handler:)``,
///   and the selector form on Apple platforms) holds the observer weakly and is
///   removed by observer.
///
/// Get one from ``Harness/notificationCenter(_:order:)``.
public final class InstrumentedNotificationCenter: NotificationCenterProtocol, @unchecked Sendable {
    enum Handler {
        case block(@Sendable (Notification) -> Void, queue: OperationQueue?)
        case method((AnyObject, Notification) -> Void)
    }

    let store: RegistrationStore<Handler>
    private var recorder: Recorder { store.recorder }

    init(recorder: Recorder, name: String, order: DeliveryOrder) {
        store = RegistrationStore(recorder: recorder, info: RegistryInfo(name: name, kind: .notificationCenter),
                                  order: order)
    }

    /// The registry's name in reports.
    public var name: String { store.name }

    // MARK: Adding

    public func addObserver(forName name: Notification.Name?, object: Any?, queue: OperationQueue?,
                            location: CodeLocation,
                            using block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol {
        let token = NotificationObserverToken(store: store)
        let tokenID = recorder.objectID(for: token, site: location)
        let senderID = senderID(of: object)
        let result = store.add(observer: nil, observerID: tokenID, hold: .strong, channel: name?.rawValue,
                               senderID: senderID, tokenForm: true, dedupe: false, site: .location(location),
                               handler: .block(block, queue: queue))
        if case .added(let registration) = result { token.registrationID = registration.id }
        token.observerID = tokenID
        return token
    }

    /// The observer form: `observer` is held weakly, gets `handler(observer, notification)`
    /// and is removed with `removeObserver(_:)`.
    /// It models `addObserver(_:selector:name:object:)` on every platform.
    public func addObserver<Observer: AnyObject>(
        _ observer: Observer, name: Notification.Name?, object: Any?,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        handler: @escaping (Observer, Notification) -> Void
    ) {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        addMethodObserver(observer, name: name, object: object, location: location) { target, notification in
            // The store only hands back the object registered here.
            handler(unsafeDowncast(target, to: Observer.self), notification)
        }
    }

    func addMethodObserver(_ observer: AnyObject, name: Notification.Name?, object: Any?, location: CodeLocation,
                           handler: @escaping (AnyObject, Notification) -> Void) {
        let observerID = recorder.objectID(for: observer, site: location)
        _ = store.add(observer: observer, observerID: observerID, hold: .weak, channel: name?.rawValue,
                      senderID: senderID(of: object), tokenForm: false, dedupe: false, site: .location(location),
                      handler: .method(handler))
    }

    #if canImport(ObjectiveC)
    /// Foundation's selector form: `observer` is held weakly and receives
    /// `selector` with the notification.
    public func addObserver(_ observer: Any, selector: Selector, name: Notification.Name?, object: Any?,
                            location: CodeLocation) {
        let target = observer as AnyObject
        addMethodObserver(target, name: name, object: object, location: location) { target, notification in
            _ = target.perform(selector, with: notification as NSNotification)
        }
    }
    #endif

    // MARK: Removing

    public func removeObserver(_ observer: Any, location: CodeLocation) {
        removeObserver(observer, name: nil, object: nil, location: location)
    }

    public func removeObserver(_ observer: Any, name: Notification.Name?, object: Any?, location: CodeLocation) {
        if let token = observer as? NotificationObserverToken, token.store === store {
            // As in Foundation, a name or object given must match the block registration's own.
            store.remove(registrationID: token.registrationID, observerID: token.observerID, channel: name?.rawValue,
                         senderID: senderID(of: object), site: .location(location))
            return
        }
        guard let target = classInstance(observer) else {
            store.remove(observerID: 0, channel: name?.rawValue, senderID: 0, site: .location(location))
            return
        }
        store.remove(observerID: recorder.objectIDForRemoval(of: target), channel: name?.rawValue,
                     senderID: senderID(of: object), site: .location(location))
    }

    // MARK: Posting

    public func post(_ notification: Notification, location: CodeLocation) {
        let senderID = senderID(of: notification.object)
        store.post(channel: notification.name.rawValue, senderID: senderID, site: .location(location)) {
            registration, observer, delivery in
            switch registration.handler {
            case .method(let handler):
                if let observer { handler(observer, notification) }
            case .block(let block, let queue):
                guard let queue, queue !== OperationQueue.current else {
                    block(notification)
                    return
                }
                // `post` waits for the operation, so the notification is not
                // shared with the posting thread while the block runs.
                nonisolated(unsafe) let sent = notification
                let recorder = self.recorder
                queue.addOperations([BlockOperation { recorder.withFrame(delivery) { block(sent) } }],
                                    waitUntilFinished: true)
            }
        }
    }

    public func post(name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]?, location: CodeLocation) {
        post(Notification(name: name, object: object, userInfo: userInfo), location: location)
    }

    /// How many registrations are active.
    public var registrationCount: Int { store.activeCount }

    // MARK: Helpers

    private func senderID(of object: Any?) -> UInt32 {
        guard let object, let instance = classInstance(object) else { return 0 }
        return recorder.objectID(for: instance)
    }
}

/// A class instance, or nil for a value (values have no identity to filter by).
func classInstance(_ value: Any) -> AnyObject? {
    type(of: value) is AnyClass ? value as AnyObject : nil
}

/// The token a block registration returns. Only removing it ends the
/// registration; if its last reference goes while the registration is
/// active, that is recorded as a discarded token.
final class NotificationObserverToken: NSObject, @unchecked Sendable {
    let store: RegistrationStore<InstrumentedNotificationCenter.Handler>
    // Written once, before the token is returned.
    var registrationID: UInt32 = 0
    var observerID: UInt32 = 0

    init(store: RegistrationStore<InstrumentedNotificationCenter.Handler>) {
        self.store = store
    }

    deinit {
        store.tokenDropped(registrationID: registrationID, observerID: observerID)
    }
}
