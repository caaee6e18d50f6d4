/// Folds repeats into one finding with a count: findings with the same
/// `Finding.identity`. A million identical adds
/// make one finding, not a million.
struct FindingAggregator {
    /// How many event numbers an aggregated finding keeps beyond its first
    /// occurrence's own.
    static let eventLimit = 8

    private(set) var findings: [Finding] = []
    private var positions: [Finding.Identity: Int] = [:]

    /// Adds `finding`, or counts it against an earlier one with the same key
    /// (add in report order so the first occurrence is the one kept).
    mutating func add(_ finding: Finding) {
        let key = finding.identity
        guard let position = positions[key] else {
            positions[key] = findings.count
            findings.append(finding)
            return
        }
        findings[position].count += finding.count
        var events = findings[position].events
        for event in finding.events where events.count < Self.eventLimit && !events.contains(event) {
            events.append(event)
        }
        findings[position].events = events
    }
}

extension Finding {
    /// What makes two findings the same finding: rule, registry, channel,
    /// objects (in any order) and site. Repeats are counted against the first
    /// (`FindingAggregator`) and explored orders add only new ones
    /// (`FindingUnion`).
    struct Identity: Hashable {
        let rule: String
        let registry: String?
        let channel: String?
        let objects: [String]
        let site: CallSite?
    }

    var identity: Identity {
        Identity(rule: rule, registry: registry, channel: channel, objects: objects.sorted(), site: site)
    }
}
