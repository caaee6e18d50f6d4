/// Replays a scenario under many schedules and reports what depends on order.
///
/// A schedule chooses, at each decision point of a replay, the delivery order
/// of a post with two or more receivers (in a registry that promises no
/// order) and the interleaving of each `concurrently` step. The baseline
/// replay takes registration order and runs branches one after another. Two
/// receivers of one post are *independent* when their footprints commute
/// (``Footprints``: both read, both increment, both write or append the same
/// value, or both remove their own registration); reordering independent
/// receivers cannot change the outcome, so the search spends its replays on
/// the conflicting ones, in this order:
///
/// 1. every decision with conflicting receivers, reversed alone (so every
///    conflicting pair runs in both relative orders), in the order posts are
///    met; then every `concurrently` step with its branches reversed;
/// 2. pairs of choices: every two such decisions reversed together, and each
///    such decision reversed together with each reversed `concurrently` step
///    (a dependence that shows only when both change);
/// 3. every order of each decision's conflicting receivers (up to 720; past
///    that every pair swapped and 200 seeded samples) and every interleaving
///    of each `concurrently` step (up to 720; past that 200 samples);
/// 4. decisions whose receivers are all independent, reversed once each.
///
/// The first schedule that changes the outcome of a decision is minimised to
/// the smallest responsible set of receivers (a pair where one exists).
///
/// What is guaranteed, within the budgets: a dependence between two
/// receivers of one post is found in one replay; one among at most 6
/// conflicting receivers of a post (720 orders), or within a `concurrently`
/// step of at most 720 interleavings, is found whatever order it needs; one
/// that needs two choices reversed together (two posts, or a post and a
/// `concurrently` step) is found. Past 720 orders of one decision, or a
/// dependence needing three choices at once, the search samples and may miss
/// it, and says so with an `exploration-limit` note.
///
/// Every rule applies to every replay explored: a finding that only some
/// order shows is reported once (per rule, registry, channel, objects and
/// site), its message naming an order that produces it.
struct Explorer {
    static let exhaustiveLimit = 720
    static let sampleCount = 200
    static let replayBudget = 5_000
    /// The work (``Replay/workBound``'s unit) all replays may spend together:
    /// exploration stops early on a scenario whose replays are each large.
    static let workBudget = 2_000_000

    let scenario: Scenario
    let seed: UInt64
    private(set) var replays = 0
    private(set) var work = 0
    /// Schedules the search asked to replay, tried before or not: the
    /// search's own loops (every pair of decisions, every order) stop with
    /// the budget rather than walk on without replaying.
    private(set) var schedulesConsidered = 0
    /// ``workBudget`` for this exploration (tests lower it).
    var workLimit = Explorer.workBudget
    /// Whether to keep each finding's story, from the replay that found it
    /// (for the Markdown and HTML reports).
    var collectsStories = false
    /// The stories of the findings, when ``collectsStories``.
    private(set) var stories = ReportStories()
    /// The two orders of each ordering finding, with their outcomes.
    private var comparisons: [ReportStories.Key: FindingStory.OrderComparison] = [:]
    /// ``Replay/workBound`` for each of its replays (the fuzzer lowers it).
    var replayWorkLimit = Replay.workBound

    init(scenario: Scenario, seed: UInt64) {
        self.scenario = scenario
        self.seed = seed
    }

    /// Every replay's findings, each kept once.
    private var union = FindingUnion()
    /// Ordering dependences and `exploration-limit` notes the search made.
    private var searchFindings: [Finding] = []
    /// Schedules already replayed by the search.
    private var tried: Set<Schedule> = []
    /// What the budget left untried, once it ran out.
    private var unexplored: String?
    /// The step and site of what was left untried, where the note is told.
    private var unexploredPlace: (step: Int?, site: CallSite?) = (nil, nil)

    /// The baseline replay and what the search needs from it.
    private struct Baseline {
        let result: Replay.Result
        var trace: TraceIndex { result.trace }
        var decisions: [DecisionRecord] { result.decisions }
        /// Per decision: the receivers whose footprints conflict with another's (empty when fewer than two).
        let conflicting: [[Int]]
    }

