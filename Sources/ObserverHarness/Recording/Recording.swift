/// An immutable snapshot of everything a harness recorded: the event log and
/// the tables its events refer to. Analyse it, or write it as a trace.
public struct Recording: Sendable {
    let events: EventLog
    let strings: [String]
    let objects: [ObjectInfo]
    let registries: [RegistryInfo]
    let sites: [CallSite]
    /// The caller's original location for sites recorded in process (nil for
    /// sites read from a trace or a scenario).
    let siteLocations: [CodeLocation?]

    /// The number of recorded events.
    public var eventCount: Int { events.count }

    func string(_ id: UInt32) -> String { strings[Int(id)] }
    func object(_ id: UInt32) -> ObjectInfo { objects[Int(id)] }
    func registry(_ id: UInt32) -> RegistryInfo { registries[Int(id)] }

    /// The site of an event, nil when it has none.
    func site(_ id: UInt32) -> CallSite? { id == 0 ? nil : sites[Int(id)] }

    /// `label` or `Type#id` of an object id.
    func objectName(_ id: UInt32) -> String { objects[Int(id)].displayName(id: id) }
}
