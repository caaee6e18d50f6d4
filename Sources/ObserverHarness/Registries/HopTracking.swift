/// Where the work a handler hands on ends up, for a delivery that ran off its
/// registration's isolation.
///
/// Swift cannot say at run time what a closure passed as a plain
/// `@Sendable (Notification) -> Void` is isolated to (only `@isolated(any)`
/// function types carry `.isolation`, and Foundation's signatures have none),
/// nor which actor is running, short of trapping. What the harness can see is
/// what the handler does: while such a delivery runs, a task-local
/// ``HopOrigin`` names it. Whatever the handler records in the delivery
/// itself ran off the isolation; a `Task` it starts inherits the origin, so
/// when the task records something the harness learns whether that ran on
/// the registration's isolation (`hop` events).
final class HopOrigin: Sendable {
    let recorderID: ObjectIdentifier
    /// The delivery off its isolation, and its registration.
    let delivery: UInt32
    let registration: UInt32
    let isolation: RegistrationIsolation

    init(recorder: Recorder, delivery: UInt32, registration: UInt32, isolation: RegistrationIsolation) {
        recorderID = ObjectIdentifier(recorder)
        self.delivery = delivery
        self.registration = registration
        self.isolation = isolation
    }

    /// Whether work recorded now runs off the registration's isolation: true
    /// or false where that is certain, nil where it is not (a live actor seen
    /// from a call that does not say where it runs).
    func isLeft(callerIsolation: CallerIsolation, context: ThreadContext) -> Bool? {
        if let modelled = context.modelledPlace { return isolation.isLeft(at: modelled) }
        switch isolation {
        case .nonisolated: return false
        case .mainActor: return !ExecutionPlace.current.isMainActor
        case .actor: return isolation.isLeft(at: .current)
        case .liveActor(let actor):
            if case .known(let caller) = callerIsolation {
                guard let caller else { return true }
                return ObjectIdentifier(caller) != actor
            }
            return ExecutionPlace.current.isMainActor ? true : nil
        }
    }

    @TaskLocal static var current: HopOrigin?
}

/// What a recorded call says about the isolation it runs on.
enum CallerIsolation {
    /// Nothing (most registry calls): judged by the thread alone.
    case unknown
    /// Its `#isolation` (nil: nonisolated).
    case known((any Actor)?)
}

extension Recorder {
    /// Runs a delivery that is off its registration's isolation with its
    /// ``HopOrigin`` visible to the handler, and records whether the handler
    /// handed work on.
    ///
    /// In a replay a handler's hop holds the origin until the step ends, so a
    /// hop is recorded exactly when the handler made one. Live, a `Task` the
    /// handler started holds it only until the task ends, which may be
    /// before the handler returns: whether it is still held says when the
    /// task ran, not whether there was one. So live the hop is recorded as
    /// unseen, for every such delivery, and the handler is judged only by
    /// what it and its tasks record.
    func runOffIsolation(
        delivery: UInt32, registration: UInt32, isolation: RegistrationIsolation, _ body: () -> Void
    ) {
        var origin = HopOrigin(recorder: self, delivery: delivery, registration: registration, isolation: isolation)
        HopOrigin.$current.withValue(origin, operation: body)
        if ThreadContext.current.modelledPlace == nil {
            recordHop(of: origin, flags: .unseenHandOff)
        } else if !isKnownUniquelyReferenced(&origin) {
            recordHop(of: origin, flags: .none)
        }
    }
}
