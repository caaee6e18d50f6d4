/// What running a closure under several delivery orders found: the result
/// of ``checkOrderIndependence(_:)``, for teams that route failures
/// themselves (`assertOrderIndependent` fails the test instead).
public struct OrderIndependenceCheck<Value: Equatable> {
    /// What registration order returned.
    public let baseline: Value
    /// Each post (or pair of posts) whose receivers' order changes the result.
    public let dependences: [OrderDependence<Value>]
    /// How many times the body ran, the first run included.
    public let runs: Int
    /// Posts with two or more receivers in the first run, and how many of
    /// them have receivers whose footprints conflict.
    public let decisions: Int
    public let conflictingDecisions: Int
    /// What the run budget left untried, when it ran out.
    public let unexplored: String?

    /// No order changed the result.
    public var isIndependent: Bool { dependences.isEmpty }
}

/// Receivers of one post (or of two posts reversed together) whose order
/// changes what the body returns.
public struct OrderDependence<Value> {
    /// `"sessionDidChange" posted at Podcast/Session.swift:15`.
    public let post: String
    /// The receivers it comes down to, in registration order: two when one pair explains it.
    public let receivers: [OrderReceiver]
    /// The same receivers in the order that changes the result.
    public let reordered: [OrderReceiver]
    /// What that order returned.
    public let value: Value
}

/// A receiver as the order check names it: its registrant (tracked label or
/// type; a block by its line) and where it was registered.
public struct OrderReceiver: Hashable, Sendable, CustomStringConvertible {
    /// Its registrant: tracked label or type; a block by its line.
    public let name: String
    /// Where it was registered.
    public let site: CallSite?

    /// `cache (AccountCache) registered at Session.swift:33`; a block's name
    /// already says its line.
    public var description: String {
        guard let site else { return name }
        let file = site.file.split(separator: "/").last.map(String.init) ?? site.file
        return name.contains("(\(file):\(site.line))") ? name : "\(name) registered at \(file):\(site.line)"
    }
}

/// The order an order check is running its body under: what registries made
/// through a scope (`withObserverHarness`) deliver in, instead of registration order.
enum OrderCheck {
    @TaskLocal static var order: DeliveryOrder?
}

/// The most runs of the body one check makes (live bodies run app code).
let orderCheckRunBudget = 1_000

/// Runs `body` in registration order, records what each receiver of each post
/// touched (its footprint, as replay does), then re-runs it under the orders
/// replay's exploration would choose, comparing what it returns:
///
/// 1. each post whose receivers conflict, reversed alone;
/// 2. every two such posts reversed together;
/// 3. every order of each post's conflicting receivers (up to 720, then samples);
/// 4. each post whose receivers all commute, reversed once (a live handler's
///    plain property writes leave no footprint, so this is not skipped).
///
/// A changed result is narrowed down to the pair of receivers responsible
/// where one exists. It throws only what `body` throws: route the result
/// yourself, or use `assertOrderIndependent` to fail the test.
///
/// ```swift
/// let check = checkOrderIndependence { order in
///     let center = Harness().notificationCenter(order: order)
///     let banner = WelcomeBanner(center: center, cache: AccountCache(center: center))
///     center.post(name: .sessionDidChange, object: nil)
///     return banner.text
/// }
/// if !check.isIndependent { logger.error("\(check.dependences[0].post) depends on order") }
/// ```
///
/// The body must build its registries with the order it is given (those made
/// through `Observers.center`, `ObserverList` or `ObservedProperty` inside
/// `withObserverHarness` in the body take it by themselves) and should be
/// deterministic: posts are matched across runs by the order they are met in.
public func checkOrderIndependence<Value: Equatable, Failure: Error>(
    _ body: (DeliveryOrder) throws(Failure) -> Value
) throws(Failure) -> OrderIndependenceCheck<Value> {
    var runs = 0
    func run(_ schedule: Schedule) throws(Failure) -> (value: Value, state: ScheduleState) {
        runs += 1
        let state = ScheduleState(schedule)
        let order = state.deliveryOrder
        // Registries the body makes through a scope (`Observers.center` inside
        // `withObserverHarness`) take the order too: app code names none.
        let result = OrderCheck.$order.withValue(order) { Result { () throws(Failure) in try body(order) } }
        return (try result.get(), state)
    }
    let first = try run(Schedule())
    let baseline = first.value
    let met = MetDecisions(first.state)
    var tried: Set<Schedule> = [Schedule()]
    var unexplored: String?
    var dependences: [OrderDependence<Value>] = []

    /// Runs the body with these decisions reordered, unless tried already or
    /// over budget; what it returned when that differs from the baseline.
    func differingValue(_ permutations: [Int: [Int]], _ what: String) throws(Failure) -> Value? {
        let schedule = Schedule(permutations: permutations)
        guard !tried.contains(schedule) else { return nil }
        guard runs < orderCheckRunBudget else {
            if unexplored == nil { unexplored = what }
            return nil
        }
        tried.insert(schedule)
        let value = try run(schedule).value
        return value == baseline ? nil : value
    }

    /// Narrows a changing order of one decision down to a pair of receivers
    /// and records the dependence.
    func report(_ index: Int, found: [Int], value: Value) throws(Failure) {
        let count = met.decisions[index].registrations.count
        let candidates = met.conflicting[index].count >= 2 ? met.conflicting[index] : Array(0..<count)
        var responsible = (
            receivers: found.filter { candidates.contains($0) }.sorted(),
            reordered: found.filter { candidates.contains($0) }, value: value
        )
        if candidates.count == 2 {
            responsible = (candidates, candidates.reversed(), value)
        } else {
            search: for a in candidates.indices {
                for b in candidates.indices where b > a {
                    let order = moving(candidates[b], before: candidates[a], among: count)
                    if let pairValue = try differingValue([index: order], met.postName(index)) {
                        responsible = ([candidates[a], candidates[b]], [candidates[b], candidates[a]], pairValue)
                        break search
                    }
                }
            }
        }
        dependences.append(
            OrderDependence(
                post: met.postName(index), receivers: responsible.receivers.map { met.receiver(index, $0) },
                reordered: responsible.reordered.map { met.receiver(index, $0) }, value: responsible.value))
    }

    let conflicting = met.decisions.indices.filter { !met.conflicting[$0].isEmpty }
    var decided = Set<Int>()
    // 1. Each conflicting post reversed alone.
    for index in conflicting {
        if let value = try differingValue([index: met.reversed(index)], met.postName(index)) {
            try report(index, found: met.reversed(index), value: value)
            decided.insert(index)
        }
    }
    // 2. Two posts reversed together.
    let open = conflicting.filter { !decided.contains($0) }
    for (position, a) in open.enumerated() {
        for b in open[(position + 1)...] {
            let what = "\(met.postName(a)) and \(met.postName(b)) reversed together"
            guard let value = try differingValue([a: met.reversed(a), b: met.reversed(b)], what) else { continue }
            let receivers = [a, b].flatMap { index in met.conflicting[index].map { met.receiver(index, $0) } }
            let reordered = [a, b].flatMap { index in
                met.conflicting[index].reversed().map { met.receiver(index, $0) }
            }
            dependences.append(OrderDependence(post: what, receivers: receivers, reordered: reordered, value: value))
        }
    }
    // 3. Every order of each post's conflicting receivers.
    for index in open {
        let count = met.decisions[index].registrations.count
        for candidate in reorderings(of: met.conflicting[index], among: count, seed: 0)
        where candidate != Array(0..<count) {
            if let value = try differingValue([index: candidate], met.postName(index)) {
                try report(index, found: candidate, value: value)
                break
            }
        }
    }
    // 4. Posts whose receivers commute as far as the harness saw: reversed once.
    for index in met.decisions.indices where met.conflicting[index].isEmpty {
        if let value = try differingValue([index: met.reversed(index)], met.postName(index)) {
            try report(index, found: met.reversed(index), value: value)
        }
    }
    return OrderIndependenceCheck(
        baseline: baseline, dependences: dependences, runs: runs,
        decisions: met.decisions.count, conflictingDecisions: conflicting.count,
        unexplored: unexplored)
}

