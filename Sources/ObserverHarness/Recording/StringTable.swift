/// Interns strings so events carry 4-byte ids. Id 0 is the empty string.
struct StringTable: Sendable {
    /// Shared until the first string is interned: most tests under the
    /// trait intern none, and their tables cost no allocation.
    private(set) var strings = StringTable.justTheEmptyString
    /// Every string but the empty one, whose id is always 0.
    private var ids = [String: UInt32]()
    private let capacity: Int

    private static let justTheEmptyString = [""]

    /// With room for `capacity` strings before a table grows, made when the
    /// first one is interned.
    init(capacity: Int = 0) {
        self.capacity = capacity
    }

    mutating func intern(_ string: String) -> UInt32 {
        if let id = ids[string] { return id }
        if string.isEmpty { return 0 }
        if ids.count == 0 {
            // Made with its room, not `reserveCapacity`: the standard library's is an unspecialised generic call.
            ids = Dictionary(minimumCapacity: capacity)
            strings.reserveCapacity(capacity)
        }
        let id = UInt32(strings.count)
        strings.append(string)
        ids.updateValue(id, forKey: string)
        return id
    }

    func id(of string: String) -> UInt32? { string.isEmpty ? 0 : ids[string] }

    subscript(id: UInt32) -> String { strings[Int(id)] }
}
