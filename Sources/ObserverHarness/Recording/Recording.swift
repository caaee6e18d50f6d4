/// An immutable snapshot of everything a harness recorded: the event log and
/// the tables its events refer to. Analyse it, or write it as a trace.
public struct Recording: Sendable {
    let events: EventLog
    let strings: [String]
    let objects: [ObjectInfo]
    let registries: [RegistryInfo]
    /// The sites by id; a site taken from the process's ``SiteCatalog`` has
    /// a placeholder here, or no entry past the last site given as text, and
    /// its number in `siteNumbers`.
    private let ownSites: [CallSite]
    /// The caller's original location for sites recorded in process (nil for
    /// sites read from a trace or a scenario), by id as `ownSites`.
    private let ownSiteLocations: [CodeLocation?]
    /// Per site id, its catalog number, or ``Recording/notFromCatalog``;
    /// empty when no site came from the catalog. A snapshot copies no site text.
    private let siteNumbers: [UInt32]

    static let notFromCatalog = UInt32.max

    init(
        events: EventLog, strings: [String], objects: [ObjectInfo], registries: [RegistryInfo],
        sites: [CallSite], siteLocations: [CodeLocation?], siteNumbers: [UInt32] = []
    ) {
        self.events = events
        self.strings = strings
        self.objects = objects
        self.registries = registries
        ownSites = sites
        ownSiteLocations = siteLocations
        self.siteNumbers = siteNumbers
    }

    /// How many site ids there are, id 0 (no site) included.
    private var siteCount: Int { Swift.max(ownSites.count, siteNumbers.count) }

    /// Every site by id, id 0 (no site) first.
    var sites: [CallSite] { (0..<siteCount).map(siteText) }

    /// Every site's caller location by id (see `ownSiteLocations`).
    var siteLocations: [CodeLocation?] { (0..<siteCount).map(siteLocation) }

    private func siteText(_ index: Int) -> CallSite {
        if index < siteNumbers.count, siteNumbers[index] != Self.notFromCatalog {
            return SiteCatalog.shared.site(siteNumbers[index])
        }
        return ownSites[index]
    }

    private func siteLocation(_ index: Int) -> CodeLocation? {
        if index < siteNumbers.count, siteNumbers[index] != Self.notFromCatalog {
            return SiteCatalog.shared.entry(siteNumbers[index]).location
        }
        return index < ownSiteLocations.count ? ownSiteLocations[index] : nil
    }

    /// The caller's location of a site id, nil for none (or a site not recorded in process).
    func location(_ id: UInt32) -> CodeLocation? { id == 0 ? nil : siteLocation(Int(id)) }

    /// The number of recorded events.
    public var eventCount: Int { events.count }

    func string(_ id: UInt32) -> String { strings[Int(id)] }
    func object(_ id: UInt32) -> ObjectInfo { objects[Int(id)] }
    func registry(_ id: UInt32) -> RegistryInfo { registries[Int(id)] }

    /// The site of an event, nil when it has none.
    func site(_ id: UInt32) -> CallSite? { id == 0 ? nil : siteText(Int(id)) }

    /// `label` or `Type#id` of an object id.
    func objectName(_ id: UInt32) -> String { objects[Int(id)].displayName(id: id) }
}
