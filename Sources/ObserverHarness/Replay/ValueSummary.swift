/// A shared-state value as a replay keeps it for comparison and messages:
/// its fingerprint and its preview, never a copy of the value itself (a read
/// of a growing list must not keep every version of the list alive).
struct ValueSummary: Equatable, Sendable {
    let fingerprint: ValueFingerprint
    /// Compact JSON, cut at ``ValuePreview/limit`` characters.
    let preview: String

    init(_ value: JSONValue) {
        fingerprint = ValueFingerprint(value)
        preview = ValuePreview.of(value)
    }
}

/// A deterministic 64-bit hash of a value's meaning and its size: equal for
/// values that ``JSONValue/semanticallyEquals(_:)`` (numbers by value,
/// objects in any member order), so two values whose fingerprints differ
/// differ, and the whole value is serialised only for a message.
struct ValueFingerprint: Hashable, Sendable {
    let hash: UInt64
    /// About the bytes of the value's compact JSON (strings unescaped): what
    /// copying or comparing it costs.
    let size: Int

    init(_ value: JSONValue) {
        (hash, size) = Self.measure(value)
    }

    private static func measure(_ value: JSONValue) -> (UInt64, Int) {
        switch value {
        case .null: return (mix(1, 0), 4)
        case .bool(let bool): return (mix(2, bool ? 1 : 0), bool ? 4 : 5)
        case .int(let int): return (mix(3, UInt64(bitPattern: Int64(int))), 20)
        case .double(let double):
            if let int = Int(exactly: double) { return (mix(3, UInt64(bitPattern: Int64(int))), 20) }
            return (mix(4, double.bitPattern), 24)
        case .string(let string): return (mix(5, hash(string)), string.utf8.count + 2)
        case .array(let elements):
            var hash = mix(6, UInt64(elements.count))
            var size = 2 + max(elements.count - 1, 0)
            for element in elements {
                let (elementHash, elementSize) = measure(element)
                hash = mix(hash, elementHash)
                size += elementSize
            }
            return (hash, size)
        case .object(let object):
            // Members in any order: a sum of per-member hashes.
            var sum: UInt64 = 0
            var size = 2 + max(object.count - 1, 0)
            for member in object {
                let (memberHash, memberSize) = measure(member.value)
                sum &+= mix(hash(member.key), memberHash)
                size += member.key.utf8.count + 3 + memberSize
            }
            return (mix(7, sum), size)
        }
    }

    /// FNV-1a over the UTF-8 bytes (Swift's `Hasher` is seeded per process).
    private static func hash(_ string: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in string.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// SplitMix64's finalizer over two words.
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var z = a &+ 0x9E37_79B9_7F4A_7C15 &+ (b &* 0xBF58_476D_1CE4_E5B9)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Values as messages quote them: compact JSON cut at 120 characters with
/// `…`, reading no more of a large value than the cut needs.
enum ValuePreview {
    static let limit = 120

    static func of(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        // Room for 120 characters of up to 4 bytes each, and one more to know a cut was made.
        write(value, budget: 4 * limit + 1, into: &bytes)
        return cut(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` cut to ``limit`` characters and put in quotes, as messages show
    /// a name or key from the app: cut before quoting, so a value holding
    /// quotes of its own is cut too.
    static func quoted(_ text: String) -> String { "\"" + cut(text) + "\"" }

    /// `text` cut to ``limit`` characters, ending in `…` when cut.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    private static func write(_ value: JSONValue, budget: Int, into out: inout [UInt8]) {
        guard out.count < budget else { return }
        switch value {
        case .string(let string):
            // Only the start of a long string.
            let start = string.utf8.count > budget ? String(string.prefix(budget)) : string
            JSONWriter.appendString(start, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                guard out.count < budget else { return }
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, budget: budget, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            let order = object.indices.sorted { object[$0].key.unicodeScalarsPrecede(object[$1].key) }
            for (index, position) in order.enumerated() {
                guard out.count < budget else { return }
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(object[position].key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(object[position].value, budget: budget, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .null, .bool, .int, .double:
            value.write(into: &out, options: .compact)
        }
    }
}
