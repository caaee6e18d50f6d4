import Foundation
import Testing

@testable import ObserverHarness

/// Under the harness an `ObserverList` calls exactly whom the plain list
/// calls, in the same order, whatever its handlers do during a post.
@Suite struct ObserverListDifferentialTests {
    static let sequenceCount = 1_200

    final class Subscriber {
        let index: Int
        init(_ index: Int) { self.index = index }
    }

    /// The signal library's case: observer 1's handler removes observers 1 and
    /// 3; the list delivers from a snapshot, so 1, 2 and 3 are called.
    @Test(arguments: ListKind.allCases)
    func aHandlerRemovingItselfAndALaterObserverLeavesThatPostAlone(kind: ListKind) {
        let harness = Harness(name: "removal during a post")
        let list = kind.make(ObserverList<Subscriber>.self, harness: harness, hold: .strong, dedupe: false)
        let subscribers = (1...3).map(Subscriber.init)
        for subscriber in subscribers { list.add(subscriber) }
        var called: [Int] = []
        list.notify { subscriber in
            called.append(subscriber.index)
            if subscriber.index == 1 {
                list.remove(subscribers[0])
                list.remove(subscribers[2])
            }
        }
        #expect(called == [1, 2, 3])
        called = []
        list.notify { called.append($0.index) }
        #expect(called == [2])
    }

    @Test(arguments: ListKind.allCases)
    func anObserverAddedDuringAPostMissesItAndGetsTheNext(kind: ListKind) {
        let harness = Harness(name: "add during a post")
        let list = kind.make(ObserverList<Subscriber>.self, harness: harness, hold: .strong, dedupe: false)
        let first = Subscriber(1), late = Subscriber(2)
        list.add(first)
        var called: [Int] = []
        list.notify { subscriber in
            called.append(subscriber.index)
            list.add(late)
        }
        list.notify { called.append($0.index) }
        #expect(called == [1, 1, 2])
    }

    /// `observers()` is whom `notify` calls, in its order, plain and under the harness.
    @Test(arguments: [ListKind?.none] + ListKind.allCases.map(Optional.some))
    func theSnapshotOfObserversIsWhomNotifyCalls(kind: ListKind?) {
        let harness = Harness(name: "observers snapshot")
        let list =
            kind?.make(ObserverList<Subscriber>.self, harness: harness, hold: .weak, dedupe: true)
            ?? ObserverList<Subscriber>(hold: .weak, dedupe: true)
        let subscribers = (1...5).map(Subscriber.init)
        var released: Subscriber? = Subscriber(6)
        for subscriber in subscribers { list.add(subscriber) }
        list.add(released!)
        list.add(subscribers[0])  // a duplicate, ignored
        list.add(subscribers[1], channel: "reset")
        list.remove(subscribers[2])
        let oneShot = Subscriber(7)
        list.add(oneShot, hold: .strong)  // kept by the list although it is weak
        released = nil
        var called: [Int] = []
        list.notify { called.append($0.index) }
        #expect(list.observers().map(\.index) == called)
        #expect(called == [1, 2, 4, 5, 7])
        #expect(list.observers(channel: "reset").map(\.index) == [2])
        #expect(list.observers(channel: "nobody").isEmpty)
        withExtendedLifetime(subscribers) {}
    }

