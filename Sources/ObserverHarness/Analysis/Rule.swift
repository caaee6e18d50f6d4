/// Everything about a rule, in one place: its stable id, severity, the words
/// `harness-cli explain` prints, and scenario examples that fire it and that
/// don't. Reports, SARIF, `explain`, the documentation and the rule tests all
/// read it from here.
///
/// A rule's file declares its descriptor next to its check. Examples are the
/// scenario's `steps` array (JSON), run with one registry of each kind —
/// `center` (notification-center), `subject`, `kvo` (property) and `slot`
/// (delegate) — unless the example gives its own `registries`. In a
/// triggering example, `↓` marks the top-level step each finding must point
/// at; a clean example is the near miss, the same wiring done right, and must
/// not fire the rule. One parameterized test runs every example of every rule.
///
/// ```swift
/// let descriptor = RuleDescriptor(
///     id: "unobserved-post", severity: .note, category: .design,
///     summary: "A post that no registration ever received.",
///     explanation: "…", fix: "…",
///     triggering: [RuleExample("""
///         [ ↓{ "op": "post", "registry": "center", "channel": "Nobody" } ]
///         """)],
///     clean: [RuleExample("""
///         [ { "op": "create", "object": "a" },
///           { "op": "observe", "registry": "center", "observer": "a", "channel": "Somebody", "handler": [] },
///           { "op": "post", "registry": "center", "channel": "Somebody" } ]
///         """)])
/// ```
public struct RuleDescriptor: Sendable, Hashable {
    /// Stable id; never renamed (reports, baselines and suppressions name it).
    public let id: String
    public let severity: Severity
    /// What the rule is about: lifetimes, registrations, deliveries or design.
    public let category: RuleCategory
    /// One line: when it fires.
    public let summary: String
    /// A paragraph: what it means and why it matters.
    public let explanation: String
    /// How to fix it.
    public let fix: String
    /// Scenarios that fire the rule, `↓` marking the step each finding names.
    public let triggeringExamples: [RuleExample]
    /// Near misses: the same wiring done right, which must not fire it.
    public let cleanExamples: [RuleExample]
    /// Only a live test can fire it: what it judges has no scenario form
    /// (test scopes), so it carries no scenario examples.
    public let isLiveOnly: Bool

    init(
        id: String, severity: Severity, category: RuleCategory, summary: String, explanation: String,
        fix: String, triggering: [RuleExample], clean: [RuleExample], liveOnly: Bool = false
    ) {
        isLiveOnly = liveOnly
        self.id = id
        self.severity = severity
        self.category = category
        self.summary = summary
        self.explanation = explanation
        self.fix = fix
        triggeringExamples = triggering
        cleanExamples = clean
    }
}

/// What a rule judges.
public enum RuleCategory: String, Sendable, Hashable, CaseIterable {
    /// When objects die relative to their registrations. A replay's lifetime
    /// findings are part of its outcome, compared across orders.
    case lifetime
    /// How registrations are added and removed.
    case registration
    /// What happens while a registry delivers.
    case delivery
    /// Observer wiring that works but is the wrong tool.
    case design
}

/// A check over an indexed recording. Each rule lives in its own file under
/// `Analysis/Rules` and is listed once in ``RuleCatalog``.
protocol Rule: Sendable {
    var descriptor: RuleDescriptor { get }
    /// The kinds of event without which this rule cannot fire: when none of
    /// them occurs (most of a small test's rules), the analysis skips it
    /// rather than build its tables. Empty: it always runs.
    var firesOnlyWith: EventKinds { get }
    /// Narrower: kinds of event of which one must carry one of these flags
    /// for the rule to fire (a flag's bit means something per kind). Nil: no such need.
    var firesOnlyWithFlagged: FlaggedKinds? { get }
    /// Narrower still: facts the index finds as it is built (a removal that
    /// matched nothing, a post that reached no one), of which one must hold.
    /// Nil: no such need.
    var firesOnlyWithFact: TraceFacts? { get }
    func check(_ trace: TraceIndex, into findings: inout RuleFindings)
    /// Judges two explored replays whose outcomes differ (most rules need only one trace).
    func check(_ divergence: Divergence, into findings: inout [Finding])
}

extension Rule {
    func check(_ divergence: Divergence, into findings: inout [Finding]) {}

    var firesOnlyWith: EventKinds { EventKinds() }

    var firesOnlyWithFlagged: FlaggedKinds? { nil }

