/// A KVO-like observed property: a value that notifies its observers on every
/// set, with the observed object (`owner`) on record so observing an object that
/// deallocates first is caught.
///
/// ```swift
/// let image = harness.observedProperty("image", of: coverView, initialValue: Optional<Data>.none)
/// image.addObserver(self) { observer, change in observer.hideSpinner() }   // unowned, like KVO
/// image.set(downloaded)
/// image.removeObserver(self)
/// ```
public final class ObservedProperty<Value>: @unchecked Sendable {
    /// The old and new value of one set.
    public struct Change {
        public let oldValue: Value
        public let newValue: Value
    }

    let store: RegistrationStore<(AnyObject?, Change) -> Void>
    private let property: String
    private let ownerID: UInt32
    // Guarded by the recorder's lock.
    private var storage: Value

    init(recorder: Recorder, property: String, owner: AnyObject, initialValue: Value, order: DeliveryOrder,
         location: CodeLocation) {
        ownerID = recorder.objectID(for: owner, site: location)
        self.property = property
        storage = initialValue
        store = RegistrationStore(recorder: recorder,
                                  info: RegistryInfo(name: "\(recorder.objectName(ownerID)).\(property)",
                                                     kind: .property),
                                  order: order)
    }

    /// The current value.
    public var value: Value { store.recorder.withLock { storage } }

    /// Sets the value and notifies every observer.
    public func set(_ newValue: Value,
                    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                    line: UInt = #line, column: UInt = #column) {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let change: Change = store.recorder.withLock {
            defer { storage = newValue }
            return Change(oldValue: storage, newValue: newValue)
        }
        store.post(kind: .propertySet, channel: property, senderID: ownerID, site: .location(location)) {
            registration, observer, _ in registration.handler(observer, change)
        }
    }

    /// KVO's `addObserver(_:forKeyPath:)`: `observer` is held `unowned` by
    /// default, so a set after it deallocates is recorded as a message to a
    /// dead object (KVO's crash). Remove it with ``removeObserver(_:fileID:filePath:line:column:)``.
    public func addObserver<Observer: AnyObject>(
        _ observer: Observer, hold: Hold = .unowned,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        handler: @escaping (Observer, Change) -> Void
    ) {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let id = store.recorder.objectID(for: observer, site: location)
        _ = store.add(observer: observer, observerID: id, hold: hold, channel: property, senderID: ownerID,
                      tokenForm: false, dedupe: false, site: .location(location)) { target, change in
            if let target { handler(unsafeDowncast(target, to: Observer.self), change) }
        }
    }

    /// KVO's `removeObserver(_:forKeyPath:)`.
    public func removeObserver(_ observer: AnyObject,
                               fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                               line: UInt = #line, column: UInt = #column) {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        store.remove(observerID: store.recorder.objectIDForRemoval(of: observer), channel: property, senderID: ownerID,
                     site: .location(location))
    }

    /// The block form (`observe(_:changeHandler:)`): like
    /// `NSKeyValueObservation`, the observation ends when the token is
    /// invalidated or deallocated, so keep it.
    public func observe(fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                        line: UInt = #line, column: UInt = #column,
                        _ handler: @escaping (Change) -> Void) -> PropertyObservation {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let token = PropertyObservation()
        let tokenID = store.recorder.objectID(for: token, site: location)
        let result = store.add(observer: nil, observerID: tokenID, hold: .strong, channel: property,
                               senderID: ownerID, tokenForm: true, dedupe: false, site: .location(location)) { _, change in
            handler(change)
        }
        if case .added(let registration) = result {
            let store = self.store
            token.end = { location in
                store.remove(registrationID: registration.id, observerID: tokenID, site: .location(location))
            }
        }
        return token
    }
}

/// Ends a block observation of an ``ObservedProperty`` when invalidated or deallocated.
public final class PropertyObservation: @unchecked Sendable {
    // Set once before the token is returned; cleared (under no contention:
    // invalidate is the owner's call) when the observation ends.
    fileprivate var end: ((CodeLocation) -> Void)?

    /// Ends the observation.
    public func invalidate(fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                           line: UInt = #line, column: UInt = #column) {
        end?(CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        end = nil
    }

    deinit { end?(CodeLocation()) }
}
