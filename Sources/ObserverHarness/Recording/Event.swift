/// One recorded event: 40 bytes, no references, so the log is a flat buffer.
///
/// Which fields apply depends on ``kind``; unused fields are zero
/// (``Event/none`` for ``cause``). Object, registration, channel and site
/// fields are small integers into the recording's tables, never addresses.
struct Event: Equatable, Sendable {
    /// Marks "no event" in ``cause``.
    static let none = UInt32.max

    /// Monotonic nanoseconds.
    var time: UInt64
    var kind: EventKind
    var flags: EventFlags
    var thread: UInt16
    var site: UInt32
    var registry: UInt32
    /// Interned string: notification name, subject channel, property name,
    /// delegate method, invoked method, or shared-state key.
    var channel: UInt32
    /// The observer, delegate, tracked object or invoked object.
    var object: UInt32
    /// The sender, owner, observed object, sender filter or retaining holder.
    var subject: UInt32
    /// The registration (or token) the event concerns. For effects, the
    /// interned JSON of the value written; for `step`, the step index.
    var registration: UInt32
    /// The post that caused a delivery, or the delivery / delegate call /
    /// invocation whose body emitted this event.
    var cause: UInt32

    init(
        kind: EventKind, flags: EventFlags = .none, site: UInt32 = 0, registry: UInt32 = 0,
        channel: UInt32 = 0, object: UInt32 = 0, subject: UInt32 = 0,
        registration: UInt32 = 0, cause: UInt32 = Event.none,
        time: UInt64 = 0, thread: UInt16 = 0
    ) {
        self.time = time
        self.kind = kind
        self.flags = flags
        self.thread = thread
        self.site = site
        self.registry = registry
        self.channel = channel
        self.object = object
        self.subject = subject
        self.registration = registration
        self.cause = cause
    }
}

/// What an event records. Trace files spell kinds by ``traceName``.
enum EventKind: UInt8, CaseIterable, Sendable {
    /// How many kinds there are: `allCases` builds an array on every read.
    static let caseCount = allCases.count

    /// An object became known to the recorder (`object`; `channel` = type name).
    case track
    /// The app dropped its own reference (`object`); it should deallocate now.
    case appRelease
    /// The object deallocated. ``EventFlags/detectedLate`` when a weak
    /// reference was found empty rather than the deinit observed directly.
    case dealloc
    /// `subject` (the holder) now keeps `object` alive: a modelled strong reference.
    case retain
    /// A registration (`registration`) of `object` on `channel`, filtered to `subject`.
    case add
    /// A removal. `registration` is what it ended, 0 when it matched nothing.
    case remove
    /// A notification posted on `channel` by `subject`.
    case post
    /// An observed property (`channel`) of `subject` was set.
    case propertySet
    /// `subject`'s delegate became `object` (0 = nil).
    case delegateSet
    /// `subject` called `channel` on its delegate.
    case delegateCall
    /// A handler of `registration` ran for `cause`.
    case deliver
    /// A delivery skipped because the weakly held observer is gone.
    case deliverSkipped
    /// A delivery that would have reached a deallocated `unowned` observer.
    case deliverToDead
    /// The last reference to a registration's token went away.
    case tokenDropped
    /// A method (`channel`) of `object` was invoked.
    case invoke
    /// An action on shared state (`channel` = key) inside a handler.
    case increment, stateSet, append, read
    /// A scenario step began (`registration` = top-level step index).
    case step
    /// A handler nested too deeply on `channel`; the replay branch ended.
    case cycleCut
    /// An async observation (a `for await` over notifications or messages)
    /// began: `object` is the loop, `subject` its owner (0: none given),
    /// `registration` what feeds it, `channel` the name or message type.
    case asyncOpen
    /// The loop `object` took a value; `cause` is the delivery that buffered it.
    case asyncConsume
    /// The loop `object` ended; `channel` says how (``AsyncObservationEnd``).
    case asyncEnd
    /// A full message buffer of loop `object` dropped the value its
    /// delivery `cause` had buffered: the loop never sees it.
    case messageDropped
    /// A check waited for async work; `registration` = scheduler turns
    /// waited, `channel` = "settled" or "turn-limit".
    case settle
    /// `withObservationTracking` was armed: `registration`, at `site`, on the
    /// values tracked from that site (`channel`) for owner `object` (0: none).
    case observationArm
    /// A value tracked on `channel` changed (seen by the harness's own
    /// tracking); `registration` is the armed registration that sees it, 0
    /// when none was armed: the change was missed.
    case observationChange
    /// `onChange` of `registration` ran for the change `cause`.
    case observationFire
    /// A post on `channel` from outside every test's task, tied to no test,
    /// reached this test's registrations (delivered unrecorded), at `site`.
    /// `registration` packs how (``ExecutionContext``, low 8 bits) and how
    /// many tests were running (the rest).
    case scopeEscape
    /// Work the handler of `cause`, a delivery off its registration's
    /// isolation, started to run later (a `Task` inside it): started, or ran
    /// on that isolation; with ``EventFlags/offIsolation``, it ran off it.
    case hop
    /// A registration for every name (`registration`, at `site`) made through
    /// `Observers.center` in a test: it hears posts made through the router
    /// and the names the router observes on Foundation's center, not every
    /// post made straight on `NotificationCenter.default`.
    case unbridgedWildcard

