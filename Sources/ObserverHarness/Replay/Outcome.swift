/// What a replay produced (the scenario's outcome): the final shared state, the
/// value every `read` saw, and the lifetime findings. Two schedules whose
/// outcomes differ show an ordering dependence.
struct Outcome: Sendable {
    var state: [String: JSONValue]
    /// `reader@line:column#occurrence|key` → value read.
    var reads: [String: JSONValue]
    /// `rule objects…` of each lifetime finding.
    var lifetime: Set<String>

    /// The rules whose findings are part of an outcome.
    static let lifetimeRules = RuleCatalog.rules.filter { $0.descriptor.category == .lifetime }
    private static let lifetimeRuleIDs = Set(lifetimeRules.map(\.descriptor.id))

    /// The lifetime findings among a replay's findings, as compared across orders.
    static func lifetime(of findings: [Finding]) -> Set<String> {
        Set(findings.filter { lifetimeRuleIDs.contains($0.rule) }
            .map { "\($0.rule) for \($0.objects.joined(separator: ", "))" })
    }

    func matches(_ other: Outcome) -> Bool { differences(from: other).isEmpty }

    /// Human-readable differences, `self` being the first order: each
    /// `(what, value here, value there)`.
    func differences(from other: Outcome) -> [(what: String, first: String, other: String)] {
        var result: [(what: String, first: String, other: String)] = []
        for key in Set(state.keys).union(other.state.keys).sorted() {
            let mine = state[key] ?? .null, theirs = other.state[key] ?? .null
            if !mine.semanticallyEquals(theirs) {
                result.append(("\"\(key)\"", mine.serialized(.compact), theirs.serialized(.compact)))
            }
        }
        for key in Set(reads.keys).union(other.reads.keys).sorted() {
            let mine = reads[key], theirs = other.reads[key]
            let same = mine.flatMap { a in theirs.map { a.semanticallyEquals($0) } } ?? (mine == nil && theirs == nil)
            if !same {
                let parts = key.split(separator: "|", maxSplits: 1)
                let reader = parts.first.map { $0.split(separator: "@").first.map(String.init) ?? String($0) } ?? key
                let readKey = parts.count > 1 ? String(parts[1]) : key
                result.append(("\(reader)'s read of \"\(readKey)\"", mine?.serialized(.compact) ?? "nothing",
                               theirs?.serialized(.compact) ?? "nothing"))
            }
        }
        for finding in lifetime.union(other.lifetime).sorted() where lifetime.contains(finding) != other.lifetime.contains(finding) {
            result.append((finding, lifetime.contains(finding) ? "reported" : "absent",
                           other.lifetime.contains(finding) ? "reported" : "absent"))
        }
        return result
    }
}
