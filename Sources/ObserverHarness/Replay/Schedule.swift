/// The choices one replay makes at its decision points: the delivery order of
/// each post with two or more receivers, and the interleaving of each
/// `concurrently` step. Unlisted decisions take the default (registration
/// order; branches one after another).
struct Schedule: Hashable, Sendable {
    /// Decision index (in the order posts are met) → permutation.
    var permutations: [Int: [Int]] = [:]
    /// Decision index → the receivers (registration ids) its permutation was
    /// made for. Another choice can change which post is met at an index; a
    /// permutation then applies only to the post it was made for.
    var receivers: [Int: [UInt32]] = [:]
    /// `concurrently` ordinal → the branch to take each next step from.
    var interleavings: [Int: [Int]] = [:]
}

/// A post with two or more receivers, as met in a replay.
struct DecisionRecord: Sendable {
    let registry: String
    let channel: String
    let postSequence: Int
    /// Receivers' registration ids, in registration order.
    let registrations: [UInt32]
}

/// A `concurrently` step as met in a replay.
struct ConcurrentRecord: Sendable {
    let step: Int
    let branchSizes: [Int]
}

/// Hands a replay's registries their schedule and logs the decisions met.
/// Replays run on one thread; the lock makes the `@Sendable` order closure honest.
final class ScheduleState: @unchecked Sendable {
    private let lock = Lock()
    let schedule: Schedule
    private var decisionLog: [DecisionRecord] = []
    private var concurrentLog: [ConcurrentRecord] = []
    /// The recorder each decision's post was recorded in (a live order check
    /// reads the footprints there; the body may make several harnesses).
    private var decisionRecorders: [Recorder?] = []

    init(_ schedule: Schedule) { self.schedule = schedule }

    var decisions: [DecisionRecord] { lock.withLock { decisionLog } }
    var concurrentSteps: [ConcurrentRecord] { lock.withLock { concurrentLog } }
    var recorders: [Recorder?] { lock.withLock { decisionRecorders } }

    /// The delivery order policy for registries that promise no order.
    var deliveryOrder: DeliveryOrder {
        .custom { [self] context in
            lock.withLock {
                let index = decisionLog.count
                decisionLog.append(
                    DecisionRecord(
                        registry: context.registry, channel: context.channel,
                        postSequence: Int(context.postSequence),
                        registrations: context.registrationIDs))
                decisionRecorders.append(context.recorder)
                if let permutation = schedule.permutations[index],
                    schedule.receivers[index].map({ $0 == context.registrationIDs }) ?? true
                {
                    return permutation
                }
                return Array(0..<context.receiverCount)
            }
        }
    }

    /// The interleaving for the next `concurrently` step.
    func interleaving(step: Int, branchSizes: [Int]) -> [Int] {
        lock.withLock {
            let ordinal = concurrentLog.count
            concurrentLog.append(ConcurrentRecord(step: step, branchSizes: branchSizes))
            if let chosen = schedule.interleavings[ordinal] { return chosen }
            return branchSizes.enumerated().flatMap { Array(repeating: $0.offset, count: $0.element) }
        }
    }
}
