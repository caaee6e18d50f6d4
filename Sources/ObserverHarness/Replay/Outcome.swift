/// What a replay produced (the scenario's outcome): the final shared state, the
/// value every `read` saw, and the lifetime findings. Two schedules whose
/// outcomes differ show an ordering dependence.
struct Outcome: Sendable {
    /// One `read` in a replay: who read (the handler's object, or `scenario`),
    /// at which step, its how-manieth read there, and the key read.
    struct Read: Hashable, Comparable, Sendable {
        let reader: String
        let position: ScenarioPosition
        let occurrence: Int
        let key: String

        static func < (a: Read, b: Read) -> Bool {
            (a.reader, a.position.line, a.position.column, a.occurrence, a.key)
                < (b.reader, b.position.line, b.position.column, b.occurrence, b.key)
        }
    }

    /// A key an explored order used both as a list and as a non-list: the
    /// replay stopped there, so only that is compared.
    struct Clash: Equatable, Sendable {
        let key: String
        let message: String
    }

    var state: [String: JSONValue]
    var clash: Clash?
    /// Each read → the value read, as fingerprint and preview.
    var reads: [Read: ValueSummary]
    /// `rule objects…` of each lifetime finding.
    var lifetime: Set<String>
    /// Each final state value's fingerprint, made once per replay.
    private let stateFingerprints: [String: ValueFingerprint]
    /// A key never written compares as `null`.
    private static let null = ValueFingerprint(.null)

    init(state: [String: JSONValue], reads: [Read: ValueSummary], lifetime: Set<String>) {
        self.state = state
        self.reads = reads
        self.lifetime = lifetime
        stateFingerprints = state.mapValues(ValueFingerprint.init)
    }

    /// The rules whose findings are part of an outcome.
    static let lifetimeRules = RuleCatalog.rules.filter { $0.descriptor.category == .lifetime }
    private static let lifetimeRuleIDs = Set(lifetimeRules.map(\.descriptor.id))

    /// The lifetime findings among a replay's findings, as compared across orders.
    static func lifetime(of findings: [Finding]) -> Set<String> {
        Set(
            findings.filter { lifetimeRuleIDs.contains($0.rule) }
                .map { "\($0.rule) for \($0.objects.joined(separator: ", "))" })
    }

    /// The bytes comparing two outcomes' state may read: what the explorer
    /// charges for a comparison.
    var comparisonSize: Int {
        // Each value read is an entry looked up by its key: 64 of them make a unit, as 64 bytes do.
        stateFingerprints.values.reduce(0) { $0 + $1.size } + reads.count * Replay.bytesPerUnit / Replay.entriesPerUnit
    }

    /// Whether ``differences(from:)`` would be empty, found without sorting
    /// or describing anything: the explorer asks once per replay, and a
    /// replay may have read half a million values.
    func matches(_ other: Outcome) -> Bool {
        guard clash == nil, other.clash == nil else { return clash == other.clash }
        guard lifetime == other.lifetime, reads.count == other.reads.count else { return false }
        for (key, mine) in reads {
            guard let theirs = other.reads[key], theirs.fingerprint.hash == mine.fingerprint.hash else { return false }
        }
        for (key, mine) in state where !sameState(key, mine, other) { return false }
        for (key, theirs) in other.state where state[key] == nil && !other.sameState(key, theirs, self) {
            return false
        }
        return true
    }

    /// Whether `key` holds the same value here (`value`) and in `other`.
    private func sameState(_ key: String, _ value: JSONValue, _ other: Outcome) -> Bool {
        (stateFingerprints[key] ?? Self.null) == (other.stateFingerprints[key] ?? Self.null)
            && value.semanticallyEquals(other.state[key] ?? .null)
    }

    /// Human-readable differences, `self` being the first order: each
    /// `(what, value here, value there)`, values cut at 120 characters.
    ///
    /// State values are compared by fingerprint first, and in full only when
    /// the fingerprints agree; values read are compared by fingerprint alone
    /// (a replay keeps no copy of them).
    func differences(from other: Outcome) -> [(what: String, first: String, other: String)] {
        if clash != nil || other.clash != nil {
            guard clash != other.clash else { return [] }
            let key = clash?.key ?? other.clash?.key ?? ""
            func told(_ outcome: Outcome) -> String {
                outcome.clash.map { "an error (\($0.message))" } ?? ValuePreview.of(outcome.state[key] ?? .null)
            }
            return [(ValuePreview.quoted(key), told(self), told(other))]
        }
        var result: [(what: String, first: String, other: String)] = []
        for key in Set(state.keys).union(other.state.keys).sorted() {
            let mine = state[key] ?? .null, theirs = other.state[key] ?? .null
            let same =
                (stateFingerprints[key] ?? Self.null) == (other.stateFingerprints[key] ?? Self.null)
                && mine.semanticallyEquals(theirs)
            if !same {
                result.append((ValuePreview.quoted(key), ValuePreview.of(mine), ValuePreview.of(theirs)))
            }
        }
        for key in Set(reads.keys).union(other.reads.keys).sorted() {
            let mine = reads[key], theirs = other.reads[key]
            if mine?.fingerprint.hash != theirs?.fingerprint.hash || (mine == nil) != (theirs == nil) {
                result.append(
                    (
                        "\(key.reader)'s read of \(ValuePreview.quoted(key.key))", mine?.preview ?? "nothing",
                        theirs?.preview ?? "nothing"
                    ))
            }
        }
        for finding in lifetime.union(other.lifetime).sorted()
        where lifetime.contains(finding) != other.lifetime.contains(finding) {
            result.append(
                (
                    finding, lifetime.contains(finding) ? "reported" : "absent",
                    other.lifetime.contains(finding) ? "reported" : "absent"
                ))
        }
        return result
    }
}
