/// The process's call sites, each turned into text once.
///
/// A live location's `#fileID` is a static string, so its pointer, line and
/// column name one place in the program for the life of the process. Every
/// harness used to build its own tables from scratch (a string made from the
/// `StaticString` and two hash-table inserts per site per harness: most of a
/// small test's recording time); here the text is made once per process and a
/// recorder keeps only an array from catalog number to its own site id.
///
/// Bounded: a program has finitely many call sites, but a caller may build
/// locations with computed lines, so past ``capacity`` entries new sites are
/// left to each recorder (``number(for:)`` returns nil).
final class SiteCatalog: @unchecked Sendable {
    static let shared = SiteCatalog()
    static let capacity = 1 << 16

    struct Entry {
        let site: CallSite
        /// The caller's location without its isolation (the catalog keeps
        /// where, not who: it must not keep an actor alive).
        let location: CodeLocation
    }

    private let lock = Lock()
    // Guarded by `lock`.
    private var numbers: [SiteKey: UInt32] = [:]
    private var textNumbers: [CallSite: UInt32] = [:]
    private var entries: [Entry] = []

    /// The catalog number of `location`'s site, entering it on first sight;
    /// nil for a location without a static file pointer or a full catalog.
    /// Two locations with the same text get the same number.
    func number(for key: SiteKey, _ location: CodeLocation) -> UInt32? {
        guard key.file != nil else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let number = numbers[key] { return number }
        let site = location.callSite
        if let number = textNumbers[site] {
            numbers[key] = number
            return number
        }
        guard entries.count < Self.capacity else { return nil }
        var stored = location
        stored.isolation = nil
        let number = UInt32(entries.count)
        entries.append(Entry(site: site, location: stored))
        numbers[key] = number
        textNumbers[site] = number
        return number
    }

    func entry(_ number: UInt32) -> Entry {
        lock.withLock { entries[Int(number)] }
    }
}

/// A live location's identity: its `#fileID` pointer, line and column.
struct SiteKey: Hashable {
    let file: UnsafeRawPointer?
    let line: UInt
    let column: UInt

    init(_ location: CodeLocation) {
        file = location.fileID.hasPointerRepresentation ? UnsafeRawPointer(location.fileID.utf8Start) : nil
        line = location.line
        column = location.column
    }
}