    mutating func run() throws(InputError) -> Report {
        let first = try replay(Schedule())
        let footprints = Footprints(recording: first.recording, decisions: first.decisions)
        let baseline = Baseline(
            result: first,
            conflicting: first.decisions.indices.map { index in
                let receivers = footprints.conflictingReceivers(of: index)
                return receivers.count >= 2 ? receivers : []
            })
        try search(baseline)
        if let unexplored { searchFindings.append(budgetNote(unexplored, baseline: baseline)) }
        if collectsStories {
            for finding in searchFindings where stories[finding] == nil {
                stories[finding] = FindingStory(
                    finding, in: baseline.trace, comparison: comparisons[ReportStories.Key(finding)])
            }
        }
        var report = Report(
            scenario: scenario.name, eventCount: first.recording.eventCount, replays: replays,
            findings: (union.findings + deduplicated(searchFindings)).sorted(by: Finding.reportOrder))
        let orders = orderCount(baseline)
        report.orders = orders > 1 ? orders : nil
        return report
    }

    private mutating func search(_ baseline: Baseline) throws(InputError) {
        let decisions = baseline.decisions.indices
        let conflicting = decisions.filter { !baseline.conflicting[$0].isEmpty }
        let concurrent = baseline.result.concurrentSteps.indices
        var decided = Set<Int>()
        var interleaved = Set<Int>()

        // Once the budget is spent the search ends: walking on through every
        // pair of thousands of decisions without replaying took minutes.
        // 1. Each choice alone, reversed.
        for index in conflicting where !budgetSpent {
            if try tryOrders(of: index, [reversed(index, baseline)], baseline) { decided.insert(index) }
        }
        for ordinal in concurrent where !budgetSpent {
            if try tryInterleavings(of: ordinal, [reversedInterleaving(ordinal, baseline)], baseline) {
                interleaved.insert(ordinal)
            }
        }
        // 2. Two choices together.
        let open = conflicting.filter { !decided.contains($0) }
        for (position, first) in open.enumerated() {
            for second in open[(position + 1)...] {
                if budgetSpent { return }
                try tryTogether(.init(decisions: [first, second], interleaving: nil), baseline)
            }
        }
        for index in open {
            for ordinal in concurrent where !interleaved.contains(ordinal) {
                if budgetSpent { return }
                try tryTogether(.init(decisions: [index], interleaving: ordinal), baseline)
            }
        }
        // 3. Every order of each choice's conflicting part.
        for index in open {
            if budgetSpent { return }
            let subset = baseline.conflicting[index]
            let count = baseline.decisions[index].registrations.count
            let sampled = !factorialAtMost(subset.count, Self.exhaustiveLimit)
            if try !tryOrders(of: index, reorderings(of: subset, among: count, seed: seed), baseline), sampled,
                unexplored == nil
            {
                searchFindings.append(sampledNote(decision: index, conflicting: subset.count, baseline: baseline))
            }
        }
        for ordinal in concurrent where !interleaved.contains(ordinal) {
            if budgetSpent { return }
            let sizes = baseline.result.concurrentSteps[ordinal].branchSizes
            let sampled = !multinomialAtMost(sizes, Self.exhaustiveLimit)
            if try !tryInterleavings(of: ordinal, interleavingCandidates(ordinal, sizes), baseline), sampled,
                unexplored == nil
            {
                searchFindings.append(sampledNote(concurrent: ordinal, baseline: baseline))
            }
        }
        // 4. Decisions whose receivers are independent: reversed once, in case a footprint missed something.
        for index in decisions where baseline.conflicting[index].isEmpty {
            if budgetSpent { return }
            _ = try tryOrders(of: index, [reversed(index, baseline)], baseline)
        }
    }

    private mutating func replay(_ schedule: Schedule) throws(InputError) -> Replay.Result {
        let explored = replays > 0
        replays += 1
        let result = try Replay(scenario, schedule: schedule, workLimit: replayWorkLimit, explored: explored).run()
        // The replay's own work, and comparing its outcome with the baseline's.
        work += result.work + result.outcome.comparisonSize / Replay.bytesPerUnit
        let added = union.add(result.findings, order: replays == 1 ? nil : describe(schedule, result))
        if collectsStories {
            // Told from the replay that found it: its events are that replay's.
            for finding in added { stories[finding] = FindingStory(finding, in: result.trace) }
        }
        return result
    }

