import ObserverHarnessInterface

/// A handle that ends a registration: a block registration's token, a
/// property observation. Its registration's observer is the token itself, so
/// rules need the object that keeps it to know who registered.
protocol RegistrationToken: AnyObject {}

extension NotificationObserverToken: RegistrationToken {}

/// Whether `object` is a registration token. (`PropertyObservation`, from
/// the interface product, is not made to conform: an extension here would
/// show it in this module's public API.)
private func isToken(_ object: AnyObject) -> Bool {
    object is RegistrationToken || object is PropertyObservation
}

/// Finds which tracked object owns each live registration token, by
/// reflection when the harness checks: the object whose stored properties
/// hold it, directly or inside optionals, arrays, sets, dictionaries, tuples,
/// structs and enums. Another object's properties are that object's own
/// business (a shared service holding tokens must not make every screen that
/// references it their owner), so the search never enters a class instance.
///
/// A token held by exactly one tracked object is recorded as owned by it; a
/// token held by none (dropped, or kept where the harness cannot see) or by
/// several keeps no owner, and rules treat it as its own observer.
enum TokenOwners {
    /// How deep into nested containers a search goes.
    static let depthLimit = 6
    /// How many stored values one object's search reads at most.
    static let valueLimit = 10_000

    static func record(in recorder: Recorder) {
        let live = recorder.liveObjectsNow()
        var tokenIDs: [ObjectIdentifier: UInt32] = [:]
        for (id, object) in live where isToken(object) { tokenIDs[ObjectIdentifier(object)] = id }
        guard !tokenIDs.isEmpty else { return }
        var owners: [UInt32: [UInt32]] = [:]
        for (id, object) in live where !isToken(object) {
            var budget = valueLimit
            var found: Set<UInt32> = []
            var mirror: Mirror? = Mirror(reflecting: object)
            while let current = mirror {
                for child in current.children {
                    collect(child.value, depth: depthLimit, budget: &budget, tokenIDs: tokenIDs, into: &found)
                }
                mirror = current.superclassMirror
            }
            for token in found { owners[token, default: []].append(id) }
        }
        for token in owners.keys.sorted() {
            guard let holders = owners[token], holders.count == 1 else { continue }
            recorder.recordTokenOwner(holders[0], of: token)
        }
    }

    private static func collect(
        _ value: Any, depth: Int, budget: inout Int, tokenIDs: [ObjectIdentifier: UInt32],
        into found: inout Set<UInt32>
    ) {
        budget -= 1
        guard budget > 0 else { return }
        if let object = classInstance(value) {
            if let token = tokenIDs[ObjectIdentifier(object)] { found.insert(token) }
            return
        }
        guard depth > 0 else { return }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional, .collection, .set, .dictionary, .tuple, .struct, .enum:
            for child in mirror.children {
                collect(child.value, depth: depth - 1, budget: &budget, tokenIDs: tokenIDs, into: &found)
                if budget <= 0 { return }
            }
        default:
            return
        }
    }
}
