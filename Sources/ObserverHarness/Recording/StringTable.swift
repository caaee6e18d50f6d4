/// Interns strings so events carry 4-byte ids. Id 0 is the empty string.
struct StringTable: Sendable {
    private(set) var strings: [String] = [""]
    private var ids: [String: UInt32] = ["": 0]

    mutating func intern(_ string: String) -> UInt32 {
        if let id = ids[string] { return id }
        let id = UInt32(strings.count)
        strings.append(string)
        ids[string] = id
        return id
    }

    func id(of string: String) -> UInt32? { ids[string] }

    mutating func reserveCapacity(_ count: Int) {
        strings.reserveCapacity(count)
        // Made anew, not `reserveCapacity`: the standard library's is an unspecialised generic call.
        var ids = [String: UInt32](minimumCapacity: count)
        for (string, id) in self.ids { ids[string] = id }
        self.ids = ids
    }

    subscript(id: UInt32) -> String { strings[Int(id)] }
}
