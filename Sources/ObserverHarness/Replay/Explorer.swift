/// Replays a scenario under many schedules and reports what depends on order.
///
/// 1. The baseline replay uses registration order and runs `concurrently`
///    branches one after another.
///
/// Every rule applies to every replay explored: a finding that only some
/// order shows is reported once (per rule, registry, channel, objects and
/// site), its message naming an order that produces it.
/// 2. For each post with two or more receivers: the reversed order first
///    (so every pair is tried in both relative orders), then every order of
///    the receivers whose footprints conflict — exhaustively up to 720
///    orders, seeded samples beyond. This finds a reader that must sit
///    between two writers, which reversal alone cannot.
/// 3. For each `concurrently` step: the reversed branch order, then every
///    interleaving up to 720, seeded samples beyond.
/// 4. The first schedule that changes the outcome is minimised to the
///    smallest responsible set of receivers (a pair where one exists).
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
    /// ``workBudget`` for this exploration (tests lower it).
    var workLimit = Explorer.workBudget

    init(scenario: Scenario, seed: UInt64) {
        self.scenario = scenario
        self.seed = seed
    }

    /// Every replay's findings, each kept once.
    private var union = FindingUnion()

    mutating func run() throws(InputError) -> Report {
        let baseline = try replay(Schedule())
        var findings: [Finding] = []
        let trace = baseline.trace
        let footprints = Footprints(recording: baseline.recording, decisions: baseline.decisions)

        for (index, decision) in baseline.decisions.enumerated() where hasBudget {
            if let finding = try exploreDecision(index, decision, baseline: baseline, footprints: footprints,
                                                 trace: trace) {
                findings.append(finding)
            }
        }
        for (ordinal, record) in baseline.concurrentSteps.enumerated() where hasBudget {
            if let finding = try exploreInterleavings(ordinal, record, baseline: baseline, trace: trace) {
                findings.append(finding)
            }
        }
        return Report(scenario: scenario.name, eventCount: baseline.recording.eventCount, replays: replays,
                      findings: (union.findings + deduplicated(findings)).sorted(by: Finding.reportOrder))
    }

    private mutating func replay(_ schedule: Schedule) throws(InputError) -> Replay.Result {
        replays += 1
        let result = try Replay(scenario, schedule: schedule).run()
        work += result.work
        union.add(result.findings, order: replays == 1 ? nil : describe(schedule, result))
        return result
    }

    /// The choices `schedule` made, in words: `"P1" delivered to b, a`.
    private func describe(_ schedule: Schedule, _ result: Replay.Result) -> String {
        var parts: [String] = []
        for (index, permutation) in schedule.permutations.sorted(by: { $0.key < $1.key })
        where result.decisions.indices.contains(index) {
            let decision = result.decisions[index]
            let names = permutation.map { receiver in
                decision.registrations.indices.contains(receiver)
                    ? receiverName(decision, receiver, result.trace) : "#\(receiver)"
            }
            parts.append("\"\(decision.channel)\" delivered to \(names.joined(separator: ", "))")
        }
        for (ordinal, interleaving) in schedule.interleavings.sorted(by: { $0.key < $1.key })
        where result.concurrentSteps.indices.contains(ordinal) {
            parts.append("step \(result.concurrentSteps[ordinal].step)'s branches run \(describe(interleaving))")
        }
        return parts.joined(separator: "; ")
    }

    /// Whether another replay fits the budgets.
    private var hasBudget: Bool { replays < Self.replayBudget && work < workLimit }

    // MARK: Delivery orders

    private mutating func exploreDecision(_ index: Int, _ decision: DecisionRecord, baseline: Replay.Result,
                                          footprints: Footprints, trace: TraceIndex) throws(InputError) -> Finding? {
        let count = decision.registrations.count
        let conflicting = footprints.conflictingReceivers(of: index)
        var candidates: [[Int]] = [Array((0..<count).reversed())]
        if conflicting.count >= 2 {
            candidates += orders(of: conflicting, among: count)
        }
        var tried = Set<[Int]>([Array(0..<count)])
        for candidate in candidates where hasBudget && tried.insert(candidate).inserted {
            let result = try replay(Schedule(permutations: [index: candidate]))
            guard !baseline.outcome.matches(result.outcome) else { continue }
            let responsible = try minimise(index, count: count, conflicting: conflicting, found: candidate,
                                           foundOutcome: result.outcome, baseline: baseline)
            return orderingFinding(decision, responsible: responsible, baseline: baseline, trace: trace)
        }
        return nil
    }

    /// Orders that permute only the `subset` positions (registration order
    /// elsewhere): all of them when few, otherwise seeded samples.
    private func orders(of subset: [Int], among count: Int) -> [[Int]] {
        func place(_ arrangement: [Int]) -> [Int] {
            var order = Array(0..<count)
            for (slot, receiver) in zip(subset, arrangement) { order[slot] = receiver }
            return order
        }
        if factorialAtMost(subset.count, Self.exhaustiveLimit) {
            return permutations(of: subset).map(place)
        }
        var generator = SplitMix64(seed: seed ^ UInt64(subset.count) &* 0xA24B_AED4_963E_E407)
        var result: [[Int]] = []
        // Every pair swapped alone first (cheap and the likeliest culprit), then random orders.
        for a in 0..<subset.count where result.count < Self.sampleCount {
            for b in (a + 1)..<subset.count where result.count < Self.sampleCount {
                var arrangement = subset
                arrangement.swapAt(a, b)
                result.append(place(arrangement))
            }
        }
        for _ in 0..<Self.sampleCount {
            var arrangement = subset
            generator.shuffle(&arrangement)
            result.append(place(arrangement))
        }
        return result
    }

    /// The smallest set of receivers whose reordering alone changes the
    /// outcome: a pair when one exists.
    private mutating func minimise(_ index: Int, count: Int, conflicting: [Int], found: [Int],
                                   foundOutcome: Outcome, baseline: Replay.Result)
        throws(InputError) -> Responsible {
        let candidates = conflicting.count >= 2 ? conflicting : Array(0..<count)
        if candidates.count == 2 {
            return Responsible(receivers: candidates, reordered: candidates.reversed(), outcome: foundOutcome)
        }
        for a in candidates.indices {
            for b in candidates.indices where b > a {
                guard hasBudget else { break }
                // Registration order with receiver b moved just before receiver a.
                var order = Array(0..<count).filter { $0 != candidates[b] }
                order.insert(candidates[b], at: order.firstIndex(of: candidates[a]) ?? 0)
                let result = try replay(Schedule(permutations: [index: order]))
                if !baseline.outcome.matches(result.outcome) {
                    return Responsible(receivers: [candidates[a], candidates[b]],
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

    private func orderingFinding(_ decision: DecisionRecord, responsible: Responsible, baseline: Replay.Result,
                                 trace: TraceIndex) -> Finding? {
        let post = trace.events[decision.postSequence]
        let deliveries = trace.posts.first { $0.sequence == decision.postSequence }?.deliveries ?? []
        let responsibleDeliveries = deliveries.filter { sequence in
            responsible.receivers.contains { decision.registrations[$0] == trace.events[sequence].registration }
        }
        return judge(Divergence(
            cause: .deliveryOrder(registry: decision.registry, channel: decision.channel,
                                  receivers: responsible.receivers.map { receiverName(decision, $0, trace) },
                                  reordered: responsible.reordered.map { receiverName(decision, $0, trace) }),
            differences: baseline.outcome.differences(from: responsible.outcome),
            step: trace.step(of: decision.postSequence), site: trace.site(post.site),
            events: [decision.postSequence] + responsibleDeliveries))
    }

    /// What the rules make of two replays whose outcomes differ.
    private func judge(_ divergence: Divergence) -> Finding? {
        var findings: [Finding] = []
        for rule in RuleCatalog.rules { rule.check(divergence, into: &findings) }
        return findings.first
    }

    private func receiverName(_ decision: DecisionRecord, _ receiver: Int, _ trace: TraceIndex) -> String {
        guard let registration = trace.registration(decision.registrations[receiver]) else { return "#\(receiver)" }
        return trace.name(registration.observer)
    }

    // MARK: Interleavings

    private mutating func exploreInterleavings(_ ordinal: Int, _ record: ConcurrentRecord, baseline: Replay.Result,
                                               trace: TraceIndex) throws(InputError) -> Finding? {
        let sequential = record.branchSizes.enumerated().flatMap { Array(repeating: $0.offset, count: $0.element) }
        let reversed = record.branchSizes.enumerated().reversed()
            .flatMap { Array(repeating: $0.offset, count: $0.element) }
        var candidates = [reversed]
        if multinomialAtMost(record.branchSizes, Self.exhaustiveLimit) {
            candidates += interleavings(record.branchSizes)
        } else {
            var generator = SplitMix64(seed: seed ^ UInt64(ordinal + 1) &* 0x9E37_79B9_7F4A_7C15)
            for _ in 0..<Self.sampleCount {
                var order = sequential
                generator.shuffle(&order)
                candidates.append(order)
            }
        }
        var tried = Set<[Int]>([sequential])
        for candidate in candidates where hasBudget && tried.insert(candidate).inserted {
            let result = try replay(Schedule(interleavings: [ordinal: candidate]))
            let differences = baseline.outcome.differences(from: result.outcome)
            guard !differences.isEmpty else { continue }
            let site = scenario.steps.indices.contains(record.step) ? scenario.steps[record.step].site : nil
            return judge(Divergence(
                cause: .interleaving(first: describe(sequential), other: describe(candidate)),
                differences: differences, step: record.step, site: site,
                events: [trace.stepStart(record.step) ?? 0]))
        }
        return nil
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

    private func deduplicated(_ findings: [Finding]) -> [Finding] {
        var seen = Set<String>()
        return findings.filter { seen.insert("\($0.rule)|\($0.message)").inserted }
    }
}

// MARK: Combinatorics

/// All permutations of `elements`, in lexicographic order of positions.
func permutations(of elements: [Int]) -> [[Int]] {
    var result: [[Int]] = []
    var current = elements
    func generate(_ k: Int) {
        if k == current.count { result.append(current); return }
        for i in k..<current.count {
            current.swapAt(k, i)
            generate(k + 1)
            current.swapAt(k, i)
        }
    }
    generate(0)
    return result
}

/// Every interleaving of branches with these sizes (branch index per step).
func interleavings(_ sizes: [Int]) -> [[Int]] {
    var result: [[Int]] = []
    var remaining = sizes
    var current: [Int] = []
    let total = sizes.reduce(0, +)
    func generate() {
        if current.count == total { result.append(current); return }
        for branch in remaining.indices where remaining[branch] > 0 {
            remaining[branch] -= 1
            current.append(branch)
            generate()
            current.removeLast()
            remaining[branch] += 1
        }
    }
    generate()
    return result
}

func factorialAtMost(_ n: Int, _ limit: Int) -> Bool {
    var product = 1
    for k in stride(from: 2, through: max(n, 1), by: 1) {
        product *= k
        if product > limit { return false }
    }
    return true
}

/// Whether (sum of sizes)! / Π(size!) ≤ limit.
func multinomialAtMost(_ sizes: [Int], _ limit: Int) -> Bool {
    var total = 0
    var value = 1.0
    for size in sizes {
        for k in stride(from: 1, through: max(size, 0), by: 1) {
            total += 1
            value = value * Double(total) / Double(k)
            if value > Double(limit) { return false }
        }
    }
    return true
}
