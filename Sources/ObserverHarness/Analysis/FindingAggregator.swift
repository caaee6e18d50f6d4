/// Folds repeats into one finding with a count: findings with the same
/// `Finding.identity`. A million identical adds
/// make one finding, not a million.
struct FindingAggregator {
    /// How many event numbers an aggregated finding keeps beyond its first
    /// occurrence's own.
    static let eventLimit = 8

    private(set) var findings: [Finding] = []
    private var positions = [Finding.Identity: Int]()

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

/// What one rule finds over a trace, folded as it goes: a rule that fires
/// once per event (two million adds of one observer) keeps the few findings
/// the report can show, not two million.
///
/// Folding gives what ``FindingAggregator`` gives for the whole list in report
/// order. Of the findings of one identity, only these matter there: the first
/// in report order (the one kept), the ones whose events it adds (up to
/// ``FindingAggregator/eventLimit``) and everyone's count. A finding that
/// adds no event keeps adding none however many come before it, so it is
/// dropped, its count moved to the identity's first.
struct RuleFindings {
    private var findings: [Finding] = []
    /// `findings.count` after the last fold: the next fold waits until as many more came.
    private var folded = 0
    /// False keeps every finding as found (a rule's tests count them).
    private let folds: Bool

    init(folding: Bool = true) {
        folds = folding
    }

    mutating func append(_ finding: Finding) {
        findings.append(finding)
        if folds, findings.count >= max(256, 2 * folded) { fold() }
    }

    /// Everything found, folded, in report order: what to hand the aggregator
    /// (unfolded: as found).
    mutating func inReportOrder() -> [Finding] {
        if folds { fold() }
        return findings
    }

    private mutating func fold() {
        // Nothing to order or fold (most rules on most recordings).
        guard findings.count > 1 else { return }
        // Stable: of two findings equal in report order, the earlier found stays first, as in one sort.
        findings.sort(by: Finding.reportOrder)
        var kept: [Finding] = []
        var identities = [Finding.Identity: (first: Int, events: [Int])]()
        for finding in findings {
            let identity = finding.identity
            guard var seen = identities[identity] else {
                identities[identity] = (kept.count, finding.events)
                kept.append(finding)
                continue
            }
            let before = seen.events.count
            for event in finding.events
            where seen.events.count < FindingAggregator.eventLimit && !seen.events.contains(event) {
                seen.events.append(event)
            }
            if seen.events.count > before {
                identities[identity] = seen
                kept.append(finding)
            } else {
                kept[seen.first].count += finding.count
            }
        }
        findings = kept
        folded = kept.count
    }
}
