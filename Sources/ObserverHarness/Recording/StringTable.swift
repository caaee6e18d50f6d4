/// Interns strings so events carry 4-byte ids. Id 0 is the empty string.
struct StringTable: Sendable {
    private(set) var strings: [String]
    private var ids: [String: UInt32]

    /// With room for `capacity` strings before a table grows.
    init(capacity: Int = 0) {
        strings = [""]
        strings.reserveCapacity(capacity)
        // Made with its room, not `reserveCapacity`: the standard library's is an unspecialised generic call.
        ids = Dictionary(minimumCapacity: capacity)
        ids[""] = 0
    }

    mutating func intern(_ string: String) -> UInt32 {
        if let id = ids[string] { return id }
        let id = UInt32(strings.count)
        strings.append(string)
        ids.updateValue(id, forKey: string)
        return id
    }

    func id(of string: String) -> UInt32? { ids[string] }

    subscript(id: UInt32) -> String { strings[Int(id)] }
}