    /// Replays `schedule` for the search unless it was tried already; nil
    /// when tried, or when the budget is spent (then `what` is noted as the
    /// first thing left unexplored).
    private mutating func explore(_ schedule: Schedule, _ what: String, at place: (step: Int?, site: CallSite?))
        throws(InputError) -> Replay.Result?
    {
        schedulesConsidered += 1
        guard !tried.contains(schedule) else { return nil }
        guard hasBudget else {
            if unexplored == nil { (unexplored, unexploredPlace) = (what, place) }
            return nil
        }
        tried.insert(schedule)
        return try replay(schedule)
    }

    /// Whether another replay fits the budgets.
    private var hasBudget: Bool { replays < Self.replayBudget && work < workLimit }

    /// The budget ran out with some of the search left (``unexplored`` says what).
    private var budgetSpent: Bool { unexplored != nil }

    // MARK: Delivery orders

    /// Tries `candidates` (permutations) for one decision until one changes
    /// the outcome; reports that dependence, minimised. Whether one did.
    private mutating func tryOrders(of index: Int, _ candidates: [[Int]], _ baseline: Baseline)
        throws(InputError) -> Bool
    {
        let decision = baseline.decisions[index]
        for candidate in candidates where candidate != Array(decision.registrations.indices) {
            guard
                let result = try explore(
                    schedule([index: candidate], baseline),
                    "orders of \(postName(index, baseline))", at: postPlace(index, baseline))
            else {
                if unexplored != nil { return false }
                continue
            }
            guard !baseline.result.outcome.matches(result.outcome) else { continue }
            let responsible = try minimise(index, found: candidate, foundOutcome: result.outcome, baseline: baseline)
            if let finding = orderingFinding(index, responsible: responsible, baseline: baseline) {
                searchFindings.append(finding)
            }
            return true
        }
        return false
    }

    /// A schedule that reorders these decisions, each only when met with
    /// the receivers it was made for.
    private func schedule(
        _ permutations: [Int: [Int]], _ baseline: Baseline,
        interleavings: [Int: [Int]] = [:]
    ) -> Schedule {
        Schedule(
            permutations: permutations,
            receivers: Dictionary(
                uniqueKeysWithValues: permutations.keys.map {
                    ($0, baseline.decisions[$0].registrations)
                }),
            interleavings: interleavings)
    }

    private func reversed(_ index: Int, _ baseline: Baseline) -> [Int] {
        Array(baseline.decisions[index].registrations.indices.reversed())
    }

    /// `"P" (step 4)`: a decision's post, as messages name it.
    private func postName(_ index: Int, _ baseline: Baseline) -> String {
        let decision = baseline.decisions[index]
        let step = baseline.trace.step(of: decision.postSequence).map { " (step \($0))" } ?? ""
        return ValuePreview.quoted(decision.channel) + step
    }

    /// The smallest set of receivers whose reordering alone changes the
    /// outcome: a pair when one exists.
    private mutating func minimise(_ index: Int, found: [Int], foundOutcome: Outcome, baseline: Baseline)
        throws(InputError) -> Responsible
    {
        let count = baseline.decisions[index].registrations.count
        let conflicting = baseline.conflicting[index]
        let candidates = conflicting.count >= 2 ? conflicting : Array(0..<count)
        if candidates.count == 2 {
            return Responsible(receivers: candidates, reordered: candidates.reversed(), outcome: foundOutcome)
        }
        pairs: for a in candidates.indices {
            for b in candidates.indices where b > a {
                guard hasBudget else { break pairs }
                let order = moving(candidates[b], before: candidates[a], among: count)
                let result = try replay(schedule([index: order], baseline))
                if !baseline.result.outcome.matches(result.outcome) {
                    return Responsible(
                        receivers: [candidates[a], candidates[b]],
                        reordered: [candidates[b], candidates[a]], outcome: result.outcome)
                }
            }
        }
        // No single pair explains it: report every receiver the order moved.
        let moved = found.filter { candidates.contains($0) }
        return Responsible(receivers: moved.sorted(), reordered: moved, outcome: foundOutcome)
    }