    var firesOnlyWithFact: TraceFacts? { nil }

    /// Every finding of this rule in `trace`, as found: repeats not folded.
    func check(_ trace: TraceIndex, into findings: inout [Finding]) {
        var found = RuleFindings(folding: false)
        check(trace, into: &found)
        findings += found.inReportOrder()
    }
}

extension Rule {
    /// A finding of this rule with its severity and fix filled in.
    func finding(
        _ message: String, registry: String? = nil, channel: String? = nil, objects: [String] = [],
        step: Int? = nil, site: CallSite? = nil, location: CodeLocation? = nil,
        events: [Int], fix: String? = nil
    ) -> Finding {
        Finding(
            rule: descriptor.id, severity: descriptor.severity,
            message: cuttingNames(message),
            registry: registry, channel: channel, objects: objects, step: step,
            site: location.map(CallSite.init) ?? site, events: events,
            fix: fix.map(cuttingNames) ?? descriptor.fix)
    }
}

/// A message or fix with the app's names in it cut to the report's limits:
/// quoted values, long unquoted names, then the whole text.
func cuttingNames(_ text: String) -> String {
    cuttingToMessageLimit(cuttingLongWords(cuttingQuotedValues(text)))
}

/// `text` with every quoted value (`"…"`: a name, a key) cut to
/// ``ValuePreview/limit`` characters. The names come from the app, and one may
/// be megabytes; the finding's own fields keep them whole.
func cuttingQuotedValues(_ text: String) -> String {
    guard text.utf8.count > ValuePreview.limit + 2, hasLongQuotedSpan(text) else { return text }
    var result = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "\"") {
        result += rest[...open]
        let afterOpen = rest.index(after: open)
        guard let close = rest[afterOpen...].firstIndex(of: "\"") else {
            result += rest[afterOpen...]
            return result
        }
        result += ValuePreview.cut(String(rest[afterOpen..<close])) + "\""
        rest = rest[rest.index(after: close)...]
    }
    return result + rest
}

/// The most characters a finding's message holds, whatever the names in it:
/// a message is read in a terminal, a pull request's annotation, a report.
let messageLimit = 2_000

/// `text` cut to ``messageLimit`` characters, ending in `…` when cut (names
/// cut one by one can still add up, as a finding listing many receivers).
func cuttingToMessageLimit(_ text: String) -> String {
    guard text.utf8.count > messageLimit, text.count > messageLimit else { return text }
    return String(text.prefix(messageLimit - 1)) + "…"
}

/// `text` with every run of characters without a space longer than twice
/// ``ValuePreview/limit`` cut to that, ending in `…`: a file name or an
/// object's label from the app, unquoted in a message, may be megabytes too.
func cuttingLongWords(_ text: String) -> String {
    let limit = 2 * ValuePreview.limit
    guard text.utf8.count > limit else { return text }
    // Bytes first: most messages have no such run.
    var run = 0
    var found = false
    for byte in text.utf8 {
        run = byte == UInt8(ascii: " ") ? 0 : run + 1
        if run > limit {
            found = true
            break
        }
    }
    guard found else { return text }
    var result = ""
    var word = ""
    func flush() {
        result += word.count > limit ? String(word.prefix(limit - 1)) + "…" : word
        word = ""
    }
    for character in text {
        if character == " " {
            flush()
            result.append(character)
        } else {
            word.append(character)
        }
    }
    flush()
    return result
}

/// Whether some quoted span of `text` is longer than ``ValuePreview/limit``
/// bytes (so it may be longer in characters). Every finding's message passes
/// here, a million for a trace of a million repeats: bytes, not characters.
private func hasLongQuotedSpan(_ text: String) -> Bool {
    var spanStart: Int?
    var offset = 0
    for byte in text.utf8 {
        if byte == UInt8(ascii: "\"") {
            if let start = spanStart {
                if offset - start - 1 > ValuePreview.limit { return true }
                spanStart = nil
            } else {
                spanStart = offset
            }
        }
        offset += 1
    }
    // An unclosed quote is kept whole, as the cut does.
    return false
}

