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
            throw failure("cannot read the trace: \(InputFile.missingReason(url.path))")
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
    private var typeNames: [String: String] = [:]
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
                    throw TraceError(
                        path: path, line: lineNumber + 1, column: 1,
                        message: "the line is longer than "
                            + "\(InputBytes.describeSize(Recording.maxTraceLineBytes)), the limit for one line")
                }
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
                larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
                buffer.deallocate()
                buffer = larger
            }
        }
        guard sawBytes else {
            throw TraceError(
                path: path, line: 1, column: 1,
                message: "the trace is empty; expected the header line "
                    + #"{"format":"observer-harness-trace","version":1,…}"#)
        }
        guard sawHeader else {
            throw TraceError(path: path, line: 1, column: 1, message: "the trace has no header line")
        }
        if let declared = declaredEvents, events.count < declared, !truncated {
            warnings.append(
                TraceWarning(
                    path: path, line: lineNumber,
                    message: "the header declares \(declared) events but the trace has \(events.count); "
                        + "it may have been cut short"))
        }
        let recording = Recording(
            events: EventLog(events), strings: strings, objects: objects,
            registries: registries, sites: sites,
            siteLocations: Array(repeating: nil, count: sites.count))
        return TraceReadResult(name: name, recording: recording, warnings: warnings)
    }

    /// One line; false when it is a truncated last line, dropped with a warning.
    private mutating func readLine(
        _ line: UnsafeBufferPointer<UInt8>, number: Int, terminated: Bool,
        sawHeader: inout Bool
    ) throws(TraceError) -> Bool {
        if Self.isBlank(line) { return true }
        guard line.count <= Recording.maxTraceLineBytes else {
            throw TraceError(
                path: path, line: number, column: 1,
                message: "the line is longer than "
                    + "\(InputBytes.describeSize(Recording.maxTraceLineBytes)), the limit for one line")
        }
        // A byte order mark starts a file, not a line.
        if number > 1, InputBytes.byteOrderMarkLength(line) > 0 {
            throw TraceError(
                path: path, line: number, column: 1,
                message: "a byte order mark is allowed only at the start of the trace")
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
        // A trace checked out with CRLF line ends (git's autocrlf) stays on
        // the fast path: the CR is JSON whitespace, 13 times slower to parse.
        var count = line.count
        if count > 0, base[count - 1] == UInt8(ascii: "\r") { count -= 1 }
        var raw = RawEvent()
        guard FastEventScanner.scan(base, count, into: &raw), problem(with: raw) == nil else { return false }
        appendValidated(raw)
        return true
    }

    // MARK: The JSON path

    /// Reads any line after the header. Returns false when the line is a
    /// truncated last line, which is dropped with a warning.
    private mutating func readParsedLine(
        _ line: UnsafeBufferPointer<UInt8>, number: Int,
        terminated: Bool
    ) throws(TraceError) -> Bool {
        let bytes = Array(line)
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes, limits: Self.lineLimits)
        } catch {
            if !terminated {
                warnings.append(
                    TraceWarning(
                        path: path, line: number,
                        message: "the last line is cut short (\(error.message)); it was ignored and the rest was read"))
                return false
            }
            throw TraceError(
                path: path, line: number, column: JSONInput.column(in: bytes, offset: error.offset),
                message: error.message)
        }
        let input = JSONInput(line: bytes, number: number, root: node, path: path)
        guard case .object(let members) = node.kind else {
            throw input.error("expected a JSON object: an event or table line", at: node.offset)
        }
        let keys = Set(members.map(\.key))
        let tables = TraceFormat.Table.allCases.filter { keys.contains($0.rawValue) }
        if keys.contains(EventKey.seq.name) {
            try readEvent(try input.fields(node, "an event line"))
        } else if tables.count == 1, keys.subtracting([tables[0].rawValue]).isSubset(of: tables[0].fields) {
            try readTable(tables[0], try input.fields(node, tables[0].lineName))
        } else if keys.contains(EventKey.kind.name) {
            try readEvent(try input.fields(node, "an event line"))
        } else if tables.count == 1 {
            try readTable(tables[0], try input.fields(node, tables[0].lineName))
        } else if tables.count > 1 {
            throw input.error(
                "a table line defines one entry, but this line has "
                    + tables.map { "\"\($0.rawValue)\"" }.joined(separator: " and "), at: node.offset)
        } else {
            throw input.error(
                #"expected an event line ("seq", "kind", …) or a table line "#
                    + #"("string", "object", "registry" or "site")"#, at: node.offset)
        }
        return true
    }

    /// Nesting and size within one line (the line's size is already bounded).
    static let lineLimits = JSONParser.Limits(maxDepth: maxLineDepth, maxBytes: Recording.maxTraceLineBytes)

    /// How deeply a line may nest JSON (no valid line nests at all).
    static let maxLineDepth = 256

    private mutating func readHeader(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(TraceError) {
        let bytes = Array(line)
        let notATrace =
            #"not an observer-harness trace: the first line must be the header "#
            + #"{"format":"observer-harness-trace","version":1,…}"#
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes, limits: Self.lineLimits)
        } catch {
            throw TraceError(
                path: path, line: number, column: JSONInput.column(in: bytes, offset: error.offset),
                message: "\(error.message) (\(notATrace))")
        }
        let input = JSONInput(line: bytes, number: number, root: node, path: path)
        guard case .object = node.kind, let format = node["format"] else {
            throw input.error(notATrace, at: node.offset)
        }
        guard case .string(TraceFormat.format) = format.kind else { throw input.error(notATrace, at: format.offset) }
        let header = try input.fields(node, "the header")
        try header.allowOnly(["format", "version", "name", "events"])
        try header.checkVersion(TraceFormat.version, of: "trace")
        if let name = try header.optionalString("name") { self.name = name.value }
        if let declared = try header.optionalCount("events") {
            declaredEvents = declared
            // No event line is shorter than 16 bytes: a hostile header
            // cannot make us reserve more than the file could hold.
            events.reserveCapacity(min(declared, (expectedBytes ?? 1 << 20) / 16 + 1))
            causeDepths.reserveCapacity(events.capacity)
        }
    }

    private mutating func readEvent(_ fields: JSONFields) throws(TraceError) {
        var raw = RawEvent()
        var offsets = [Int](repeating: 0, count: EventKey.allCases.count)
        for member in fields.members {
            guard let key = EventKey.byName[member.key] else {
                throw fields.input.error("unknown field \"\(member.key)\" in \(fields.what)", at: member.keyOffset)
            }
            offsets[key.rawValue] = member.value.offset
            if key == .kind {
                let name = try fields.input.string(member.value, "\"kind\"")
                guard let kind = EventKind.byTraceName[name] else {
                    throw fields.input.error("unknown event kind \"\(name)\"", at: member.value.offset)
                }
                raw.kind = kind
                raw.present |= 1 << key.rawValue
            } else {
                raw.set(key, try fields.input.unsigned(member.value, "\"\(key.name)\"", upTo: key.largestValue))
            }
        }
        if let problem = problem(with: raw) {
            throw fields.input.error(problem.message, at: problem.key.map { offsets[$0.rawValue] } ?? fields.offset)
        }
        appendValidated(raw)
    }

    private mutating func readTable(_ table: TraceFormat.Table, _ fields: JSONFields) throws(TraceError) {
        let input = fields.input
        try fields.allowOnly(table.fields.union([table.rawValue]))
        let next: Int
        switch table {
        case .string: next = strings.count
        case .object: next = objects.count
        case .registry: next = registries.count
        case .site: next = sites.count
        }
        let idNode = try fields.required(table.rawValue)
        let id = try input.count(idNode, "\"\(table.rawValue)\"")
        guard id == next else {
            let reason = id == 0 ? "id 0 is reserved and never written" : "table ids must be 1, 2, 3, … in order"
            throw input.error(
                "\(table.rawValue) \(id) is out of order: "
                    + "the next \(table.rawValue) id is \(next) (\(reason))", at: idNode.offset)
        }
        switch table {
        case .string:
            strings.append(try fields.requiredString("text").value)
        case .object:
            var type = try fields.requiredString("type").value
            // One string per type, shared by its objects: a name longer than
            // 15 bytes (`NotificationObserverToken`) is a heap string each.
            if let known = typeNames[type] { type = known } else { typeNames[type] = type }
            objects.append(ObjectInfo(typeName: type, label: try fields.optionalString("label")?.value))
        case .registry:
            var info = RegistryInfo(
                name: try fields.requiredString("name").value,
                kind: try fields.requiredChoice("kind", Self.expectedKinds))
            if let dedupe = try fields.optionalBool("dedupe") { info.dedupe = dedupe }
            if let order: OrderPromise = try fields.optionalChoice("order", #""registration" or "unspecified""#) {
                info.order = order
            }
            info.declaredHold = try fields.optionalChoice("hold", #""strong", "weak" or "unowned""#)
            if let snapshot = try fields.optionalBool("snapshot") { info.snapshotDelivery = snapshot }
            registries.append(info)
        case .site:
            let file = try fields.requiredString("file").value
            let line = try input.count(try fields.required("line"), "\"line\"")
            let column = try fields.optionalCount("column") ?? 0
            sites.append(CallSite(file: file, line: line, column: column))
        }
    }

    private static let expectedKinds =
        RegistryKind.allCases.dropLast().map { "\"\($0.rawValue)\"" }
        .joined(separator: ", ") + " or \"\(RegistryKind.allCases.last!.rawValue)\""

    /// Appends an event ``problem(with:)`` accepted.
    private mutating func appendValidated(_ raw: RawEvent) {
        causeDepths.append(raw.has(.cause) ? causeDepths[Int(raw.cause)] + 1 : 0)
        events.append(raw.event)
    }
}