    /// The receivers an order dependence comes down to, in registration order
    /// and in the order that changes the outcome, and that outcome.
    struct Responsible {
        let receivers: [Int]
        let reordered: [Int]
        let outcome: Outcome
    }

    private mutating func orderingFinding(_ index: Int, responsible: Responsible, baseline: Baseline) -> Finding? {
        let decision = baseline.decisions[index]
        let trace = baseline.trace
        let post = trace.events[decision.postSequence]
        return judge(
            Divergence(
                cause: .deliveryOrder(
                    registry: decision.registry, channel: decision.channel,
                    receivers: responsible.receivers.map { receiverName(decision, $0, trace) },
                    reordered: responsible.reordered.map { receiverName(decision, $0, trace) }),
                differences: baseline.result.outcome.differences(from: responsible.outcome),
                step: trace.step(of: decision.postSequence), site: trace.site(post.site),
                events: [decision.postSequence] + deliveries(of: index, to: responsible.receivers, baseline)))
    }

    /// The delivery events of `decision`'s post to these receivers.
    private func deliveries(of index: Int, to receivers: [Int], _ baseline: Baseline) -> [Int] {
        let decision = baseline.decisions[index]
        let trace = baseline.trace
        let deliveries = trace.posts.first { $0.sequence == decision.postSequence }?.deliveries ?? []
        return deliveries.filter { sequence in
            receivers.contains { decision.registrations[$0] == trace.events[sequence].registration }
        }
    }

    /// What the rules make of two replays whose outcomes differ.
    private mutating func judge(_ divergence: Divergence) -> Finding? {
        var findings: [Finding] = []
        for rule in RuleCatalog.rules { rule.check(divergence, into: &findings) }
        if collectsStories, let finding = findings.first {
            comparisons[ReportStories.Key(finding)] = FindingStory.OrderComparison(divergence)
        }
        return findings.first
    }

    private func receiverName(_ decision: DecisionRecord, _ receiver: Int, _ trace: TraceIndex) -> String {
        let id = decision.registrations[receiver]
        if let registration = trace.registration(id) { return trace.name(registration.observer) }
        // An onChange: its tracking's observer.
        if let arm = trace.observationEvents.first(where: {
            trace.events[$0].kind == .observationArm && trace.events[$0].registration == id
        }) {
            return trace.name(trace.events[arm].object)
        }
        return "#\(receiver)"
    }

    // MARK: Two choices together

    /// Decisions reversed together, with a `concurrently` step's branches
    /// reversed too when given.
    private struct Combination {
        let decisions: [Int]
        let interleaving: Int?
    }

    private mutating func tryTogether(_ combination: Combination, _ baseline: Baseline) throws(InputError) {
        var permutations: [Int: [Int]] = [:]
        for index in combination.decisions { permutations[index] = reversed(index, baseline) }
        var interleavings: [Int: [Int]] = [:]
        if let ordinal = combination.interleaving {
            interleavings[ordinal] = reversedInterleaving(ordinal, baseline)
        }
        let what = combination.decisions.map { postName($0, baseline) }
        guard
            let result = try explore(
                schedule(permutations, baseline, interleavings: interleavings),
                "orders of \(what.joined(separator: " and ")) reversed together"
                    + (combination.interleaving.map {
                        " with step "
                            + "\(baseline.result.concurrentSteps[$0].step)'s branches"
                    } ?? ""),
                at: combination.decisions.first.map { postPlace($0, baseline) }
                    ?? combination.interleaving.map { concurrentPlace($0, baseline) } ?? (nil, nil)),
            !baseline.result.outcome.matches(result.outcome)
        else { return }
        var first: [String] = [], other: [String] = [], objects: [String] = [], events: [Int] = []
        for index in combination.decisions {
            let decision = baseline.decisions[index]
            let moved = baseline.conflicting[index]
            let names = moved.map { receiverName(decision, $0, baseline.trace) }
            first.append("\(ValuePreview.quoted(decision.channel)) delivered to \(names.joined(separator: " then "))")
            other.append(
                "\(ValuePreview.quoted(decision.channel)) delivered to \(names.reversed().joined(separator: " then "))")
            objects += names
            events += [decision.postSequence] + deliveries(of: index, to: moved, baseline)
        }
        if let ordinal = combination.interleaving {
            let record = baseline.result.concurrentSteps[ordinal]
            first.append("step \(record.step)'s branches run \(describe(sequential(record.branchSizes)))")
            other.append("step \(record.step)'s branches run \(describe(reversedInterleaving(ordinal, baseline)))")
        }
        let lead = combination.decisions[0]
        let decision = baseline.decisions[lead]
        if let finding = judge(
            Divergence(
                cause: .combined(
                    registry: decision.registry, channel: decision.channel, first: first, other: other,
                    objects: objects),
                differences: baseline.result.outcome.differences(from: result.outcome),
                step: baseline.trace.step(of: decision.postSequence),
                site: baseline.trace.site(baseline.trace.events[decision.postSequence].site), events: events))
        {
            searchFindings.append(finding)
        }
    }