    @Test func randomSequencesCallWhomThePlainListCalls() {
        var disagreements: [String] = []
        var coverage = ListDifferential.Coverage()
        for seed in 0..<UInt64(Self.sequenceCount) {
            var random = SplitMix64(seed: seed)
            let plan = ListDifferential.Plan(random: &random)
            let plain = ListDifferential.run(plan) { hold, dedupe in
                ObserverList<Subscriber>(hold: hold, dedupe: dedupe)
            }
            let harness = Harness(name: "list differential")
            let kind = ListKind.allCases[Int(seed % 2)]
            let instrumented = ListDifferential.run(plan) { hold, dedupe in
                kind.make(ObserverList<Subscriber>.self, harness: harness, hold: hold, dedupe: dedupe)
            }
            coverage.add(plain)
            if plain.log != instrumented.log {
                let index =
                    zip(plain.log, instrumented.log).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(plain.log.count, instrumented.log.count)
                disagreements.append(
                    "seed \(seed) (\(kind)), from line \(index): plain \(plain.log.dropFirst(index).prefix(3)), "
                        + "harness \(instrumented.log.dropFirst(index).prefix(3))")
            }
        }
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) sequences disagree:\n\(disagreements.prefix(5).joined(separator: "\n"))")
        // The sequences exercise what they claim to.
        #expect(coverage.deliveries > 20_000)
        #expect(coverage.removalsOfSelf > 500)
        #expect(coverage.removalsOfEarlier > 200)
        #expect(coverage.removalsOfLater > 500)
        #expect(coverage.removalsOfAll > 200)
        #expect(coverage.adds > 500)
        #expect(coverage.nestedPosts > 500)
        #expect(coverage.releases > 500)
    }

    @Test func theComparisonCatchesADifference() {
        // A list that skips whoever a handler removed (the scenario model's
        // rule) differs from the plain list in some of the first sequences.
        let differing = (0..<UInt64(50)).filter { seed in
            var random = SplitMix64(seed: seed)
            let plan = ListDifferential.Plan(random: &random)
            let make = { (hold: Hold, dedupe: Bool) in ObserverList<Subscriber>(hold: hold, dedupe: dedupe) }
            return ListDifferential.run(plan, make: make).log
                != ListDifferential.run(plan, skipRemoved: true, make: make).log
        }
        #expect(!differing.isEmpty)
    }
}

/// How a test gets an instrumented list: made inside `withObserverHarness`, or from the harness.
enum ListKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case scoped, injected

    var description: String { rawValue }

    func make<Observer>(
        _ type: ObserverList<Observer>.Type, harness: Harness, hold: Hold, dedupe: Bool
    ) -> ObserverList<Observer> {
        switch self {
        case .scoped: withObserverHarness(harness) { ObserverList<Observer>(hold: hold, dedupe: dedupe) }
        case .injected: harness.observerList(of: Observer.self, hold: hold, dedupe: dedupe)
        }
    }
}

/// Random sequences of adds, removes, releases and posts on one list, whose
/// handlers remove themselves, earlier or later observers or everyone, add
/// observers and post again.
enum ListDifferential {
    typealias Subscriber = ObserverListDifferentialTests.Subscriber

    enum Effect {
        case removeSelf
        case remove(Int)
        case removeAll
        case add(Int, channel: Int)
        case post(channel: Int)
    }

    enum Step {
        case add(Int, channel: Int)
        case remove(Int, channel: Int?)
        case release(Int)
        case post(channel: Int)
    }

    struct Plan {
        static let subscriberCount = 8
        let hold: Hold
        let dedupe: Bool
        var steps: [Step] = []
        /// What each subscriber's handler does when a post reaches it.
        var effects: [[Effect]] = []

        init(random: inout SplitMix64) {
            hold = Hold.allCases[random.next(below: 3)]
            dedupe = random.next(below: 2) == 0
            let count = Self.subscriberCount
            for _ in 0..<count {
                var effects: [Effect] = []
                if random.next(below: 2) == 0 {
                    for _ in 0..<(1 + random.next(below: 2)) {
                        switch random.next(below: 6) {
                        case 0: effects.append(.removeSelf)
                        case 1, 2: effects.append(.remove(random.next(below: count)))
                        case 3: effects.append(.removeAll)
                        case 4: effects.append(.add(random.next(below: count), channel: random.next(below: 2)))
                        default: effects.append(.post(channel: random.next(below: 2)))
                        }
                    }
                }
                self.effects.append(effects)
            }
            for _ in 0..<(10 + random.next(below: 20)) {
                switch random.next(below: 10) {
                case 0..<4: steps.append(.add(random.next(below: count), channel: random.next(below: 3) == 0 ? 1 : 0))
                case 4: steps.append(.remove(random.next(below: count), channel: random.next(below: 2) == 0 ? nil : 0))
                case 5: steps.append(.release(random.next(below: count)))
                default: steps.append(.post(channel: random.next(below: 4) == 0 ? 1 : 0))
                }
            }
        }
    }

    struct Run {
        /// "post 3 (depth 1): s5", in call order.
        var log: [String] = []
        var removalsOfSelf = 0
        var removalsOfEarlier = 0
        var removalsOfLater = 0
        var removalsOfAll = 0
        var removalsDuringPosts = 0
        var adds = 0
        var nestedPosts = 0
        var releases = 0
    }

