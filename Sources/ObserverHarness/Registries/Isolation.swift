import Dispatch
import Foundation

/// Where code runs, as far as isolation matters.
///
/// Live, the harness can tell only whether code runs on the main actor: Swift
/// has no public, non-trapping way to ask which other actor is running. A
/// replay models the rest from a step's `"isolation"`.
enum ExecutionPlace: Equatable, Sendable {
    /// The main actor (live: the main queue, or the main thread).
    case mainActor
    /// Modelled: nonisolated code on the main thread (a test's body). Its
    /// deliveries are on the main actor; its registrations are nonisolated.
    case mainThread
    /// Live: not the main actor; which actor, if any, is unknown.
    case elsewhere
    /// Nonisolated code on a background thread (modelled, or an operation
    /// queue's thread): certainly no actor.
    case background
    /// Modelled: code isolated to the actor named by this string id.
    case actor(UInt32)

    /// Where the calling code runs, live. A few tens of nanoseconds, so the
    /// registries ask only when a registration has an isolation to check.
    static var current: ExecutionPlace { MainActorProbe.isOnMainActor ? .mainActor : .elsewhere }

    /// Where a registration made here is isolated (what `#isolation` would say).
    var isolation: RegistrationIsolation {
        switch self {
        case .mainActor: .mainActor
        case .actor(let name): .actor(name)
        case .mainThread, .elsewhere, .background: .nonisolated
        }
    }

    var isMainActor: Bool { self == .mainActor || self == .mainThread }
}

/// Whether code runs on the main actor. On Linux the main queue is not always
/// drained by the main thread (`dispatch_main` hands it to a worker, as a test
/// runner does), so the main queue is marked and asked, beside the thread.
private enum MainActorProbe {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    static var isOnMainActor: Bool {
        guard marked else { return false }
        return Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
    }
}

/// The isolation a registration was made from: its caller's `#isolation`.
/// Its deliveries must run there; one that does not is `delivery-off-isolation`.
enum RegistrationIsolation: Equatable, Sendable {
    case nonisolated
    case mainActor
    /// Another actor, modelled: a scenario's actor name id.
    case actor(UInt32)
    /// Another actor, live: its identity (which never keeps it alive).
    case liveActor(ObjectIdentifier)

    /// From a captured `#isolation`.
    init(_ isolation: (any Actor)?) {
        guard let isolation else {
            self = .nonisolated
            return
        }
        self = isolation === MainActor.shared ? .mainActor : .liveActor(ObjectIdentifier(isolation))
    }

    /// The `add` / `delegateSet` flags that record it.
    var flags: EventFlags {
        switch self {
        case .nonisolated: .none
        case .mainActor: .mainActorIsolated
        case .actor, .liveActor: .actorIsolated
        }
    }

    /// The flags of a delivery running at `place`: whether it ran on the
    /// main actor, and whether that is off this isolation.
    func deliveryFlags(at place: ExecutionPlace) -> EventFlags {
        let onMain = place.isMainActor ? EventFlags.onMainActor.rawValue : 0
        let off = isLeft(at: place) ? EventFlags.offIsolation.rawValue : 0
        return EventFlags(rawValue: onMain | off)
    }

    /// Whether a delivery running at `place` runs off this isolation. A live
    /// actor is judged only where it is certain: on the main actor.
    func isLeft(at place: ExecutionPlace) -> Bool {
        switch self {
        case .nonisolated: false
        case .mainActor: !place.isMainActor
        case .actor(let name):
            switch place {
            case .mainActor, .mainThread, .background: true
            case .actor(let other): other != name
            case .elsewhere: false
            }
        case .liveActor:
            switch place {
            case .mainActor, .mainThread, .background, .actor: true
            case .elsewhere: false
            }
        }
    }
}

extension ThreadContext {
    /// Counts a delivery in; the outermost one forgets where the previous
    /// one ran.
    @inline(__always)
    func enterDelivery() {
        if deliveryDepth == 0 { deliveryPlace = nil }
        deliveryDepth += 1
    }

    /// Where the delivery in progress runs, live: asked once per outermost
    /// post (outside any, asked each time).
    var liveDeliveryPlace: ExecutionPlace {
        guard deliveryDepth > 0 else { return .current }
        if let deliveryPlace { return deliveryPlace }
        let place = ExecutionPlace.current
        deliveryPlace = place
        return place
    }
}
