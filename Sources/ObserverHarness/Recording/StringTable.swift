/// Interns strings so events carry 4-byte ids. Id 0 is the empty string.
struct StringTable: Sendable {
    /// Shared until the first string is interned: most tests under the
    /// trait intern none, and their tables cost no allocation.
    private(set) var strings = StringTable.justTheEmptyString
    /// Every string but the empty one, whose id is always 0.
    private var ids = [String: UInt32]()

    private static let justTheEmptyString = [""]
    /// How many strings a table has room for before it grows: a test's few.
    private static let capacity = 16
    /// An empty table with that room, copied at the first write: making one
    /// with `init(minimumCapacity:)` (or `reserveCapacity`) is an unspecialised
    /// generic call, which looks the storage type up at run time.
    private static let roomyIDs = [String: UInt32](minimumCapacity: capacity)

    init() {}

    mutating func intern(_ string: String) -> UInt32 {
        if let id = ids[string] { return id }
        if string.isEmpty { return 0 }
        if ids.count == 0 {
            ids = Self.roomyIDs
            strings.reserveCapacity(Self.capacity)
        }
        let id = UInt32(strings.count)
        strings.append(string)
        ids.updateValue(id, forKey: string)
        return id
    }

    func id(of string: String) -> UInt32? { string.isEmpty ? 0 : ids[string] }

    subscript(id: UInt32) -> String { strings[Int(id)] }
}
