/// The result of running a closure under several delivery orders.
package struct OrderIndependenceCheck<Value: Equatable> {
    /// What registration order returned.
    package let baseline: Value
    /// Orders that returned something else, described (`reversed`, `shuffled(seed: 3)`).
    package let differing: [(order: String, value: Value)]

    package var isIndependent: Bool { differing.isEmpty }
}

/// Runs `body` under registration order, reversed order and `shuffles`
/// seeded shuffles, and compares what it returns. The body must build its
/// registries with the order it is given.
package func checkOrderIndependence<Value: Equatable>(
    shuffles: Int = 8, _ body: (DeliveryOrder) throws -> Value
) rethrows -> OrderIndependenceCheck<Value> {
    let baseline = try body(.registration)
    var orders: [(String, DeliveryOrder)] = [("reversed order", .reversed)]
    for seed in 0..<UInt64(max(0, shuffles)) {
        orders.append(("shuffled(seed: \(seed + 1))", .shuffled(seed: seed + 1)))
    }
    var differing: [(order: String, value: Value)] = []
    for (name, order) in orders {
        let value = try body(order)
        if value != baseline { differing.append((name, value)) }
    }
    return OrderIndependenceCheck(baseline: baseline, differing: differing)
}
