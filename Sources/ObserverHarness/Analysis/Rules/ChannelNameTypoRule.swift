/// A posted and an observed channel that differ by a small edit distance and
/// never meet: a misspelt notification name.
struct ChannelNameTypoRule: Rule {
    let descriptor = RuleDescriptor(
        id: "channel-name-typo", severity: .warning, category: .design,
        summary: "A posted and an observed channel differ by a small edit distance and never meet.",
        explanation: """
            Notification names are strings. When one side spells the name differently ("AddToCard" for \
            "AddToCart"), nothing fails: the post reaches nobody and the observer waits forever. The misspelt \
            side is the one that never meets a partner, even when the right spelling is used elsewhere; the \
            finding is at that side's line. When neither spelling meets a partner anywhere, it is at the post's \
            line and names both. Names that both meet a partner are taken as distinct on purpose, and so are \
            names that differ only in digits.
            """,
        fix: "Declare each name once (a static Notification.Name constant) and use the constant on both sides.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "cell" },
                  { "op": "observe", "registry": "center", "observer": "cart", "channel": "AddToCart", "handler": [] },
                  ↓{ "op": "post", "registry": "center", "channel": "AddToCard", "sender": "cell",
                    "site": "ProductCell.swift:22" }
                ]
                """)
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "cell" },
                  { "op": "observe", "registry": "center", "observer": "cart", "channel": "AddToCart", "handler": [] },
                  { "op": "post", "registry": "center", "channel": "AddToCart", "sender": "cell" }
                ]
                """)
        ])

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

    /// The budget this rule's search spends (tests give a small one).
    var searchBudget = comparisonBudget

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        let search = Self.typoSearch(trace, budget: searchBudget)
        if let cut = search.cutIn {
            // Never a result lost in silence: the pairs past the budget were not compared.
            findings.append(
                ExplorationLimitRule().finding(
                    "The search for mistyped names in \(trace.registryName(cut)) stopped after "
                        + "\(searchBudget.grouped) character comparisons: names posted or observed without "
                        + "a partner were not all compared, so a channel-name-typo among them may be missed.",
                    registry: trace.registryName(cut), events: []))
        }
        for pair in search.pairs {
            let chars = pair.distance == 1 ? "one character" : "\(pair.distance) characters"
            let registry = trace.registryName(pair.registry)
            let posted = "\(trace.quoted(pair.posted)) is posted (at \(siteText(trace, pair.post.site)))"
            let observed = "\(trace.quoted(pair.observed)) is observed (at \(siteText(trace, pair.addSite)))"
            if pair.postedMeetsElsewhere {
                // The right name works for others; this observer waits for a name nobody posts.
                findings.append(
                    finding(
                        "\(observed) in \(registry) but never posted, while \(posted): the names differ by \(chars), "
                            + "so this observer never hears it.",
                        registry: registry, channel: trace.string(pair.observed),
                        step: trace.step(of: pair.addSequence), site: trace.site(pair.addSite),
                        location: trace.location(pair.addSite), events: [pair.addSequence, pair.post.sequence]))
            } else if pair.observedMeetsElsewhere {
                findings.append(
                    finding(
                        "\(posted) in \(registry) but nobody observes it, while \(observed): the names differ by "
                            + "\(chars), so this post reaches nobody.",
                        registry: registry, channel: trace.string(pair.posted),
                        step: trace.step(of: pair.post.sequence), site: trace.site(pair.post.site),
                        location: trace.location(pair.post.site), events: [pair.addSequence, pair.post.sequence]))
            } else {
                findings.append(
                    finding(
                        "\(posted) and \(observed) in \(registry), but they never meet: the names differ by \(chars).",
                        registry: registry, channel: trace.string(pair.posted),
                        step: trace.step(of: pair.post.sequence), site: trace.site(pair.post.site),
                        location: trace.location(pair.post.site), events: [pair.addSequence, pair.post.sequence]))
            }
        }
    }

    /// Every (posted, observed) pair of near-identical names where at least
    /// one side never meets a partner.
    static func typoPairs(_ trace: TraceIndex) -> [Pair] { typoSearch(trace).pairs }

    /// ``typoPairs(_:)``, and the registry where the comparison budget ran
    /// out, if it did (the pairs after it were not compared).
    static func typoSearch(_ trace: TraceIndex, budget: Int = comparisonBudget) -> (pairs: [Pair], cutIn: UInt32?) {
        guard someNameLacksAPartner(trace) else { return ([], nil) }
        var firstPost = [UInt32: [UInt32: TraceIndex.PostRecord]]()
        var firstAdd = [UInt32: [UInt32: TraceIndex.RegistrationRecord]]()
        // The nested tables are touched only the first time a (registry,
        // channel) pair shows up; a flag per channel number says whether it has.
        var seen = [Bool](repeating: false, count: trace.channelCount)
        for post in trace.posts
        where post.kind == .post && !seen[post.channelKey]
            && trace.registryKind(post.registry) != .property
        {
            seen[post.channelKey] = true
            firstPost[post.registry, default: [:]][post.channel] = post
        }
        seen = [Bool](repeating: false, count: trace.channelCount)
        for registration in trace.registrationsInOrder {
            guard !registration.isDelegate, !registration.anyChannel,
                case let key = trace.channelKey(of: registration), !seen[key],
                trace.registryKind(registration.registry) != .property
            else { continue }
            seen[key] = true
            firstAdd[registration.registry, default: [:]][registration.channel] = registration
        }
        var pairs: [Pair] = []
        var budget = budget
        for registry in firstPost.keys.sorted() {
            guard let posted = firstPost[registry], let observed = firstAdd[registry] else { continue }
            // Only a name without a partner is compared: when every name meets
            // one (the usual case), nothing is prepared.
            guard
                posted.keys.contains(where: { observed[$0] == nil })
                    || observed.keys.contains(where: { posted[$0] == nil })
            else { continue }
            let observedNames = observed.sorted(by: { $0.value.addSequence < $1.value.addSequence })
                .map { (id: $0.key, add: $0.value, name: Name(trace.string($0.key))) }
            for (postedName, post) in posted.sorted(by: { $0.value.sequence < $1.value.sequence }) {
                let postedMeets = observed[postedName] != nil
                let name = Name(trace.string(postedName))
                for (observedName, add, other) in observedNames {
                    let observedMeets = posted[observedName] != nil
                    guard !(postedMeets && observedMeets) else { continue }
                    guard budget > 0 else { return (pairs, registry) }
                    guard let distance = typoDistance(name, other, budget: &budget) else { continue }
                    pairs.append(
                        Pair(
                            registry: registry, posted: postedName, observed: observedName, distance: distance,
                            post: post, addSequence: add.addSequence, addSite: add.site,
                            postedMeetsElsewhere: postedMeets, observedMeetsElsewhere: observedMeets))
                }
            }
        }
        return (pairs, nil)
    }

    /// Whether a name is posted but never observed in its registry, or
    /// observed but never posted: only such a name is compared with others.
    /// The index marks each (registry, channel) pair's sides as it reads the
    /// events, so this reads one byte a pair, not every post and registration:
    /// in most recordings every name meets a partner.
    private static func someNameLacksAPartner(_ trace: TraceIndex) -> Bool {
        let posted = TraceIndex.ChannelSides.posted, observed = TraceIndex.ChannelSides.observed
        return trace.channelSides.contains { $0 == posted || $0 == observed }
    }

    /// The character comparisons one search for typos may spend. Real apps
    /// stay far below it; thousands of long, alike channel names (a hostile
    /// trace or scenario) would otherwise take hours, so the pairs beyond it
    /// are not compared.
    static let comparisonBudget = 50_000_000

    /// A channel name, prepared once for comparison with many others.
    struct Name {
        let text: String
        let scalars: [Unicode.Scalar]
        /// Without digits: names that differ only in digits are a family.
        let family: [Unicode.Scalar]

        init(_ text: String) {
            self.text = text
            scalars = Array(text.unicodeScalars)
            family = scalars.filter { !("0"..."9").contains($0) }
        }
    }

    /// The edit distance when it is small enough to look like a typo: one edit
    /// for names up to 11 characters, two for longer ones; nil otherwise.
    static func typoDistance(_ a: String, _ b: String) -> Int? {
        var budget = Int.max
        return typoDistance(Name(a), Name(b), budget: &budget)
    }

    /// ``typoDistance(_:_:)``, spending `budget` (one unit per pair and per
    /// character compared).
    static func typoDistance(_ x: Name, _ y: Name, budget: inout Int) -> Int? {
        budget -= 1
        let longest = max(x.scalars.count, y.scalars.count)
        guard min(x.scalars.count, y.scalars.count) >= 4 else { return nil }
        let bound = longest >= 12 ? 2 : 1
        guard abs(x.scalars.count - y.scalars.count) <= bound else { return nil }
        budget -= 2 * longest
        // Names that differ only in digits (Item1, Item2) are a family, not a typo.
        guard x.text != y.text, x.family != y.family else { return nil }
        return boundedDistance(x.scalars[...], y.scalars[...], bound: bound, budget: &budget)
    }

    /// The optimal string alignment distance of `x` and `y` if it is at most
    /// `bound`, else nil, in time linear in their length: only the diagonal
    /// band a distance within `bound` can pass through is computed, and the
    /// computation stops once a whole row exceeds `bound`.
    static func boundedDistance(
        _ x: ArraySlice<Unicode.Scalar>, _ y: ArraySlice<Unicode.Scalar>, bound: Int,
        budget: inout Int
    ) -> Int? {
        var x = x, y = y
        // A common prefix or suffix never changes the distance.
        while let a = x.first, let b = y.first, a == b { x.removeFirst(); y.removeFirst() }
        while let a = x.last, let b = y.last, a == b { x.removeLast(); y.removeLast() }
        let n = x.count, m = y.count
        guard abs(n - m) <= bound else { return nil }
        if n == 0 || m == 0 { return max(n, m) }
        let xs = Array(x), ys = Array(y)
        let beyond = bound + 1
        var previous2 = [Int](repeating: beyond, count: m + 1)
        var previous = [Int](repeating: beyond, count: m + 1)
        var current = [Int](repeating: beyond, count: m + 1)
        for j in 0...min(m, bound) { previous[j] = j }
        for i in 1...n {
            let low = max(1, i - bound), high = min(m, i + bound)
            current[low - 1] = low == 1 && i <= bound ? i : beyond
            var rowMinimum = current[low - 1]
            for j in low...high {
                let cost = xs[i - 1] == ys[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, xs[i - 1] == ys[j - 2], xs[i - 2] == ys[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = min(value, beyond)
                rowMinimum = min(rowMinimum, current[j])
            }
            // The next row reads one cell past this row's band.
            if high < m { current[high + 1] = beyond }
            budget -= high - low + 1
            guard rowMinimum <= bound else { return nil }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[m] <= bound ? previous[m] : nil
    }
}
