/// Two explored replays of one scenario whose outcomes differ: what
/// ``OrderingDependenceRule`` judges, as a trace is what the other rules judge.
struct Divergence {
    enum Cause {
        /// One post's receivers in registration order, and in an order that
        /// gives another outcome (the smallest responsible set, by name).
        case deliveryOrder(registry: String, channel: String, receivers: [String], reordered: [String])
        /// A `concurrently` step's branches one after another and in an
        /// interleaving that gives another outcome (`[1.1 2.1]`: branch.step).
        case interleaving(first: String, other: String)
        /// Two choices (posts' delivery orders, a `concurrently` step's
        /// interleaving) that change the outcome together, neither alone:
        /// each in its first order and in the other, in words.
        case combined(registry: String, channel: String, first: [String], other: [String], objects: [String])
    }

    let cause: Cause
    /// Each difference: what differs, its value in the first order, in the other.
    let differences: [(what: String, first: String, other: String)]
    /// The top-level step of the post or `concurrently` step.
    let step: Int?
    let site: CallSite?
    let events: [Int]
}
