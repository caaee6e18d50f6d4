/// A scenario: a small, deterministic model of an app's observer
/// wiring that the harness replays with real objects and real ARC.
///
/// ```swift
/// let scenario = try Scenario.load(contentsOf: url)
/// let report = scenario.run()
/// ```
public struct Scenario: Sendable {
    /// The `"scenario"` name.
    public let name: String
    public let description: String?
    /// The file it was read from, as given (reports never show it).
    public let path: String
    /// Findings the scenario accepts, with why (`"suppress"`): reported as
    /// suppressed, never dropped.
    public let suppressions: [Suppression]
    let registries: [String: RegistryDeclaration]
    let steps: [Step]
    /// How many distinct call sites the steps name (see ``Step/siteNumber``).
    let siteCount: Int
}

/// A rule a scenario accepts, and why: `{"rule": "unobserved-post", "reason": "…"}`.
public struct Suppression: Sendable, Hashable {
    public let rule: String
    public let reason: String

    public init(rule: String, reason: String) {
        self.rule = rule
        self.reason = reason
    }
}

/// A registry the scenario declares.
struct RegistryDeclaration: Sendable {
    let name: String
    let kind: RegistryKind
    let hold: Hold
    let dedupe: Bool
    let order: OrderPromise
}

/// Where in the scenario file something was written: for errors, and the
/// call site of steps that give no `"site"`.
struct ScenarioPosition: Sendable, Hashable {
    let line: Int
    let column: Int
}

/// One step: what to do, the site it stands for, and where it was written.
struct Step: Sendable {
    let operation: Operation
    let site: CallSite
    /// `site`'s number among the scenario's distinct sites, 0, 1, 2, …: a
    /// replay interns each site once, by number, instead of hashing its
    /// text at every step it runs.
    let siteNumber: Int32
    let position: ScenarioPosition
    /// Where a top-level step runs (`"isolation"`); nil: nonisolated, on the main thread.
    var isolation: StepIsolation? = nil

    indirect enum Operation: Sendable {
        case create(object: String, type: String, methods: [String: Handler])
        case release(object: String)
        /// `tokenOwner`: the target stands for a block registration's token
        /// (the observer of an `observe` with a `token`), and the holder owns
        /// that registration, as the harness finds by reflection in live tests.
        case retain(holder: String, target: String, tokenOwner: Bool)
        case observe(Observation)
        case remove(Removal)
        case dropToken(String)
        /// `senderValue`: a value given as a notification's `object:`. `typed`:
        /// a typed message, which only typed registrations and loops receive.
        case post(
            registry: String, channel: String?, sender: String?, payload: JSONValue, senderValue: JSONValue? = nil,
            typed: Bool = false)
        case set(registry: String, object: String, property: String, value: ValueExpression)
        case setDelegate(registry: String, owner: String, delegate: String?, hold: Hold?)
        case callDelegate(registry: String, owner: String, method: String, payload: JSONValue)
        case invoke(object: String, method: String, payload: JSONValue)
        case concurrently([[Step]])
        /// A `for await` loop over a center's notifications or messages.
        case openLoop(LoopOpening)
        /// The loop takes up to `count` buffered values (nil: all of them).
        case runLoop(loop: String, count: Int?)
        /// The loop's task is cancelled: the loop ends.
        case cancelLoop(String)
        /// An effect on shared state (handlers only).
        case state(StateEffect)
        /// `Task { … }` started by a handler (handlers only): its effects run
        /// at `isolation` once the top-level step that started it ends.
        case hop(isolation: StepIsolation, handler: Handler)
    }
}

struct Observation: Sendable {
    let registry: String
    let observer: String
    /// nil in a notification center means every name.
    let channel: String?
    /// The sender filter, or the observed object of a property registry.
    let sender: String?
    let response: Response
    let hold: Hold?
    let token: String?
    /// A value given as a notification's `object:` filter (`senderValue`).
    var senderValue: JSONValue? = nil
    /// A typed-message observer (`addObserver(of:for:using:)`): its token
    /// ends it when dropped, and without a `token` it is dropped at once.
    var typed = false

    enum Response: Sendable {
        case handler(Handler)
        case method(String)
    }
}

struct Removal: Sendable {
    let registry: String
    let token: String?
    let observer: String?
    let channel: String?
    /// Whether `channel` was given (a notification center's `null` channel
    /// cannot be removed by name, so absence and null differ).
    let channelGiven: Bool
    let sender: String?
    /// A value given as the removal's `object:` (`senderValue`).
    var senderValue: JSONValue? = nil
}

/// A handler or method body: effects run in order.
struct Handler: Sendable {
    let effects: [Step]
}

/// `increment`, `set`, `append`, `read` on the shared state.
enum StateEffect: Sendable {
    case increment(String)
    case set(String, ValueExpression)
    case append(String, ValueExpression)
    case read(String)
}

/// A value to write: a literal, or `{"payload": "field"}` from the
/// notification being handled.
enum ValueExpression: Sendable {
    case literal(JSONValue)
    case payloadField(String)
}

/// `open-loop`: a `Task { for await value in center.postedNotifications(named:) }`
/// (or `messages(of:for:bufferSize:)` when `typed`), working for `owner`.
struct LoopOpening: Sendable {
    let registry: String
    let loop: String
    let owner: String?
    let channel: String
    let sender: String?
    let typed: Bool
    /// The most values kept while the loop is busy (messages only); nil: no limit.
    let bufferSize: Int?
    /// How the loop's task holds its owner: `strong` (captures self) or `weak`.
    let hold: Hold
    let handler: Handler
}
