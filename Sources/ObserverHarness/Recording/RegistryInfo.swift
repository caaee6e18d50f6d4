/// The four kinds of registry the harness models.
package enum RegistryKind: String, Sendable, CaseIterable, Codable {
    case notificationCenter = "notification-center"
    case subject
    case property
    case delegate
    /// An `@Observable` model's properties, watched by `withObservationTracking`
    /// (one-shot registrations).
    case observable

    /// How registrations hold observers unless told otherwise.
    package var defaultHold: Hold {
        switch self {
        case .notificationCenter, .delegate: .weak
        case .subject, .observable: .strong
        case .property: .unowned
        }
    }
}

/// Whether a registry promises an order of delivery.
package enum OrderPromise: String, Sendable, Codable {
    /// First registered, first notified: documented, so not explored.
    case registration
    /// Nothing promised: the harness explores delivery orders.
    case unspecified
}

/// A registry as the recording knows it.
struct RegistryInfo: Hashable, Sendable {
    var name: String
    var kind: RegistryKind
    var dedupe: Bool = false
    var order: OrderPromise = .unspecified
    /// Delivers each post to the registrations it had when the post started,
    /// a handler's removals notwithstanding (the live `ObserverList`; the
    /// drop-in center where Foundation's does): a handler removing its own
    /// registration is then no mutation of the loop in flight.
    var snapshotDelivery = false
    /// The hold the registry declares for its registrations; nil: its kind's default.
    var declaredHold: Hold?

    /// How the registry holds a registration unless the registration says otherwise.
    var hold: Hold { declaredHold ?? kind.defaultHold }
}

/// An object as the recording knows it: never its address.
struct ObjectInfo: Hashable, Sendable {
    var typeName: String
    var label: String?

    /// `label` when the user gave one, else `TypeName#id`.
    func displayName(id: UInt32) -> String { label ?? "\(typeName)#\(id)" }
}
