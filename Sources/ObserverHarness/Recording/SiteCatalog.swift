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

    static let chunkShift = 8
    static let chunkSize = 1 << chunkShift

    private let lock = Lock()
    // Guarded by `lock`.
    private var numbers = SiteKeyTable()
    private var textNumbers = [CallSite: UInt32]()
    private var count = 0
    /// The entries, in chunks that never move and never go (the catalog
    /// lives as long as the process): a recording reads the entries of the
    /// numbers it holds without a lock or a copy. An entry is written before
    /// its number is handed out, under `lock`, and never changes.
    private let chunks: UnsafeMutablePointer<UnsafeMutablePointer<Entry>?>

    init() {
        let chunkCount = Self.capacity >> Self.chunkShift
        chunks = .allocate(capacity: chunkCount)
        chunks.initialize(repeating: nil, count: chunkCount)
    }

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
            numbers.insert(key, number)
            return number
        }
        guard count < Self.capacity else { return nil }
        var stored = location
        stored.isolation = nil
        let number = UInt32(count)
        let chunk = count >> Self.chunkShift
        if chunks[chunk] == nil { chunks[chunk] = .allocate(capacity: Self.chunkSize) }
        (chunks[chunk]! + (count & (Self.chunkSize - 1))).initialize(to: Entry(site: site, location: stored))
        count += 1
        numbers.insert(key, number)
        textNumbers[site] = number
        return number
    }

    /// The entry of a number ``number(for:_:)`` gave (lock-free: see `chunks`).
    func entry(_ number: UInt32) -> Entry {
        chunks[Int(number) >> Self.chunkShift]![Int(number) & (Self.chunkSize - 1)]
    }

    /// Just the site text of a number ``number(for:_:)`` gave.
    func site(_ number: UInt32) -> CallSite {
        chunks[Int(number) >> Self.chunkShift]![Int(number) & (Self.chunkSize - 1)].site
    }
}

/// Catalog numbers by ``SiteKey``: open addressing with a multiplicative hash
/// of the key's three words. Every registry call of every test looks its
/// site up here; a `Dictionary` hashed the key with SipHash, most of the
/// lookup's cost.
private struct SiteKeyTable {
    private struct Slot {
        var file: UInt = 0  // 0: empty (a key in the table has a file pointer)
        var line: UInt = 0
        var column: UInt = 0
        var number: UInt32 = 0
    }

    private var slots = [Slot](repeating: Slot(), count: 256)
    private var count = 0

    private static func hash(_ file: UInt, _ line: UInt, _ column: UInt) -> UInt {
        var h = file &* 0x9E37_79B9_7F4A_7C15
        h ^= (line &<< 20) ^ column
        h &*= 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 29)
    }

    subscript(key: SiteKey) -> UInt32? {
        guard let pointer = key.file else { return nil }
        let file = UInt(bitPattern: pointer)
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: Self.hash(file, key.line, key.column)) & mask
            while slots[index].file != 0 {
                if slots[index].file == file, slots[index].line == key.line, slots[index].column == key.column {
                    return slots[index].number
                }
                index = (index + 1) & mask
            }
            return nil
        }
    }

    /// Adds `key` (not present) with `number`.
    mutating func insert(_ key: SiteKey, _ number: UInt32) {
        guard let pointer = key.file else { return }
        if (count + 1) * 2 > slots.count { grow() }
        place(UInt(bitPattern: pointer), key.line, key.column, number)
        count += 1
    }

    private mutating func place(_ file: UInt, _ line: UInt, _ column: UInt, _ number: UInt32) {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: Self.hash(file, line, column)) & mask
        while slots[index].file != 0 { index = (index + 1) & mask }
        slots[index] = Slot(file: file, line: line, column: column, number: number)
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        for slot in old where slot.file != 0 { place(slot.file, slot.line, slot.column, slot.number) }
    }
}

/// A live location's identity: its `#fileID` pointer, line and column.
struct SiteKey {
    let file: UnsafeRawPointer?
    let line: UInt
    let column: UInt

    init(_ location: CodeLocation) {
        file = location.fileID.hasPointerRepresentation ? UnsafeRawPointer(location.fileID.utf8Start) : nil
        line = location.line
        column = location.column
    }
}
