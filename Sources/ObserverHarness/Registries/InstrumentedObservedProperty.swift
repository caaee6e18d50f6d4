/// The harness's side of an ``ObservedProperty``, with the observed object
/// (`owner`) on record so observing an object that deallocates first is caught.
final class InstrumentedObservedProperty: ObservedPropertyBackend, @unchecked Sendable {
    let store: RegistrationStore<(AnyObject?, Any) -> Void>
    private let property: String
    private let ownerID: UInt32

    init(recorder: Recorder, property: String, owner: AnyObject, order: DeliveryOrder, location: CodeLocation) {
        ownerID = recorder.objectID(for: owner, site: location)
        self.property = property
        store = RegistrationStore(
            recorder: recorder,
            // Delivered from the observers as the set found them, as the plain property does:
            // one removed during the set is still called.
            info: RegistryInfo(
                name: "\(recorder.objectName(ownerID)).\(property)",
                kind: .property, snapshotDelivery: true),
            order: order)
    }

    func didSet(_ change: Any, location: CodeLocation) {
        store.post(kind: .propertySet, channel: property, senderID: ownerID, site: .location(location)) {
            registration, observer, _ in registration.handler(observer, change)
        }
    }

    /// `unowned` (KVO's hold): a set after the observer deallocates is recorded
    /// as a message to a dead object.
    func addObserver(
        _ observer: AnyObject, hold: Hold, location: CodeLocation,
        handler: @escaping (AnyObject, Any) -> Void
    ) {
        ScopeWarnings.checkForeignChange(of: store.name, kind: "property", recordedBy: store.recorder, at: location)
        let id = store.recorder.objectID(for: observer, site: location)
        _ = store.add(
            observer: observer, observerID: id, hold: hold, channel: property, senderID: ownerID,
            tokenForm: false, dedupe: false, site: .location(location),
            isolation: RegistrationIsolation(location.isolation)
        ) { target, change in
            if let target { handler(target, change) }
        }
    }

    func removeObserver(_ observer: AnyObject, location: CodeLocation) {
        store.remove(
            observerID: store.recorder.objectIDForRemoval(of: observer), channel: property, senderID: ownerID,
            site: .location(location))
    }

    func observe(
        token: AnyObject, location: CodeLocation,
        handler: @escaping (Any) -> Void
    ) -> (@Sendable (CodeLocation?) -> Void)? {
        let tokenID = store.recorder.tokenID(for: token, kind: .observation, site: location)
        // Like a typed message's, the registration ends with its token.
        let result = store.add(
            observer: nil, observerID: tokenID, hold: .strong, channel: property,
            senderID: ownerID, tokenForm: true, dedupe: false, site: .location(location),
            isolation: RegistrationIsolation(location.isolation),
            handler: { _, change in handler(change) }, extraFlags: .endsWithToken)
        guard case .added(let registration) = result else { return nil }
        let store = self.store
        let registrationID = registration.id
        return { location in
            guard let location else {
                store.tokenDropped(registrationID: registrationID, observerID: tokenID, ending: true)
                return
            }
            store.remove(registrationID: registrationID, observerID: tokenID, site: .location(location))
        }
    }
}
