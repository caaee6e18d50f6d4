/// A posted and an observed channel that differ by a small edit distance and
/// never meet: a misspelt notification name.
struct ChannelNameTypoRule: Rule {
    let descriptor = RuleDescriptor(
        id: "channel-name-typo", severity: .warning,
        summary: "A posted and an observed channel differ by a small edit distance and never meet.",
        explanation: """
            Notification names are strings. When one side spells the name differently ("AddToCard" for \
            "AddToCart"), nothing fails: the post reaches nobody and the observer waits forever. The misspelt \
            side is the one that never meets a partner, even when the right spelling is used elsewhere. Names \
            that both meet a partner are taken as distinct on purpose, and so are names that differ only in digits.
            """,
        fix: "Declare each name once (a static Notification.Name constant) and use the constant on both sides.")

    struct Pair {
        let registry: UInt32
        let posted: UInt32
        let observed: UInt32
        let distance: Int
        let post: TraceIndex.PostRecord
        let addSequence: Int
        let addSite: UInt32
        /// The posted name is also observed elsewhere: the observation is misspelt.
        let postedMeetsElsewhere: Bool
        /// The observed name is also posted elsewhere: the post is misspelt.
        let observedMeetsElsewhere: Bool
    }

    func check(_ trace: TraceIndex, into findings: inout [Finding]) {
        for pair in Self.typoPairs(trace) {
            let chars = pair.distance == 1 ? "one character" : "\(pair.distance) characters"
            let registry = trace.registryName(pair.registry)
            let posted = "\(trace.quoted(pair.posted)) is posted (at \(siteText(trace, pair.post.site)))"
            let observed = "\(trace.quoted(pair.observed)) is observed (at \(siteText(trace, pair.addSite)))"
            if pair.postedMeetsElsewhere {
                // The right name works for others; this observer waits for a name nobody posts.
                findings.append(finding(
                    "\(observed) in \(registry) but never posted, while \(posted): the names differ by \(chars), "
                        + "so this observer never hears it.",
                    registry: registry, channel: trace.string(pair.observed),
                    step: trace.step(of: pair.addSequence), site: trace.site(pair.addSite),
                    location: trace.location(pair.addSite), events: [pair.addSequence, pair.post.sequence]))
            } else if pair.observedMeetsElsewhere {
                findings.append(finding(
                    "\(posted) in \(registry) but nobody observes it, while \(observed): the names differ by "
                        + "\(chars), so this post reaches nobody.",
                    registry: registry, channel: trace.string(pair.posted),
                    step: trace.step(of: pair.post.sequence), site: trace.site(pair.post.site),
                    location: trace.location(pair.post.site), events: [pair.addSequence, pair.post.sequence]))
            } else {
                findings.append(finding(
                    "\(posted) and \(observed) in \(registry), but they never meet: the names differ by \(chars).",
                    registry: registry, channel: trace.string(pair.posted),
                    step: trace.step(of: pair.post.sequence), site: trace.site(pair.post.site),
                    location: trace.location(pair.post.site), events: [pair.addSequence, pair.post.sequence]))
            }
        }
    }

    /// Every (posted, observed) pair of near-identical names where at least
    /// one side never meets a partner.
    static func typoPairs(_ trace: TraceIndex) -> [Pair] {
        var firstPost: [UInt32: [UInt32: TraceIndex.PostRecord]] = [:]
        var firstAdd: [UInt32: [UInt32: TraceIndex.RegistrationRecord]] = [:]
        for post in trace.posts where post.kind == .post && trace.registryInfo(post.registry).kind != .property {
            if firstPost[post.registry]?[post.channel] == nil { firstPost[post.registry, default: [:]][post.channel] = post }
        }
        for id in trace.registrationOrder {
            guard let registration = trace.registration(id), !registration.isDelegate, !registration.anyChannel,
                  trace.registryInfo(registration.registry).kind != .property else { continue }
            if firstAdd[registration.registry]?[registration.channel] == nil {
                firstAdd[registration.registry, default: [:]][registration.channel] = registration
            }
        }
        var pairs: [Pair] = []
        for registry in firstPost.keys.sorted() {
            guard let posted = firstPost[registry], let observed = firstAdd[registry] else { continue }
            for (postedName, post) in posted.sorted(by: { $0.value.sequence < $1.value.sequence }) {
                let postedMeets = observed[postedName] != nil
                for (observedName, add) in observed.sorted(by: { $0.value.addSequence < $1.value.addSequence }) {
                    let observedMeets = posted[observedName] != nil
                    guard !(postedMeets && observedMeets),
                          let distance = typoDistance(trace.string(postedName), trace.string(observedName)) else { continue }
                    pairs.append(Pair(registry: registry, posted: postedName, observed: observedName, distance: distance,
                                      post: post, addSequence: add.addSequence, addSite: add.site,
                                      postedMeetsElsewhere: postedMeets, observedMeetsElsewhere: observedMeets))
                }
            }
        }
        return pairs
    }

    /// The edit distance when it is small enough to look like a typo: one edit
    /// for names up to 11 characters, two for longer ones; nil otherwise.
    static func typoDistance(_ a: String, _ b: String) -> Int? {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        let longest = max(x.count, y.count)
        guard min(x.count, y.count) >= 4, a != b else { return nil }
        let bound = longest >= 12 ? 2 : 1
        guard abs(x.count - y.count) <= bound else { return nil }
        // Names that differ only in digits (Item1, Item2) are a family, not a typo.
        if x.filter({ !("0"..."9").contains($0) }) == y.filter({ !("0"..."9").contains($0) }) { return nil }
        let distance = optimalStringAlignmentDistance(x, y)
        return distance <= bound ? distance : nil
    }

    /// Levenshtein distance where swapping two adjacent characters is one edit.
    static func optimalStringAlignmentDistance(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar]) -> Int {
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous2 = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[y.count]
    }
}