    var traceName: String {
        switch self {
        case .track: "track"
        case .appRelease: "release"
        case .dealloc: "dealloc"
        case .retain: "retain"
        case .add: "add"
        case .remove: "remove"
        case .post: "post"
        case .propertySet: "property-set"
        case .delegateSet: "delegate-set"
        case .delegateCall: "delegate-call"
        case .deliver: "deliver"
        case .deliverSkipped: "deliver-skipped"
        case .deliverToDead: "deliver-to-dead"
        case .tokenDropped: "token-dropped"
        case .invoke: "invoke"
        case .increment: "increment"
        case .stateSet: "state-set"
        case .append: "append"
        case .read: "read"
        case .step: "step"
        case .cycleCut: "cycle-cut"
        case .asyncOpen: "async-open"
        case .asyncConsume: "async-consume"
        case .asyncEnd: "async-end"
        case .messageDropped: "message-dropped"
        case .settle: "settle"
        case .observationArm: "observation-arm"
        case .observationChange: "observation-change"
        case .observationFire: "observation-fire"
        case .scopeEscape: "scope-escape"
        case .hop: "hop"
        case .unbridgedWildcard: "unbridged-wildcard"
        }
    }

    static let byTraceName: [String: EventKind] =
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.traceName, $0) })

    var isDelivery: Bool { self == .deliver || self == .deliverSkipped || self == .deliverToDead }
    var isEffect: Bool { self == .increment || self == .stateSet || self == .append || self == .read }
}

