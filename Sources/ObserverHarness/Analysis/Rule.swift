/// What a rule is: its stable id, severity, and the words `harness-cli explain` prints.
public struct RuleDescriptor: Sendable, Hashable {
    /// Stable id; never renamed (reports, baselines and suppressions name it).
    public let id: String
    public let severity: Severity
    /// One line: when it fires.
    public let summary: String
    /// A paragraph: what it means and why it matters.
    public let explanation: String
    /// How to fix it.
    public let fix: String
}

/// A check over an indexed recording. Each rule lives in its own file under
/// `Analysis/Rules` and is listed once in ``RuleCatalog``.
protocol Rule: Sendable {
    var descriptor: RuleDescriptor { get }
    func check(_ trace: TraceIndex, into findings: inout [Finding])
}

extension Rule {
    /// A finding of this rule with its severity and fix filled in.
    func finding(_ message: String, registry: String? = nil, channel: String? = nil, objects: [String] = [],
                 step: Int? = nil, site: CallSite? = nil, location: CodeLocation? = nil,
                 events: [Int], fix: String? = nil) -> Finding {
        Finding(rule: descriptor.id, severity: descriptor.severity, message: message,
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
        OrderingDependence.descriptor.asPlaceholderRule,
        NotificationCycleRule(),
        BroadcastAsCommandRule(),
        DelegateAsBroadcastRule(),
        DelegateOverwrittenRule(),
        SingleReceiverBroadcastRule(),
        UnobservedPostRule(),
        ChannelNameTypoRule(),
    ]

    /// Every rule's descriptor, in catalogue order.
    public static var all: [RuleDescriptor] { rules.map(\.descriptor) }

    /// The rule with this id, if any.
    public static func descriptor(id: String) -> RuleDescriptor? {
        rules.first { $0.descriptor.id == id }?.descriptor
    }
}

/// A catalogue entry for a rule whose findings come from elsewhere (replay).
struct PlaceholderRule: Rule {
    let descriptor: RuleDescriptor
    func check(_ trace: TraceIndex, into findings: inout [Finding]) {}
}

extension RuleDescriptor {
    var asPlaceholderRule: PlaceholderRule { PlaceholderRule(descriptor: self) }
}
