import Foundation

extension Recording {
    /// Reads a JSON Lines trace written by ``writeTrace(to:name:)`` (format:
    /// `TraceFormat.swift`), of any size: the file is read a block at a time,
    /// so memory holds the events (40 bytes each), not the text.
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
        func failure(_ message: String) -> TraceError { TraceError(path: path, line: 1, column: 1, message: message) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw failure("cannot read the trace: no such file")
        }
        guard !isFolder.boolValue else { throw failure("cannot read the trace: it is a folder, not a file") }
        guard let file = ReadableFile(path: url.path) else {
            throw failure("cannot read the trace: \(ReadableFile.lastError)")
        }
        defer { file.closeFile() }
        var reader = TraceReader(path: path, expectedBytes: file.regularFileSize)
        return try reader.read { (buffer) throws(TraceError) -> Int in
            guard let count = file.readSome(into: buffer) else {
                throw failure("cannot read the trace: \(ReadableFile.lastError)")
            }
            return count
        }
    }

    /// The longest line in a trace (a table line with a long string).
    static let maxTraceLineBytes = 16 << 20

    /// The longest chain of causes (a post inside a delivery inside a post…)
    /// a trace may hold: 2 048 nested deliveries. The analysis walks these
    /// chains, so they must stay short for it to stay fast.
    package static let maxTraceCauseDepth = 4_096

    /// Reads a trace from its bytes; `path` is what errors and warnings name.
    public static func readTrace(_ data: Data, path: String = "<trace>") throws(InputError) -> TraceReadResult {
        var reader = TraceReader(path: path, expectedBytes: data.count)
        var offset = data.startIndex
        return try reader.read { (buffer) throws(TraceError) -> Int in
            let count = min(buffer.count, data.endIndex - offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<offset + count)
            offset += count
            return count
        }
    }
}

/// Reads a trace line by line. Event lines in the writer's exact form take a
/// byte-level fast path; every other line (tables, the header, anything
/// unusual, and every line the fast path rejects) goes through the JSON
/// parser, which is also what reports errors with their column.
struct TraceReader {
    typealias EventKey = TraceFormat.EventKey

    let path: String
    private(set) var strings: [String] = [""]
    private(set) var objects: [ObjectInfo] = [ObjectInfo(typeName: "", label: nil)]
    private(set) var registries: [RegistryInfo] = [RegistryInfo(name: "", kind: .subject)]
    private(set) var sites: [CallSite] = [CallSite(file: "", line: 0)]
    private(set) var events: [Event] = []
    /// How many causes each event has above it (0: none), to bound the chains
    /// the analysis walks.
    private(set) var causeDepths: [UInt16] = []
    private var warnings: [TraceWarning] = []
    private var name = TraceFormat.defaultName
    private(set) var declaredEvents: Int?
    /// The file's size when known (nil for a pipe), to size the event list.
    private let expectedBytes: Int?

    init(path: String, expectedBytes: Int?) {
        self.path = path
        self.expectedBytes = expectedBytes
    }

    /// Bytes read at a time; a line longer than this grows the buffer, up to
    /// ``Recording/maxTraceLineBytes``.
    static let blockBytes = 4 << 20

    /// Reads lines from `source` (which fills a buffer and returns the count,
    /// 0 at the end) until the end. Only the current block and one partial
    /// line are held, so memory grows with the events, not the text.
    mutating func read(
        from source: (UnsafeMutableRawBufferPointer) throws(TraceError) -> Int
    ) throws(TraceError) -> TraceReadResult {
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.blockBytes, alignment: 1)
        defer { buffer.deallocate() }
        var filled = 0
        var lineNumber = 0
        var sawBytes = false
        var sawHeader = false
        var truncated = false
        var atEnd = false
        reading: while !atEnd {
            let read = try source(UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if read == 0 { atEnd = true } else { filled += read; sawBytes = true }
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var start = 0
            while start < filled {
                let end: Int
                let terminated: Bool
                if let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), filled - start) {
                    end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline))
                    terminated = true
                } else if atEnd {
                    end = filled
                    terminated = false
                } else {
                    break
                }
                lineNumber += 1
                let line = UnsafeBufferPointer(start: base + start, count: end - start)
                start = end + 1
                guard try readLine(line, number: lineNumber, terminated: terminated, sawHeader: &sawHeader) else {
                    truncated = true
                    break reading
                }
            }
            // Keep the partial last line for the next block.
            let rest = max(filled - start, 0)
            if rest > 0, start > 0 { memmove(base, base + start, rest) }
            filled = rest
            if filled == buffer.count {
                guard buffer.count <= Recording.maxTraceLineBytes else {
                    throw TraceError(path: path, line: lineNumber + 1, column: 1, message: "the line is longer than "
                                     + "\(InputBytes.describeSize(Recording.maxTraceLineBytes)), the limit for one line")
                }
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
                larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
                buffer.deallocate()
                buffer = larger
            }
        }
        guard sawBytes else {
            throw TraceError(path: path, line: 1, column: 1, message: "the trace is empty; expected the header line "
                             + #"{"format":"observer-harness-trace","version":1,…}"#)
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

    /// One line; false when it is a truncated last line, dropped with a warning.
    private mutating func readLine(_ line: UnsafeBufferPointer<UInt8>, number: Int, terminated: Bool,
                                   sawHeader: inout Bool) throws(TraceError) -> Bool {
        if Self.isBlank(line) { return true }
        guard line.count <= Recording.maxTraceLineBytes else {
            throw TraceError(path: path, line: number, column: 1, message: "the line is longer than "
                             + "\(InputBytes.describeSize(Recording.maxTraceLineBytes)), the limit for one line")
        }
        if !sawHeader {
            try readHeader(line, number: number)
            sawHeader = true
            return true
        }
        if readFastEvent(line) { return true }
        return try readParsedLine(line, number: number, terminated: terminated)
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
    private mutating func readParsedLine(_ line: UnsafeBufferPointer<UInt8>, number: Int,
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
                events.reserveCapacity(min(declared, (expectedBytes ?? 1 << 20) / 16 + 1))
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

    /// Appends an event ``problem(with:)`` accepted.
    private mutating func appendValidated(_ raw: RawEvent) {
        causeDepths.append(raw.has(.cause) ? causeDepths[Int(raw.cause)] + 1 : 0)
        events.append(raw.event)
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
