/// Folds repeats into one finding with a count: findings of one rule with
/// the same registry, channel, objects and site. A million identical adds
/// make one finding, not a million.
struct FindingAggregator {
    /// How many event numbers an aggregated finding keeps beyond its first
    /// occurrence's own.
    static let eventLimit = 8

    private struct Key: Hashable {
        let rule: String
        let registry: String?
        let channel: String?
        let objects: [String]
        let site: CallSite?
    }

    private(set) var findings: [Finding] = []
    private var positions: [Key: Int] = [:]

    /// Adds `finding`, or counts it against an earlier one with the same key
    /// (add in report order so the first occurrence is the one kept).
    mutating func add(_ finding: Finding) {
        let key = Key(
            rule: finding.rule, registry: finding.registry, channel: finding.channel,
            objects: finding.objects, site: finding.site)
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