    struct Coverage {
        var deliveries = 0
        var removalsOfSelf = 0
        var removalsOfEarlier = 0
        var removalsOfLater = 0
        var removalsOfAll = 0
        var adds = 0
        var nestedPosts = 0
        var releases = 0

        mutating func add(_ run: Run) {
            deliveries += run.log.count
            removalsOfSelf += run.removalsOfSelf
            removalsOfEarlier += run.removalsOfEarlier
            removalsOfLater += run.removalsOfLater
            removalsOfAll += run.removalsOfAll
            adds += run.adds
            nestedPosts += run.nestedPosts
            releases += run.releases
        }
    }

    static let channels = ["", "reset"]

    /// Runs `plan` on the list `make` returns. `skipRemoved` makes the runner
    /// itself skip observers removed during a post (a deliberately wrong list,
    /// to show the comparison can fail).
    static func run(
        _ plan: Plan, skipRemoved: Bool = false, make: (Hold, Bool) -> ObserverList<Subscriber>
    ) -> Run {
        let list = make(plan.hold, plan.dedupe)
        // The test's own references: released by a `release` step.
        var held: [Subscriber?] = (0..<Plan.subscriberCount).map(Subscriber.init)
        // Weak and unowned entries may outlive their subscriber: every one
        // ever made is named by index, never reached through a stale reference.
        var run = Run()
        var posts = 0
        var depth = 0
        var removedThisPost: Set<Int> = []
        var order: [Int] = []  // who this post has called so far

        func subscriber(_ index: Int) -> Subscriber? { held[index] }

        func post(channel: Int) {
            let id = posts
            posts += 1
            depth += 1
            let outerRemoved = removedThisPost
            let outerOrder = order
            removedThisPost = []
            order = []
            defer {
                depth -= 1
                removedThisPost = outerRemoved
                order = outerOrder
            }
            list.notify(channel: channels[channel]) { subscriber in
                if skipRemoved, removedThisPost.contains(subscriber.index) { return }
                run.log.append("post \(id) (depth \(depth)): s\(subscriber.index)")
                order.append(subscriber.index)
                guard depth <= 2 else { return }
                for effect in plan.effects[subscriber.index] {
                    switch effect {
                    case .removeSelf:
                        list.remove(subscriber)
                        removedThisPost.insert(subscriber.index)
                        run.removalsOfSelf += 1
                    case .remove(let index):
                        guard let other = held[index] else { continue }
                        list.remove(other)
                        removedThisPost.insert(index)
                        if order.contains(index) { run.removalsOfEarlier += 1 } else { run.removalsOfLater += 1 }
                    case .removeAll:
                        // Half by the list's own `removeAll`, half one by one, as Signals' `cancelAll` does.
                        if subscriber.index.isMultiple(of: 2) { list.removeAll() }
                        for case let other? in held {
                            if !subscriber.index.isMultiple(of: 2) { list.remove(other) }
                            removedThisPost.insert(other.index)
                        }
                        run.removalsOfAll += 1
                    case .add(let index, let channel):
                        guard let other = held[index] else { continue }
                        list.add(other, channel: channels[channel])
                        run.adds += 1
                    case .post(let channel):
                        run.nestedPosts += 1
                        post(channel: channel)
                    }
                    run.removalsDuringPosts = run.removalsOfSelf + run.removalsOfEarlier + run.removalsOfLater
                }
            }
        }

        for step in plan.steps {
            switch step {
            case .add(let index, let channel):
                guard let target = subscriber(index) else { continue }
                list.add(target, channel: channels[channel])
            case .remove(let index, let channel):
                guard let target = subscriber(index) else { continue }
                list.remove(target, channel: channel.map { channels[$0] })
            case .release(let index):
                if held[index] != nil { run.releases += 1 }
                held[index] = nil
            case .post(let channel):
                // Whom the list says `notify` would call: compared as well.
                let current = list.observers(channel: channels[channel]).map { "s\($0.index)" }
                run.log.append("observers on \(channels[channel]): \(current.joined(separator: " "))")
                post(channel: channel)
            }
        }
        return run
    }
}
