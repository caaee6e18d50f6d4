import Foundation

/// Brings posts made straight on `NotificationCenter.default` (by code that
/// does not use `Observers.center`, or by the system) to the registrations
/// made through the router, one observer per notification name.
///
/// Never one observer for every name: Foundation on Linux force-casts a typed
/// message (`MainActorMessage`, `AsyncMessage`) to `Notification` for an
/// observer of every name, or of the message's own name, and aborts the
/// process. Named observers hear only their names, so the system's own
/// notifications cost nothing unless the app observes that name itself.
final class FoundationBridge: @unchecked Sendable {
    static let shared = FoundationBridge()

    private let lock = Lock()
    /// Kept for the process, as a registration on the default center would be.
    private var tokens = [Notification.Name: any NSObjectProtocol]()  // guarded by `lock`

    /// Makes sure Foundation's posts named `name` reach the router.
    func bridge(_ name: Notification.Name?) {
        guard let name else { return }
        let isNew = lock.withLock { tokens[name] == nil }
        guard isNew else { return }
        let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { notification in
            RoutingCenter.shared.receiveFromFoundation(notification)
        }
        let kept = lock.withLock { () -> Bool in
            guard tokens[name] == nil else { return false }
            tokens[name] = token
            return true
        }
        // Another thread bridged the name first.
        if !kept { NotificationCenter.default.removeObserver(token) }
    }

    /// How many names are bridged (for the benchmark).
    var count: Int { lock.withLock { tokens.count } }
}
