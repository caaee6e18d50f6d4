/// The findings of every replay an exploration made, each kept once per
/// rule, registry, channel, set of objects and site. The first replay's findings
/// come as they are; one that only a later replay shows names the order that
/// produced it, since registration order is not the only one an app can see.
struct FindingUnion {
    private struct Key: Hashable {
        let rule: String
        let registry: String?
        let channel: String?
        let objects: [String]
        let site: CallSite?
    }

    private(set) var findings: [Finding] = []
    private var seen: Set<Key> = []

    /// Adds a replay's findings; `order` describes its schedule (nil for the
    /// default one).
    mutating func add(_ replayFindings: [Finding], order: String?) {
        for var finding in replayFindings {
            let key = Key(
                rule: finding.rule, registry: finding.registry, channel: finding.channel,
                objects: finding.objects.sorted(), site: finding.site)
            guard seen.insert(key).inserted else { continue }
            if let order, !order.isEmpty {
                finding.message += " Found in the explored order where \(order)."
            }
            findings.append(finding)
        }
    }
}