    // MARK: Interleavings

    private func sequential(_ sizes: [Int]) -> [Int] {
        sizes.enumerated().flatMap { Array(repeating: $0.offset, count: $0.element) }
    }

    private func reversedInterleaving(_ ordinal: Int, _ baseline: Baseline) -> [Int] {
        baseline.result.concurrentSteps[ordinal].branchSizes.enumerated().reversed()
            .flatMap { Array(repeating: $0.offset, count: $0.element) }
    }

    /// Every interleaving when few, otherwise seeded samples.
    private func interleavingCandidates(_ ordinal: Int, _ sizes: [Int]) -> [[Int]] {
        if multinomialAtMost(sizes, Self.exhaustiveLimit) { return interleavings(sizes) }
        var generator = SplitMix64(seed: seed ^ UInt64(ordinal + 1) &* 0x9E37_79B9_7F4A_7C15)
        return (0..<Self.sampleCount).map { _ in
            var order = sequential(sizes)
            generator.shuffle(&order)
            return order
        }
    }

    /// Tries `candidates` for one `concurrently` step until one changes the
    /// outcome, and reports it. Whether one did.
    private mutating func tryInterleavings(of ordinal: Int, _ candidates: [[Int]], _ baseline: Baseline)
        throws(InputError) -> Bool
    {
        let record = baseline.result.concurrentSteps[ordinal]
        let first = sequential(record.branchSizes)
        for candidate in candidates where candidate != first {
            guard
                let result = try explore(
                    Schedule(interleavings: [ordinal: candidate]),
                    "interleavings of step \(record.step)'s branches", at: concurrentPlace(ordinal, baseline))
            else {
                if unexplored != nil { return false }
                continue
            }
            guard !baseline.result.outcome.matches(result.outcome) else { continue }
            let differences = baseline.result.outcome.differences(from: result.outcome)
            let site = scenario.steps.indices.contains(record.step) ? scenario.steps[record.step].site : nil
            if let finding = judge(
                Divergence(
                    cause: .interleaving(first: describe(first), other: describe(candidate)),
                    differences: differences, step: record.step, site: site,
                    events: [baseline.trace.stepStart(record.step) ?? 0]))
            {
                searchFindings.append(finding)
            }
            return true
        }
        return false
    }

    /// `[1.1 1.2 2.1]`: branch and step numbers from 1, in run order.
    private func describe(_ interleaving: [Int]) -> String {
        var next: [Int: Int] = [:]
        let parts = interleaving.map { branch -> String in
            next[branch, default: 0] += 1
            return "\(branch + 1).\(next[branch]!)"
        }
        return "[" + parts.joined(separator: " ") + "]"
    }

    // MARK: Words

    /// The choices `schedule` made, in words: `"P1" delivered to b, a`.
    private func describe(_ schedule: Schedule, _ result: Replay.Result) -> String {
        var parts: [String] = []
        for (index, permutation) in schedule.permutations.sorted(by: { $0.key < $1.key })
        where result.decisions.indices.contains(index)
            && (schedule.receivers[index].map { $0 == result.decisions[index].registrations } ?? true)
        {
            let decision = result.decisions[index]
            let names = permutation.map { receiver in
                decision.registrations.indices.contains(receiver)
                    ? receiverName(decision, receiver, result.trace) : "#\(receiver)"
            }
            parts.append("\(ValuePreview.quoted(decision.channel)) delivered to \(names.joined(separator: ", "))")
        }
        for (ordinal, interleaving) in schedule.interleavings.sorted(by: { $0.key < $1.key })
        where result.concurrentSteps.indices.contains(ordinal) {
            parts.append("step \(result.concurrentSteps[ordinal].step)'s branches run \(describe(interleaving))")
        }
        return parts.joined(separator: "; ")
    }