/// The posts with several receivers that the first run met, with what each
/// receiver touched, read from the recordings the body's harnesses made.
private struct MetDecisions {
    let decisions: [DecisionRecord]
    /// Per decision: its receivers that conflict with another's (empty when fewer than two).
    private(set) var conflicting: [[Int]]
    /// Per decision: the recording it was met in, indexed.
    private var traces: [TraceIndex?]

    init(_ state: ScheduleState) {
        decisions = state.decisions
        conflicting = Array(repeating: [], count: decisions.count)
        traces = Array(repeating: nil, count: decisions.count)
        let recorders = state.recorders
        var groups: [(recorder: Recorder, decisions: [Int])] = []
        for (index, recorder) in recorders.enumerated() {
            guard let recorder else { continue }
            if let group = groups.firstIndex(where: { $0.recorder === recorder }) {
                groups[group].decisions.append(index)
            } else {
                groups.append((recorder, [index]))
            }
        }
        for group in groups {
            // As `Harness.recording()` does, without its leak pinning (which detaches registrations).
            group.recorder.sweepDeallocations()
            TokenOwners.record(in: group.recorder)
            let recording = group.recorder.snapshot()
            let trace = TraceIndex(recording)
            let footprints = Footprints(recording: recording, decisions: group.decisions.map { decisions[$0] })
            for (local, index) in group.decisions.enumerated() {
                let receivers = footprints.conflictingReceivers(of: local)
                conflicting[index] = receivers.count >= 2 ? receivers : []
                traces[index] = trace
            }
        }
    }

    func reversed(_ index: Int) -> [Int] { Array(decisions[index].registrations.indices.reversed()) }

    /// `"sessionDidChange" posted at Podcast/Session.swift:15`; a subject's
    /// default channel by its registry: `a notify of "themes" at …`.
    func postName(_ index: Int) -> String {
        let decision = decisions[index]
        let post = decision.channel.isEmpty ? "a notify of \"\(decision.registry)\"" : "\"\(decision.channel)\" posted"
        // A post its recording did not keep (a harness released before it) is named without a site.
        guard let trace = traces[index], trace.events.indices.contains(decision.postSequence),
            let site = trace.site(trace.events[decision.postSequence].site)
        else {
            return post
        }
        return "\(post) at \(site)"
    }

    func receiver(_ index: Int, _ receiver: Int) -> OrderReceiver {
        let id = decisions[index].registrations[receiver]
        guard let trace = traces[index], let registration = trace.registration(id) else {
            return OrderReceiver(name: "receiver #\(receiver + 1)", site: nil)
        }
        // With the caller's location, so a test failure can be reported there.
        var site = trace.site(registration.site)
        site?.codeLocation = trace.location(registration.site)
        return OrderReceiver(name: trace.describe(trace.registrant(registration)), site: site)
    }
}
