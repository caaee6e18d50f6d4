import Foundation

/// An event line's fields before validation.
struct RawEvent {
    /// One bit per ``TraceFormat/EventKey`` that the line had.
    var present: UInt16 = 0
    var kind: EventKind = .track
    var seq: UInt64 = 0
    var time: UInt64 = 0
    var thread: UInt64 = 0
    var site: UInt64 = 0
    var registry: UInt64 = 0
    var channel: UInt64 = 0
    var object: UInt64 = 0
    var subject: UInt64 = 0
    var registration: UInt64 = 0
    var cause: UInt64 = 0
    var flags: UInt64 = 0

    @inline(__always)
    func has(_ key: TraceFormat.EventKey) -> Bool { present & (1 << key.rawValue) != 0 }

    @inline(__always)
    mutating func set(_ key: TraceFormat.EventKey, _ value: UInt64) {
        present |= 1 << key.rawValue
        switch key {
        case .seq: seq = value
        case .kind: break
        case .time: time = value
        case .thread: thread = value
        case .site: site = value
        case .registry: registry = value
        case .channel: channel = value
        case .object: object = value
        case .subject: subject = value
        case .registration: registration = value
        case .cause: cause = value
        case .flags: flags = value
        }
    }

    /// The event; call only after validation.
    var event: Event {
        Event(
            kind: kind, flags: EventFlags(rawValue: UInt8(truncatingIfNeeded: flags)),
            site: UInt32(truncatingIfNeeded: site), registry: UInt32(truncatingIfNeeded: registry),
            channel: UInt32(truncatingIfNeeded: channel), object: UInt32(truncatingIfNeeded: object),
            subject: UInt32(truncatingIfNeeded: subject),
            registration: UInt32(truncatingIfNeeded: registration),
            cause: has(.cause) ? UInt32(truncatingIfNeeded: cause) : Event.none,
            time: time, thread: UInt16(truncatingIfNeeded: thread))
    }
}

/// Scans `{"key":value,…}` with unsigned integer values and one plain
/// `"kind"` string, byte by byte. Any deviation returns false and the line
/// goes through the JSON parser instead, so this only has to be right on
/// what it accepts.
enum FastEventScanner {
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    static func scan(_ p: UnsafePointer<UInt8>, _ n: Int, into raw: inout RawEvent) -> Bool {
        guard n >= 2, p[0] == UInt8(ascii: "{") else { return false }
        var i = 1
        while true {
            guard i < n, p[i] == quote else { return false }
            i += 1
            let keyStart = i
            while i < n, p[i] != quote {
                if p[i] == backslash { return false }
                i += 1
            }
            guard i + 1 < n, p[i + 1] == UInt8(ascii: ":"),
                let key = eventKey(p + keyStart, i - keyStart)
            else { return false }
            i += 2
            let bit: UInt16 = 1 << key.rawValue
            guard raw.present & bit == 0 else { return false }
            if key == .kind {
                guard i < n, p[i] == quote else { return false }
                i += 1
                let valueStart = i
                while i < n, p[i] != quote { i += 1 }
                guard i < n, let kind = eventKind(p + valueStart, i - valueStart) else { return false }
                raw.kind = kind
                raw.present |= bit
                i += 1
            } else {
                guard i < n else { return false }
                var digit = p[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return false }
                var value = UInt64(digit)
                i += 1
                if value == 0 {
                    if i < n, p[i] &- UInt8(ascii: "0") < 10 { return false }
                } else {
                    var digits = 1
                    while i < n {
                        digit = p[i] &- UInt8(ascii: "0")
                        guard digit < 10 else { break }
                        digits += 1
                        // 18 digits always fit in an Int; longer numbers take the slow path.
                        guard digits <= 18 else { return false }
                        value = value &* 10 &+ UInt64(digit)
                        i += 1
                    }
                }
                raw.set(key, value)
            }
            guard i < n else { return false }
            if p[i] == UInt8(ascii: ",") {
                i += 1
            } else if p[i] == UInt8(ascii: "}") {
                return i + 1 == n
            } else {
                return false
            }
        }
    }

    @inline(__always)
    private static func eventKey(_ p: UnsafePointer<UInt8>, _ length: Int) -> TraceFormat.EventKey? {
        switch length {
        case 1: return p[0] == UInt8(ascii: "t") ? .time : nil
        case 3: return equals(p, "seq") ? .seq : nil
        case 4: return equals(p, "kind") ? .kind : equals(p, "site") ? .site : nil
        case 5: return equals(p, "cause") ? .cause : equals(p, "flags") ? .flags : nil
        case 6: return equals(p, "thread") ? .thread : equals(p, "object") ? .object : nil
        case 7: return equals(p, "channel") ? .channel : equals(p, "subject") ? .subject : nil
        case 8: return equals(p, "registry") ? .registry : nil
        case 12: return equals(p, "registration") ? .registration : nil
        default: return nil
        }
    }

    @inline(__always)
    private static func equals(_ p: UnsafePointer<UInt8>, _ text: StaticString) -> Bool {
        memcmp(p, text.utf8Start, text.utf8CodeUnitCount) == 0
    }

    private static func eventKind(_ p: UnsafePointer<UInt8>, _ length: Int) -> EventKind? {
        for (index, name) in kindNames.enumerated() where name.count == length {
            if name.withUnsafeBufferPointer({ memcmp(p, $0.baseAddress!, length) == 0 }) {
                return EventKind.allCases[index]
            }
        }
        return nil
    }

    private static let kindNames: [[UInt8]] = EventKind.allCases.map { Array($0.traceName.utf8) }
}
