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
    // Guarded by `lock`, which already orders every access: the runtime's
    // exclusivity checks (two calls per access) buy nothing.
    @exclusivity(unchecked) private var numbers = SiteKeyTable()
    /// Catalog numbers by text: the text's file number (plus one), line and
    /// column. Integers, not the text: a `Dictionary` of `CallSite`s hashed
    /// the file's path for every new site, and again at every doubling.
    @exclusivity(unchecked) private var textNumbers = SiteKeyTable()
    /// File numbers by `#fileID` pointer (line and column 0), and by text:
    /// a file's text is made once per pointer, not once per site.
    @exclusivity(unchecked) private var filesByPointer = SiteKeyTable()
    @exclusivity(unchecked) private var filesByText = [String: UInt32]()
    @exclusivity(unchecked) private var fileTexts: [String] = []
    @exclusivity(unchecked) private var count = 0
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
        guard let pointer = key.file else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let number = numbers[key] { return number }
        let file = fileNumberLocked(UInt(bitPattern: pointer), location.fileID)
        if let number = textNumbers[file: UInt(file) + 1, line: key.line, column: key.column] {
            numbers.insert(key, number)
            return number
        }
        guard count < Self.capacity else { return nil }
        var stored = location
        stored.isolation = nil
        let number = UInt32(count)
        let chunk = count >> Self.chunkShift
        if chunks[chunk] == nil { chunks[chunk] = .allocate(capacity: Self.chunkSize) }
        let site = CallSite(file: fileTexts[Int(file)], line: Int(location.line), column: Int(location.column))
        (chunks[chunk]! + (count & (Self.chunkSize - 1))).initialize(to: Entry(site: site, location: stored))
        count += 1
        numbers.insert(key, number)
        textNumbers.insert(file: UInt(file) + 1, line: key.line, column: key.column, number)
        return number
    }

    /// The number of the file `fileID` (at `pointer`) names: one per text. Lock held.
    private func fileNumberLocked(_ pointer: UInt, _ fileID: StaticString) -> UInt32 {
        if let number = filesByPointer[file: pointer, line: 0, column: 0] { return number }
        let text = "\(fileID)"
        let number: UInt32
        if let known = filesByText[text] {
            number = known
        } else {
            number = UInt32(fileTexts.count)
            fileTexts.append(text)
            filesByText.updateValue(number, forKey: text)
        }
        filesByPointer.insert(file: pointer, line: 0, column: 0, number)
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

/// Catalog numbers by ``SiteKey`` (or another key of three words, the
/// first never 0): open addressing with a multiplicative hash of the words.
/// Every registry call of every test looks its site up here; a `Dictionary`
/// hashed the key with SipHash, most of the lookup's cost.
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
        return self[file: UInt(bitPattern: pointer), line: key.line, column: key.column]
    }

    /// The number under a key of three words; `file` is never 0.
    subscript(file file: UInt, line line: UInt, column column: UInt) -> UInt32? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: Self.hash(file, line, column)) & mask
            while slots[index].file != 0 {
                if slots[index].file == file, slots[index].line == line, slots[index].column == column {
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
        insert(file: UInt(bitPattern: pointer), line: key.line, column: key.column, number)
    }

    /// Adds a key of three words (not present; `file` is never 0) with `number`.
    mutating func insert(file: UInt, line: UInt, column: UInt, _ number: UInt32) {
        if (count + 1) * 2 > slots.count { grow() }
        place(file, line, column, number)
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
        // By index: a debug build (what `swift test` makes) walks an array through generic code.
        var index = 0
        while index < old.count {
            let slot = old[index]
            if slot.file != 0 { place(slot.file, slot.line, slot.column, slot.number) }
            index += 1
        }
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

    /// A key at another address (tests: the linker merges equal literals of one binary).
    init(file: UnsafeRawPointer, line: UInt, column: UInt) {
        self.file = file
        self.line = line
        self.column = column
    }
}