/// Small per-event facts.
struct EventFlags: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// No flag. Per-event paths use it rather than `[]`, which a debug build
    /// (what `swift test` runs) makes through generic `SetAlgebra` calls.
    static var none: EventFlags { EventFlags(rawValue: 0) }

    /// Whether every flag of `member` is set. Declared here, not left to
    /// `OptionSet`, whose version a debug build runs through unspecialised
    /// generic code: the index and the rules ask it of most events they read.
    func contains(_ member: EventFlags) -> Bool { rawValue & member.rawValue == member.rawValue }

    /// `add`/`delegateSet`: the registration holds its observer weakly.
    static let weak = EventFlags(rawValue: 1 << 0)
    /// `add`/`delegateSet`: the registration holds its observer unowned.
    static let unowned = EventFlags(rawValue: 1 << 1)
    /// `add`: the block form, which only removing its token ends.
    static let tokenForm = EventFlags(rawValue: 1 << 2)
    /// `add`: no channel given, so every channel matches.
    static let anyChannel = EventFlags(rawValue: 1 << 3)
    /// `add`: a de-duplicating registry ignored this identical registration.
    static let ignoredDuplicate = EventFlags(rawValue: 1 << 4)
    /// `remove`: by token rather than by observer.
    static let byToken = EventFlags(rawValue: 1 << 5)
    /// `add`, `asyncOpen`: a typed-message registration (`addObserver(of:for:using:)`,
    /// `messages(of:for:)`); shares its bit with ``byToken``, which only `remove` uses.
    static let typedMessage = EventFlags(rawValue: 1 << 5)
    /// `add`: the registration ends when its token goes — a typed message's,
    /// and a property observation's (`observe`), as `NSKeyValueObservation`.
    static let endsWithToken = typedMessage
    /// `dealloc`: found by a weak reference, not observed in deinit.
    static let detectedLate = EventFlags(rawValue: 1 << 6)
    /// `track`: the object is the box of a value given as a notification's
    /// `object:` (shares its bit with ``detectedLate``, which only `dealloc` uses).
    static let boxedValue = EventFlags(rawValue: 1 << 6)
    /// `retain`: the holder keeps a registration's token in its stored
    /// properties: it owns that block registration (shares its bit with
    /// ``weak``, which only `add` and `delegateSet` use).
    static let tokenOwner = EventFlags(rawValue: 1 << 0)
    /// `retain`: the holder, a registration token, is what kept the target
    /// alive: its closure captured it (shares its bit with ``unowned``).
    static let pinnedLeak = EventFlags(rawValue: 1 << 1)
    /// `retain`: the holder keeps the task that runs the async loop (the
    /// target): the loop's owner, found with no `owner:` given (shares its
    /// bit with ``tokenForm``, which only `add` uses).
    static let loopOwner = EventFlags(rawValue: 1 << 2)
    /// `retain`: `channel` is the chain of strong references that keeps the
    /// released `object` alive, from the known object `subject` or the
    /// registration `registration` (shares its bit with ``anyChannel``,
    /// which only `add` uses).
    static let referenceChain = EventFlags(rawValue: 1 << 3)
    /// `retain`, with ``referenceChain``: no chain was found; `channel` says
    /// what was searched (shares its bit with ``ignoredDuplicate``).
    static let referenceChainNotFound = EventFlags(rawValue: 1 << 4)
    /// `remove`: the observer-wide form (`removeObserver(_:)`), no channel given.
    static let allChannels = EventFlags(rawValue: 1 << 7)
    /// `add`/`delegateSet`: made from code isolated to the main actor (shares
    /// its bit with ``allChannels``, which only `remove` uses).
    static let mainActorIsolated = EventFlags(rawValue: 1 << 7)
    /// `add`/`delegateSet`: made from code isolated to another actor (shares
    /// its bit with ``detectedLate``, which only `dealloc` uses).
    static let actorIsolated = EventFlags(rawValue: 1 << 6)
    /// A delivery that ran off its registration's isolation; a `hop` whose
    /// work ran off it.
    static let offIsolation = EventFlags(rawValue: 1 << 5)
    /// `hop`: live, the handler may have handed its work on unseen (a `Task`
    /// that ended before the handler returned leaves no trace), so it is
    /// judged only by what it and its tasks record (shares its bit with
    /// ``weak``, which only `add` and `delegateSet` use).
    static let unseenHandOff = EventFlags(rawValue: 1 << 0)
    /// `scopeEscape` in traces written before untold registrations went
    /// unnoted: the work was a registration. Read, never written now.
    static let escapedRegistration = EventFlags(rawValue: 1 << 0)
    /// `scopeEscape`: several running tests had used an object the work
    /// touched (its sender or subject), so that object could not tie it to
    /// one (shares its bit with ``unowned``, which only `add` and `delegateSet` use).
    static let sharedObject = EventFlags(rawValue: 1 << 1)
    /// A delivery of an isolated registration that ran on the main actor.
    static let onMainActor = EventFlags(rawValue: 1 << 6)

    /// `track`: the object is a registration token of this kind (the two
    /// bits of ``weak`` and ``unowned``, which only `add` and `delegateSet` use).
    init(token kind: TokenKind) { self.init(rawValue: kind.rawValue) }

    /// On a `track` event: the kind of registration token the object is, if it is one.
    var tokenKind: TokenKind? { TokenKind(rawValue: rawValue & 0b11) }

    var hold: Hold {
        if contains(.weak) { return .weak }
        if contains(.unowned) { return .unowned }
        return .strong
    }

    init(hold: Hold) {
        switch hold {
        case .strong: self = .none
        case .weak: self = .weak
        case .unowned: self = .unowned
        }
    }
}

/// A handle the harness hands out that ends a registration, as recorded on the
/// token's `track` event: the one place that says an object is a token.
enum TokenKind: UInt8, Sendable {
    /// A block registration's token (`addObserver(forName:object:queue:using:)`).
    case block = 1
    /// A property observation (`observe { … }`).
    case observation = 2
    /// A typed message's observer (`addObserver(of:for:using:)`).
    case messageObserver = 3

    /// How messages name such a token: `block#4 (Feed.swift:12)`.
    var word: String {
        switch self {
        case .block: "block"
        case .observation: "observation"
        case .messageObserver: "message-observer"
        }
    }
}
