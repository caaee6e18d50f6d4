import Foundation

extension Recording {
    /// Reads a JSON Lines trace written by ``writeTrace(to:name:)`` (format:
    /// `TraceFormat.swift`).
    ///
    /// ```swift
    /// let trace = try Recording.readTrace(from: URL(fileURLWithPath: "checkout.trace.jsonl"))
    /// let report = trace.analyze()   // what the recording reported in process
    /// ```
    ///
    /// A truncated last line is dropped with a warning; any other problem
    /// throws an ``InputError`` naming the file, line and column. Errors name
    /// the file as `url.relativePath`, so a path given relative to the current
    /// directory is quoted as the user wrote it.
    public static func readTrace(from url: URL) throws(InputError) -> TraceReadResult {
        let path = url.isFileURL ? url.relativePath : url.absoluteString
        let bytes = try InputFile.read(url, path: path, maxBytes: maxTraceBytes, what: "trace")
        let result: Result<TraceReadResult, TraceError> = bytes.withUnsafeBytes { buffer in
            do throws(TraceError) {
                return .success(try readTrace(buffer, path: path))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The largest trace read: about ten million events. Reading takes
    /// memory in proportion (an event line of about 100 bytes becomes 40).
    package static let maxTraceBytes = 1 << 30

    /// The longest line in a trace (a table line with a long string).
    static let maxTraceLineBytes = 16 << 20

    /// The longest chain of causes (a post inside a delivery inside a post…)
    /// a trace may hold: 2 048 nested deliveries. The analysis walks these
    /// chains, so they must stay short for it to stay fast.
    package static let maxTraceCauseDepth = 4_096

    /// Reads a trace from its bytes; `path` is what errors and warnings name.
    public static func readTrace(_ data: Data, path: String = "<trace>") throws(InputError) -> TraceReadResult {
        let result: Result<TraceReadResult, TraceError> = data.withUnsafeBytes { bytes in
            do throws(TraceError) {
                return .success(try readTrace(bytes, path: path))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func readTrace(_ bytes: UnsafeRawBufferPointer, path: String) throws(TraceError) -> TraceReadResult {
        guard bytes.count <= maxTraceBytes else {
            throw TraceError(path: path, line: 1, column: 1,
                             message: "the trace is larger than \(InputBytes.describeSize(maxTraceBytes)), the limit")
        }
        var reader = TraceReader(path: path)
        return try reader.read(bytes)
    }
}

/// Reads a trace line by line. Event lines in the writer's exact form take a
/// byte-level fast path; every other line (tables, the header, anything
/// unusual, and every line the fast path rejects) goes through the JSON
/// parser, which is also what reports errors with their column.
struct TraceReader {
    typealias EventKey = TraceFormat.EventKey

    private let path: String
    private var strings: [String] = [""]
    private var objects: [ObjectInfo] = [ObjectInfo(typeName: "", label: nil)]
    private var registries: [RegistryInfo] = [RegistryInfo(name: "", kind: .subject)]
    private var sites: [CallSite] = [CallSite(file: "", line: 0)]
    private var events: [Event] = []
    /// How many causes each event has above it (0: none), to bound the chains
    /// the analysis walks.
    private var causeDepths: [UInt16] = []
    private var warnings: [TraceWarning] = []
    private var name = TraceFormat.defaultName
    private var declaredEvents: Int?
    private var byteCount = 0

    init(path: String) {
        self.path = path
    }

    mutating func read(_ bytes: UnsafeRawBufferPointer) throws(TraceError) -> TraceReadResult {
        let count = bytes.count
        byteCount = count
        guard count > 0, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw TraceError(path: path, line: 1, column: 1, message: "the trace is empty; expected the header line "
                             + #"{"format":"observer-harness-trace","version":1,…}"#)
        }
        var start = 0
        var lineNumber = 0
        var sawHeader = false
        var truncated = false
        while start < count {
            lineNumber += 1
            let end: Int
            let terminated: Bool
            if let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start) {
                end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline))
                terminated = true
            } else {
                end = count
                terminated = false
            }
            let line = UnsafeBufferPointer(start: base + start, count: end - start)
            start = end + 1
            if Self.isBlank(line) { continue }
            guard line.count <= Recording.maxTraceLineBytes else {
                throw TraceError(path: path, line: lineNumber, column: 1, message: "the line is longer than "
                                 + "\(InputBytes.describeSize(Recording.maxTraceLineBytes)), the limit for one line")
            }
            if !sawHeader {
                try readHeader(line, number: lineNumber)
                sawHeader = true
                continue
            }
            if readFastEvent(line) { continue }
            guard try readLine(line, number: lineNumber, terminated: terminated) else {
                truncated = true
                break
            }
        }
        guard sawHeader else {
            throw TraceError(path: path, line: 1, column: 1, message: "the trace has no header line")
        }
        if let declared = declaredEvents, events.count < declared, !truncated {
            warnings.append(TraceWarning(
                path: path, line: lineNumber,
                message: "the header declares \(declared) events but the trace has \(events.count); "
                    + "it may have been cut short"))
        }
        let recording = Recording(events: EventLog(events), strings: strings, objects: objects,
                                  registries: registries, sites: sites,
                                  siteLocations: Array(repeating: nil, count: sites.count))
        return TraceReadResult(name: name, recording: recording, warnings: warnings)
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }

    // MARK: The fast path

    /// Reads an event line written exactly as the writer writes it (no
    /// whitespace or escapes, unsigned integers); false for anything else,
    /// including lines that parse but fail validation.
    private mutating func readFastEvent(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = line.baseAddress else { return false }
        var raw = RawEvent()
        guard FastEventScanner.scan(base, line.count, into: &raw), problem(with: raw) == nil else { return false }
        appendValidated(raw)
        return true
    }

    // MARK: The JSON path

    /// Reads any line after the header. Returns false when the line is a
    /// truncated last line, which is dropped with a warning.
    private mutating func readLine(_ line: UnsafeBufferPointer<UInt8>, number: Int,
                                   terminated: Bool) throws(TraceError) -> Bool {
        let bytes = Array(line)
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes)
        } catch {
            if !terminated {
                warnings.append(TraceWarning(
                    path: path, line: number,
                    message: "the last line is cut short (\(error.message)); it was ignored and the rest was read"))
                return false
            }
            throw TraceError(path: path, line: number, column: Self.column(in: bytes, offset: error.offset),
                             message: error.message)
        }
        let context = LineContext(path: path, number: number, bytes: bytes)
        guard case .object(let members) = node.kind else {
            throw context.error(at: node.offset, "expected a JSON object: an event or table line")
        }
        let keys = Set(members.map(\.key))
        let tables = TraceFormat.Table.allCases.filter { keys.contains($0.rawValue) }
        if keys.contains(EventKey.seq.name) {
            try readEvent(members, context)
        } else if tables.count == 1, keys.subtracting([tables[0].rawValue]).isSubset(of: tables[0].fields) {
            try readTable(tables[0], node, context)
        } else if keys.contains(EventKey.kind.name) {
            try readEvent(members, context)
        } else if tables.count == 1 {
            try readTable(tables[0], node, context)
        } else if tables.count > 1 {
            throw context.error(at: node.offset, "a table line defines one entry, but this line has "
                                + tables.map { "\"\($0.rawValue)\"" }.joined(separator: " and "))
        } else {
            throw context.error(at: node.offset, #"expected an event line ("seq", "kind", …) or a table line "#
                                + #"("string", "object", "registry" or "site")"#)
        }
        return true
    }

    private mutating func readHeader(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(TraceError) {
        let bytes = Array(line)
        let context = LineContext(path: path, number: number, bytes: bytes)
        let notATrace = #"not an observer-harness trace: the first line must be the header "#
            + #"{"format":"observer-harness-trace","version":1,…}"#
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes)
        } catch {
            throw context.error(at: error.offset, "\(error.message) (\(notATrace))")
        }
        guard case .object(let members) = node.kind, let format = node["format"] else {
            throw context.error(at: node.offset, notATrace)
        }
        guard case .string(TraceFormat.format) = format.kind else { throw context.error(at: format.offset, notATrace) }
        guard let version = node["version"] else {
            throw context.error(at: node.offset, #"the header needs "version""#)
        }
        guard case .int(let number) = version.kind, number == TraceFormat.version else {
            throw context.error(at: version.offset, "unsupported trace version \(version.value); "
                                + "this reader reads version \(TraceFormat.version)")
        }
        for member in members {
            switch member.key {
            case "format", "version":
                break
            case "name":
                name = try context.string(member.value, "name")
            case "events":
                let declared = try context.integer(member.value, "events", minimum: 0)
                declaredEvents = declared
                // No event line is shorter than 16 bytes: a hostile header
                // cannot make us reserve more than the file could hold.
                events.reserveCapacity(min(declared, byteCount / 16 + 1))
                causeDepths.reserveCapacity(events.capacity)
            default:
                throw context.error(at: member.keyOffset, "unknown header field \"\(member.key)\"")
            }
        }
    }

    private mutating func readEvent(_ members: [JSONMember], _ context: LineContext) throws(TraceError) {
        var raw = RawEvent()
        var offsets = [Int](repeating: 0, count: EventKey.allCases.count)
        for member in members {
            guard let key = EventKey.byName[member.key] else {
                throw context.error(at: member.keyOffset, "unknown event field \"\(member.key)\"")
            }
            offsets[key.rawValue] = member.value.offset
            if key == .kind {
                let name = try context.string(member.value, "kind")
                guard let kind = EventKind.byTraceName[name] else {
                    throw context.error(at: member.value.offset, "unknown event kind \"\(name)\"")
                }
                raw.kind = kind
                raw.present |= 1 << key.rawValue
            } else {
                raw.set(key, UInt64(try context.integer(member.value, key.name, minimum: 0)))
            }
        }
        if let problem = problem(with: raw) {
            throw context.error(at: problem.key.map { offsets[$0.rawValue] } ?? 0, problem.message)
        }
        appendValidated(raw)
    }

    private mutating func readTable(_ table: TraceFormat.Table, _ node: JSONNode,
                                    _ context: LineContext) throws(TraceError) {
        if case .object(let members) = node.kind {
            for member in members where member.key != table.rawValue && !table.fields.contains(member.key) {
                throw context.error(at: member.keyOffset, "unknown field \"\(member.key)\" in a \(table.rawValue) line")
            }
        }
        let next: Int
        switch table {
        case .string: next = strings.count
        case .object: next = objects.count
        case .registry: next = registries.count
        case .site: next = sites.count
        }
        let idNode = node[table.rawValue]!
        let id = try context.integer(idNode, table.rawValue, minimum: 0)
        guard id == next else {
            let reason = id == 0 ? "id 0 is reserved and never written" : "table ids must be 1, 2, 3, … in order"
            throw context.error(at: idNode.offset, "\(table.rawValue) \(id) is out of order: "
                                + "the next \(table.rawValue) id is \(next) (\(reason))")
        }
        switch table {
        case .string:
            strings.append(try context.string(context.required(node, "text", in: table), "text"))
        case .object:
            let type = try context.string(context.required(node, "type", in: table), "type")
            var label: String?
            if let labelNode = node["label"], !labelNode.value.isNull { label = try context.string(labelNode, "label") }
            objects.append(ObjectInfo(typeName: type, label: label))
        case .registry:
            let name = try context.string(context.required(node, "name", in: table), "name")
            let kindNode = try context.required(node, "kind", in: table)
            let kindName = try context.string(kindNode, "kind")
            guard let kind = RegistryKind(rawValue: kindName) else {
                throw context.error(at: kindNode.offset, "unknown registry kind \"\(kindName)\" (expected "
                                    + RegistryKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + ")")
            }
            var info = RegistryInfo(name: name, kind: kind)
            if let dedupe = node["dedupe"] {
                guard case .bool(let value) = dedupe.kind else {
                    throw context.error(at: dedupe.offset, #""dedupe" must be true or false"#)
                }
                info.dedupe = value
            }
            if let orderNode = node["order"] {
                let orderName = try context.string(orderNode, "order")
                guard let order = OrderPromise(rawValue: orderName) else {
                    throw context.error(at: orderNode.offset,
                                        #"unknown order "\#(orderName)" (expected "registration" or "unspecified")"#)
                }
                info.order = order
            }
            registries.append(info)
        case .site:
            let file = try context.string(context.required(node, "file", in: table), "file")
            let line = try context.integer(context.required(node, "line", in: table), "line", minimum: 0)
            let column = try node["column"].map { (node) throws(TraceError) in
                try context.integer(node, "column", minimum: 0)
            } ?? 0
            sites.append(CallSite(file: file, line: line, column: column))
        }
    }

    // MARK: Validation

    /// What is wrong with an event (and which field), nil when it can be
    /// appended: every id must name an entry an earlier table line defined,
    /// so the analysis never indexes past a table.
    private func problem(with raw: RawEvent) -> (key: EventKey?, message: String)? {
        guard raw.has(.seq) else { return (nil, #"an event line needs "seq""#) }
        guard raw.has(.kind) else { return (nil, #"an event line needs "kind""#) }
        let expected = events.count
        guard raw.seq == UInt64(expected) else {
            return (.seq, "event \(raw.seq) is out of order: the next event is \(expected) "
                    + "(events are numbered 0, 1, 2, … in order)")
        }
        if let declared = declaredEvents, expected >= declared {
            return (.seq, "more events than the \(declared) the header declares")
        }
        guard raw.seq < UInt64(Event.none) else { return (.seq, "too many events for one trace") }
        guard raw.thread <= UInt64(UInt16.max) else {
            return (.thread, "thread \(raw.thread) is out of range (0…\(UInt16.max))")
        }
        if raw.site >= UInt64(sites.count) { return (.site, Self.undefined("site", raw.site, count: sites.count)) }
        if raw.registry >= UInt64(registries.count) {
            return (.registry, Self.undefined("registry", raw.registry, count: registries.count))
        }
        if raw.channel >= UInt64(strings.count) {
            return (.channel, Self.undefined("string", raw.channel, count: strings.count))
        }
        if raw.object >= UInt64(objects.count) {
            return (.object, Self.undefined("object", raw.object, count: objects.count))
        }
        if raw.subject >= UInt64(objects.count) {
            return (.subject, Self.undefined("object", raw.subject, count: objects.count))
        }
        if raw.kind.isEffect {
            // An effect's value is an interned string.
            if raw.registration >= UInt64(strings.count) {
                return (.registration, Self.undefined("string", raw.registration, count: strings.count))
            }
        } else if raw.registration > UInt64(UInt32.max) {
            return (.registration, "registration \(raw.registration) is out of range")
        }
        if raw.has(.cause), raw.cause >= raw.seq {
            return (.cause, "cause \(raw.cause) is not an earlier event (this is event \(raw.seq))")
        }
        if raw.has(.cause), Int(causeDepths[Int(raw.cause)]) >= Recording.maxTraceCauseDepth {
            return (.cause, "event \(raw.seq) is nested more than \(Recording.maxTraceCauseDepth) causes deep "
                    + "(each cause is the post, delivery or call it happened inside)")
        }
        guard raw.flags <= UInt64(UInt8.max) else { return (.flags, "flags \(raw.flags) is not a flag set (0…255)") }
        return nil
    }

    /// Appends an event ``problem(with:)`` accepted.
    private mutating func appendValidated(_ raw: RawEvent) {
        causeDepths.append(raw.has(.cause) ? causeDepths[Int(raw.cause)] + 1 : 0)
        events.append(raw.event)
    }

    private static func undefined(_ table: String, _ id: UInt64, count: Int) -> String {
        count > 1
            ? "\(table) \(id) is not defined (\(table) lines before this one define ids 1…\(count - 1))"
            : "\(table) \(id) is not defined (no \(table) line comes before this one)"
    }

    /// The 1-based column of a byte offset within one line, in Unicode
    /// scalars, not counting a byte order mark.
    static func column(in bytes: [UInt8], offset: Int) -> Int {
        let end = min(max(offset, 0), bytes.count)
        let start = min(InputBytes.byteOrderMarkLength(bytes), end)
        var column = 1
        for index in start..<end where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return column
    }
}

/// One line being read through the JSON parser: turns offsets into
/// `PATH:LINE:COLUMN` errors and checks value types.
private struct LineContext {
    let path: String
    let number: Int
    let bytes: [UInt8]

    func error(at offset: Int, _ message: String) -> TraceError {
        TraceError(path: path, line: number, column: TraceReader.column(in: bytes, offset: offset), message: message)
    }

    func string(_ node: JSONNode, _ key: String) throws(TraceError) -> String {
        guard case .string(let value) = node.kind else { throw error(at: node.offset, "\"\(key)\" must be a string") }
        return value
    }

    func integer(_ node: JSONNode, _ key: String, minimum: Int) throws(TraceError) -> Int {
        guard case .int(let value) = node.kind, value >= minimum else {
            throw error(at: node.offset, minimum == 0 ? "\"\(key)\" must be a non-negative integer"
                                                      : "\"\(key)\" must be an integer of at least \(minimum)")
        }
        return value
    }

    func required(_ node: JSONNode, _ key: String, in table: TraceFormat.Table) throws(TraceError) -> JSONNode {
        guard let value = node[key] else {
            throw error(at: node.offset, "a \(table.rawValue) line needs \"\(key)\"")
        }
        return value
    }
}

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
        Event(kind: kind, flags: EventFlags(rawValue: UInt8(truncatingIfNeeded: flags)),
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
                  let key = eventKey(p + keyStart, i - keyStart) else { return false }
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
