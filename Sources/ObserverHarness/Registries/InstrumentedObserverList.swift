/// The harness's side of an ``ObserverList``: records every add, remove and
/// delivery, and delivers in the harness's ``DeliveryOrder``. Like the plain
/// list, a post goes to everyone registered when it started, whatever its
/// handlers remove meanwhile.
final class InstrumentedObserverList: ObserverListBackend, @unchecked Sendable {
    let store: RegistrationStore<Void>
    private let dedupe: Bool

    init(recorder: Recorder, name: String, hold: Hold, dedupe: Bool, order: DeliveryOrder) {
        store = RegistrationStore(
            recorder: recorder,
            info: RegistryInfo(
                name: name, kind: .subject, dedupe: dedupe, snapshotDelivery: true, declaredHold: hold),
            order: order)
        self.dedupe = dedupe
    }

    func add(_ observer: AnyObject, channel: String, hold: Hold, location: CodeLocation) {
        let id = store.recorder.objectID(for: observer, site: location)
        _ = store.add(
            observer: observer, observerID: id, hold: hold, channel: channel, senderID: 0,
            tokenForm: false, dedupe: dedupe, site: .location(location),
            isolation: RegistrationIsolation(location.isolation), handler: ())
    }

    func remove(_ observer: AnyObject, channel: String?, location: CodeLocation) {
        store.remove(
            observerID: store.recorder.objectIDForRemoval(of: observer), channel: channel, senderID: 0,
            site: .location(location))
    }

    /// An `unowned` observer that has deallocated is recorded as a delivery to
    /// a dead object and skipped.
    func notify(channel: String, location: CodeLocation, _ body: (AnyObject) -> Void) {
        store.post(channel: channel, senderID: 0, site: .location(location)) { _, observer, _ in
            if let observer { body(observer) }
        }
    }

    var count: Int { store.activeCount }
}
