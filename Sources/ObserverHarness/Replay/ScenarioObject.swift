/// A scenario object: a real class instance, so ARC decides when it
/// deallocates. Its `deinit` method runs from its real `deinit`.
final class ScenarioObject {
    let name: String
    let id: UInt32
    let methods: [String: Handler]
    /// Strong references modelled by `retain` steps.
    var held: [ScenarioObject] = []
    weak var replay: Replay?

    init(name: String, id: UInt32, methods: [String: Handler], replay: Replay) {
        self.name = name
        self.id = id
        self.methods = methods
        self.replay = replay
    }

    deinit {
        // Runs before `held` is released, as a Swift or Objective-C deinit
        // runs before the object's own references go.
        replay?.objectIsDeinitializing(name: name, id: id, methods: methods)
    }
}

/// The handle an `observe` with a `token` returns. Dropping the last
/// reference while the registration is active is recorded.
final class ScenarioToken {
    let registrationID: UInt32
    let observerID: UInt32
    let store: RegistrationStore<ReplayResponse>
    /// A typed-message token: dropping it ends its registration.
    let ending: Bool

    init(registrationID: UInt32, observerID: UInt32, store: RegistrationStore<ReplayResponse>, ending: Bool = false) {
        self.registrationID = registrationID
        self.observerID = observerID
        self.store = store
        self.ending = ending
    }

    deinit { store.tokenDropped(registrationID: registrationID, observerID: observerID, ending: ending) }
}

/// What a registration runs when delivered to.
enum ReplayResponse {
    case handler(Handler)
    case method(String)
    /// An `open-loop`'s registration: buffers for the loop of that name.
    case loop(String)
}