    /// How many schedules the baseline's decision points allow in all
    /// (`Int.max` when more).
    private func orderCount(_ baseline: Baseline) -> Int {
        var total = 1
        let choices =
            baseline.decisions.map { factorial($0.registrations.count) }
            + baseline.result.concurrentSteps.map { multinomial($0.branchSizes) }
        for choice in choices {
            guard let choice else { return Int.max }
            let (product, overflow) = total.multipliedReportingOverflow(by: choice)
            if overflow { return Int.max }
            total = product
        }
        return total
    }

    private func ordersText(_ count: Int) -> String {
        count == Int.max ? "more than \(Int.max.grouped)" : count.grouped
    }

    private func budgetNote(_ unexplored: String, baseline: Baseline) -> Finding {
        let bound =
            replays >= Self.replayBudget
            ? "its budget of \(Self.replayBudget.grouped) replays"
            : "its budget of \(workLimit.grouped) units of work"
        return ExplorationLimitRule().finding(
            "Exploration stopped at \(bound) after \(replays.grouped) replays of "
                + "\(ordersText(orderCount(baseline))) orders: not explored were \(unexplored) and the rest "
                + "of the search after them.",
            step: unexploredPlace.step, site: unexploredPlace.site, events: [])
    }

    /// Where a decision's post is: its step and site.
    private func postPlace(_ index: Int, _ baseline: Baseline) -> (step: Int?, site: CallSite?) {
        let sequence = baseline.decisions[index].postSequence
        return (baseline.trace.step(of: sequence), baseline.trace.site(baseline.trace.events[sequence].site))
    }

    /// Where a `concurrently` step is.
    private func concurrentPlace(_ ordinal: Int, _ baseline: Baseline) -> (step: Int?, site: CallSite?) {
        let step = baseline.result.concurrentSteps[ordinal].step
        return (step, scenario.steps.indices.contains(step) ? scenario.steps[step].site : nil)
    }

    private func sampledNote(decision index: Int, conflicting: Int, baseline: Baseline) -> Finding {
        let decision = baseline.decisions[index]
        let orders = factorial(conflicting).map(\.grouped) ?? "more than \(Int.max.grouped)"
        return ExplorationLimitRule().finding(
            "Only some delivery orders of \(postName(index, baseline)) were tried: its \(conflicting) receivers "
                + "that conflict have \(orders) orders, past the \(Self.exhaustiveLimit) tried in full; every pair "
                + "swapped and \(Self.sampleCount) seeded samples were tried.",
            registry: decision.registry, channel: decision.channel,
            step: baseline.trace.step(of: decision.postSequence),
            site: baseline.trace.site(baseline.trace.events[decision.postSequence].site),
            events: [decision.postSequence])
    }

    private func sampledNote(concurrent ordinal: Int, baseline: Baseline) -> Finding {
        let record = baseline.result.concurrentSteps[ordinal]
        let orders = multinomial(record.branchSizes).map(\.grouped) ?? "more than \(Int.max.grouped)"
        let site = scenario.steps.indices.contains(record.step) ? scenario.steps[record.step].site : nil
        return ExplorationLimitRule().finding(
            "Only some interleavings of step \(record.step)'s branches were tried: they have \(orders), past the "
                + "\(Self.exhaustiveLimit) tried in full; \(Self.sampleCount) seeded samples were tried.",
            step: record.step, site: site, events: [baseline.trace.stepStart(record.step) ?? 0])
    }

    /// The search's findings, repeats folded as every rule's are: a
    /// dependence at one site between the same receivers, found at each level
    /// of a re-posting loop, is one finding counted, not one per level.
    private func deduplicated(_ findings: [Finding]) -> [Finding] {
        var seen = Set<String>()
        var folded = FindingAggregator()
        for finding in findings where seen.insert("\(finding.rule)|\(finding.message)").inserted {
            folded.add(finding)
        }
        return folded.findings
    }
}
