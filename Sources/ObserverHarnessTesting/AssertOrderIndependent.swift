import ObserverHarness

/// Runs `body` once per delivery order and fails if any order returns a
/// different value than registration order, naming the orders and values.
///
/// Pass the order to the registries the body creates:
///
/// ```swift
/// assertOrderIndependent { order in
///     let harness = Harness()
///     let center = harness.notificationCenter(order: order)
///     let totals = Totals(center: center); let badge = Badge(center: center, totals: totals)
///     center.post(name: .cartChanged, object: nil)
///     return badge.text
/// }
/// ```
public func assertOrderIndependent<Value: Equatable>(
    shuffles: Int = 8,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: (DeliveryOrder) throws -> Value
) rethrows {
    let check = try checkOrderIndependence(shuffles: shuffles, body)
    guard let first = check.differing.first else { return }
    let others = check.differing.count > 1 ? " (and \(check.differing.count - 1) more orders)" : ""
    // Quoted as Swift writes them, so an empty string shows as "" rather than nothing.
    recordFailure(
        "The result depends on delivery order: registration order gives "
            + "\(String(reflecting: check.baseline)), \(first.order) gives \(String(reflecting: first.value))"
            + "\(others). Make the observers independent of each "
            + "other's order, or make the order explicit.",
        at: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}
