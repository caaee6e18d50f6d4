import ObserverHarness

/// Runs `body` under the delivery orders that could change its result and
/// fails if one does, at the registration lines of the two receivers whose
/// order matters, naming them and quoting both results.
///
/// The first run, in registration order, records what each receiver of each
/// post touched; the orders tried are then chosen as scenario replay chooses
/// them: receivers that conflict reversed pairwise (every order when there
/// are few), receivers that commute reversed once. Pass the order to the
/// registries the body creates (registries app code makes through
/// `Observers.center`, `ObserverList` or `ObservedProperty` inside
/// `withObserverHarness` in the body take it by themselves):
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
///
/// The body should be deterministic and make the same posts in every run:
/// posts are matched across runs by the order they are met in.
public func assertOrderIndependent<Value: Equatable, Failure: Error>(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: (DeliveryOrder) throws(Failure) -> Value
) throws(Failure) {
    let check = try checkOrderIndependence(body)
    let here = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    for dependence in check.dependences {
        let message = orderDependenceMessage(dependence, baseline: check.baseline)
        // At each receiver's registration: the lines to change.
        var reported = Set<CallSite>()
        for receiver in dependence.receivers {
            guard let site = receiver.site, let location = site.codeLocation, reported.insert(site).inserted else {
                continue
            }
            recordFailure(message, at: location)
        }
        if reported.isEmpty { recordFailure(message, at: here) }
    }
}

/// The check before footprints chose the orders: `shuffles` is ignored.
@available(*, deprecated, message: "the orders are chosen from what each receiver touched; remove `shuffles:`")
public func assertOrderIndependent<Value: Equatable, Failure: Error>(
    shuffles: Int,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: (DeliveryOrder) throws(Failure) -> Value
) throws(Failure) {
    try assertOrderIndependent(fileID: fileID, filePath: filePath, line: line, column: column, body)
}

/// Names the post and receivers and quotes both results, as Swift writes
/// them (an empty string shows as `""`).
func orderDependenceMessage<Value>(_ dependence: OrderDependence<Value>, baseline: Value) -> String {
    let first = String(reflecting: baseline), other = String(reflecting: dependence.value)
    let receivers = dependence.receivers
    let orders: String
    if receivers.count == 2, dependence.reordered == [receivers[1], receivers[0]] {
        orders = "it returns \(first) when \(receivers[0].name) runs first, \(other) when \(receivers[1].name) does"
    } else {
        orders =
            "it returns \(first) in the order \(names(receivers)) and \(other) in the order "
            + names(dependence.reordered)
    }
    return "The result depends on delivery order: \(dependence.post) reaches \(list(receivers)); \(orders). "
        + "Make each observer independent of the others' order (pass what it needs with the notification, or "
        + "observe what the other announces once it is done), or make the order explicit. [ordering-dependence]"
}

private func names(_ receivers: [OrderReceiver]) -> String { receivers.map(\.name).joined(separator: ", ") }

private func list(_ receivers: [OrderReceiver]) -> String {
    let names = receivers.map(\.description)
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names.last!
}
