/// The findings of every replay an exploration made, each kept once per
/// `Finding.identity`. The first replay's findings
/// come as they are; one that only a later replay shows names the order that
/// produced it, since registration order is not the only one an app can see.
struct FindingUnion {
    private(set) var findings: [Finding] = []
    private var seen: Set<Finding.Identity> = []
    /// Identities without their site, for the rules whose finding is about a
    /// whole channel and is sited at its first post: another order only
    /// moves which post came first, and is the same finding.
    private var seenChannels: Set<Finding.Identity> = []
    private static let channelWideRules: Set<String> = ["single-receiver-broadcast"]

    /// Adds a replay's findings; `order` describes its schedule (nil for the
    /// default one). Returns the findings it kept, as kept.
    @discardableResult
    mutating func add(_ replayFindings: [Finding], order: String?) -> ArraySlice<Finding> {
        let start = findings.count
        for var finding in replayFindings {
            if Self.channelWideRules.contains(finding.rule) {
                let identity = finding.identity
                let channel = Finding.Identity(
                    rule: identity.rule, registry: identity.registry, channel: identity.channel,
                    objects: identity.objects, site: nil)
                guard seenChannels.insert(channel).inserted else { continue }
            }
            guard seen.insert(finding.identity).inserted else { continue }
            if let order, !order.isEmpty {
                finding.message += " Found in the explored order where \(order)."
            }
            findings.append(finding)
        }
        return findings[start...]
    }
}
