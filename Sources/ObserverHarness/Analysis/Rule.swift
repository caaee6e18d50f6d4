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
    func check(_ trace: TraceIndex, into findings: inout RuleFindings)
    /// Judges two explored replays whose outcomes differ (most rules need only one trace).
    func check(_ divergence: Divergence, into findings: inout [Finding])
}

extension Rule {
    func check(_ divergence: Divergence, into findings: inout [Finding]) {}

    var firesOnlyWith: EventKinds { EventKinds() }

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
            rule: descriptor.id, severity: descriptor.severity, message: message,
            registry: registry, channel: channel, objects: objects, step: step,
            site: location.map(CallSite.init) ?? site, events: events, fix: fix ?? descriptor.fix)
    }
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

    /// Every rule's descriptor, in catalogue order.
    public static var all: [RuleDescriptor] { rules.map(\.descriptor) }

    /// The rule with this id, if any.
    public static func descriptor(id: String) -> RuleDescriptor? {
        rules.first { $0.descriptor.id == id }?.descriptor
    }
}

/// A set of event kinds, one bit each.
struct EventKinds: Sendable, Equatable {
    private var bits: UInt64 = 0

    init(_ kinds: EventKind...) {
        for kind in kinds { insert(kind) }
    }

    var isEmpty: Bool { bits == 0 }

    mutating func insert(_ kind: EventKind) { bits |= 1 << kind.rawValue }

    func contains(_ kind: EventKind) -> Bool { bits & (1 << kind.rawValue) != 0 }

    func intersects(_ other: EventKinds) -> Bool { bits & other.bits != 0 }
}