/// Every rule, in catalogue order.
public enum RuleCatalog {
    static let rules: [any Rule] = [
        NotifyAfterDeallocRule(),
        DanglingRegistrationRule(),
        RegistrationKeepsObserverAliveRule(),
        ObservedObjectDeallocatedRule(),
        DiscardedTokenRule(),
        DuplicateRegistrationRule(),
        UnbalancedRemovalRule(),
        MutationDuringNotifyRule(),
        OrderingDependenceRule(),
        NotificationCycleRule(),
        ExplorationLimitRule(),
        BroadcastAsCommandRule(),
        DelegateAsBroadcastRule(),
        DelegateOverwrittenRule(),
        SingleReceiverBroadcastRule(),
        UnobservedPostRule(),
        ChannelNameTypoRule(),
        AsyncObserverOutlivesOwnerRule(),
        MessageDroppedRule(),
        ValueObjectFilterRule(),
        DeliveryOffIsolationRule(),
        ObservationNotRearmedRule(),
        EscapedTestScopeRule(),
        WildcardMissesFoundationPostsRule(),
    ]

    /// What each rule needs to fire, in catalogue order.
    static let needs = rules.map(RuleNeeds.init)

    /// Every rule's descriptor, in catalogue order.
    public static var all: [RuleDescriptor] { rules.map(\.descriptor) }

    /// The rule with this id, if any.
    public static func descriptor(id: String) -> RuleDescriptor? {
        rules.first { $0.descriptor.id == id }?.descriptor
    }
}

/// A set of event kinds, one bit each.
struct EventKinds: Sendable, Equatable {
    fileprivate private(set) var bits: UInt64 = 0

    init(_ kinds: EventKind...) {
        for kind in kinds { insert(kind) }
    }

    var isEmpty: Bool { bits == 0 }

    mutating func insert(_ kind: EventKind) { bits |= 1 << kind.rawValue }

    func contains(_ kind: EventKind) -> Bool { bits & (1 << kind.rawValue) != 0 }

    func intersects(_ other: EventKinds) -> Bool { bits & other.bits != 0 }
}

/// Kinds of event carrying one of some flags.
struct FlaggedKinds: Sendable {
    let kinds: EventKinds
    let flags: EventFlags
}

/// Facts about a recording that only the whole of it shows, found as the
/// index is built: a rule that needs one that does not hold is skipped.
struct TraceFacts: OptionSet, Hashable, Sendable {
    let rawValue: UInt8

    /// A removal matched no registration (or ended one already ended).
    static let unmatchedRemoval = TraceFacts(rawValue: 1 << 0)
    /// A notification center's post reached no registration.
    static let unreceivedCenterPost = TraceFacts(rawValue: 1 << 1)
    /// A notification center's post reached exactly one registration.
    static let singleReceiverCenterPost = TraceFacts(rawValue: 1 << 2)
}

/// What occurs in a recording, as far as deciding which rules can fire:
/// each kind of event, the flags its events carried, and ``TraceFacts``.
struct EventsPresent {
    private(set) var kinds = EventKinds()
    /// Per kind (by raw value), every flag its events carried.
    private var flagsByKind = [UInt8](repeating: 0, count: EventKind.caseCount)
    /// ``TraceFacts`` bits (raw: an `OptionSet` is generic code in a debug build).
    private var facts: UInt8 = 0

    mutating func insert(_ kind: EventKind, flags: UInt8) {
        kinds.insert(kind)
        flagsByKind[Int(kind.rawValue)] |= flags
    }

    mutating func insert(_ fact: TraceFacts) { facts |= fact.rawValue }

    func holds(_ fact: TraceFacts) -> Bool { facts & fact.rawValue != 0 }

    /// Whether `rule` can fire on what occurs: it is skipped otherwise.
    func admits(_ rule: any Rule) -> Bool { admits(RuleNeeds(rule)) }

    func admits(_ needs: RuleNeeds) -> Bool {
        guard needs.kinds.isEmpty || needs.kinds.intersects(kinds) else { return false }
        if let needed = needs.fact, facts & needed.rawValue == 0 { return false }
        guard let flagged = needs.flagged else { return true }
        var bits = flagged.kinds.bits  // each kind named, lowest first
        while bits != 0 {
            if flagsByKind[bits.trailingZeroBitCount] & flagged.flags.rawValue != 0 { return true }
            bits &= bits - 1
        }
        return false
    }
}

/// What a rule needs to occur to fire, read once per rule for the whole
/// process (a debug build pays a witness call for each read of a rule's).
struct RuleNeeds: Sendable {
    let kinds: EventKinds
    let flagged: FlaggedKinds?
    let fact: TraceFacts?

    init(_ rule: any Rule) {
        kinds = rule.firesOnlyWith
        flagged = rule.firesOnlyWithFlagged
        fact = rule.firesOnlyWithFact
    }
}
