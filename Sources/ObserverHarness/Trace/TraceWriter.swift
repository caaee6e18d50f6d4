import Foundation

extension Recording {
    /// The recording as a JSON Lines trace (see `TraceFormat.swift`), which
    /// `harness-cli analyze` and ``readTrace(from:)`` read back.
    ///
    /// ```swift
    /// try harness.recording().writeTrace(to: URL(fileURLWithPath: "checkout.trace.jsonl"), name: "checkout")
    /// ```
    ///
    /// - Parameters:
    ///   - url: The file to write; an existing one is replaced.
    ///   - name: The report name (`scenario`) a reader will use.
    public func writeTrace(to url: URL, name: String = "recording") throws {
        // Streamed a block at a time, so memory does not grow with the trace.
        // Not atomic: a reader already tolerates a trace cut short.
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try TraceWriter(recording: self).encode(name: name) { block in
            try handle.write(
                contentsOf: Data(
                    bytesNoCopy: UnsafeMutableRawPointer(mutating: block.baseAddress!),
                    count: block.count, deallocator: .none))
        }
    }

    /// The trace's bytes: the header, the tables, then one line per event.
    public func traceData(name: String = "recording") -> Data {
        var data = Data()
        TraceWriter(recording: self).encode(name: name) { block in data.append(contentsOf: block) }
        return data
    }
}

extension Harness {
    /// Writes everything recorded so far as a JSON Lines trace named after
    /// the harness; `harness-cli analyze` reads it and gives the same report
    /// as ``analyze()``.
    public func writeTrace(to url: URL) throws {
        try recording().writeTrace(to: url, name: name)
    }
}

/// Encodes a recording: tables through the JSON writer's string escaping,
/// events with raw byte stores into one growing buffer (no per-event
/// allocation or `String`).
struct TraceWriter {
    let recording: Recording

    /// More than the longest event line: every key with its largest value.
    private static let maxEventLineBytes = 400

    /// Bytes handed to `write` at a time (the last block may be shorter).
    static let blockBytes = 1 << 20

    /// Encodes the trace, handing it to `write` a block at a time; the buffer
    /// is reused, so memory stays at one block (and one line) whatever the
    /// trace's length. Tables go out in blocks too: a long recording has a
    /// table entry per tracked object.
    func encode(name: String, write: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var head: [UInt8] = []
        head.reserveCapacity(Self.blockBytes + 4096)
        writeHeader(name: name, into: &head)
        try forEachTableLine { line in
            writeLine(line, into: &head)
            if head.count >= Self.blockBytes {
                try head.withUnsafeBytes { try write($0) }
                head.removeAll(keepingCapacity: true)
            }
        }
        if !head.isEmpty { try head.withUnsafeBytes { try write($0) } }
        head = []

        let eventCount = recording.events.count
        var buffer = TraceByteBuffer(capacity: Self.blockBytes + Self.maxEventLineBytes)
        try KindNames.table.withUnsafeBufferPointer { kinds in
            for sequence in 0..<eventCount {
                if buffer.count >= Self.blockBytes {
                    try buffer.withBytes(write)
                    buffer.removeAll()
                }
                writeEvent(recording.events[sequence], sequence: sequence, kinds: kinds, into: &buffer)
            }
        }
        if buffer.count > 0 { try buffer.withBytes(write) }
    }

    private func writeHeader(name: String, into out: inout [UInt8]) {
        writeLine(
            [
                "format": .string(TraceFormat.format), "version": .int(TraceFormat.version),
                "name": .string(name), "events": .int(recording.events.count),
            ], into: &out)
    }

    /// Every table entry but the reserved id 0, in id order, as the line to
    /// write. Tables go through the general writer; only events take the fast path.
    private func forEachTableLine(_ body: (JSONObject) throws -> Void) rethrows {
        for id in recording.strings.indices.dropFirst() {
            try body(["string": .int(id), "text": .string(recording.strings[id])])
        }
        for id in recording.objects.indices.dropFirst() {
            let object = recording.objects[id]
            var line: JSONObject = ["object": .int(id), "type": .string(object.typeName)]
            if let label = object.label { line["label"] = .string(label) }
            try body(line)
        }
        for id in recording.registries.indices.dropFirst() {
            let registry = recording.registries[id]
            var line: JSONObject = [
                "registry": .int(id), "name": .string(registry.name), "kind": .string(registry.kind.rawValue),
                "dedupe": .bool(registry.dedupe), "order": .string(registry.order.rawValue),
            ]
            // Written only when not the default, so most traces read as before.
            if let hold = registry.declaredHold { line["hold"] = .string(hold.rawValue) }
            if registry.snapshotDelivery { line["snapshot"] = .bool(true) }
            try body(line)
        }
        let sites = recording.sites
        for id in sites.indices.dropFirst() {
            let site = sites[id]
            var line: JSONObject = ["site": .int(id), "file": .string(site.file), "line": .int(site.line)]
            if site.column != 0 { line["column"] = .int(site.column) }
            try body(line)
        }
    }

    private func writeLine(_ object: JSONObject, into out: inout [UInt8]) {
        JSONValue.object(object).write(into: &out, options: .compactPreservingOrder)
        out.append(UInt8(ascii: "\n"))
    }

    /// One event line; the caller reserved ``maxEventLineBytes``.
    @inline(__always)
    private func writeEvent(
        _ event: Event, sequence: Int, kinds: UnsafeBufferPointer<KindNames.Entry>,
        into out: inout TraceByteBuffer
    ) {
        out.append(#"{"seq":"#)
        out.appendDecimal(UInt64(sequence))
        let kind = kinds[Int(event.kind.rawValue)]
        out.append(kind.start, count: kind.count)
        if event.time != 0 { out.append(#","t":"#); out.appendDecimal(event.time) }
        if event.thread != 0 { out.append(#","thread":"#); out.appendDecimal(UInt64(event.thread)) }
        if event.site != 0 { out.append(#","site":"#); out.appendDecimal(UInt64(event.site)) }
        if event.registry != 0 { out.append(#","registry":"#); out.appendDecimal(UInt64(event.registry)) }
        if event.channel != 0 { out.append(#","channel":"#); out.appendDecimal(UInt64(event.channel)) }
        if event.object != 0 { out.append(#","object":"#); out.appendDecimal(UInt64(event.object)) }
        if event.subject != 0 { out.append(#","subject":"#); out.appendDecimal(UInt64(event.subject)) }
        if event.registration != 0 {
            out.append(#","registration":"#)
            out.appendDecimal(UInt64(event.registration))
        }
        if event.cause != Event.none { out.append(#","cause":"#); out.appendDecimal(UInt64(event.cause)) }
        if event.flags.rawValue != 0 { out.append(#","flags":"#); out.appendDecimal(UInt64(event.flags.rawValue)) }
        out.append("}\n")
    }
}

/// `,"kind":"NAME"` for every event kind, in one immortal allocation so the
/// event loop copies it without retain/release.
enum KindNames {
    /// Unchecked: `start` points at bytes that are never written or freed.
    struct Entry: @unchecked Sendable {
        let start: UnsafePointer<UInt8>
        let count: Int
    }

    static let table: [Entry] = EventKind.allCases.map { kind in
        let text = Array(#","kind":""#.utf8) + Array(kind.traceName.utf8) + [UInt8(ascii: "\"")]
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: text.count)
        storage.initialize(from: text, count: text.count)
        return Entry(start: UnsafePointer(storage), count: text.count)
    }
}

/// A growable byte buffer written through a raw pointer. Appends do not
/// check capacity: call ``reserve(_:)`` first.
struct TraceByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress {
            UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    @inline(__always)
    mutating func append(_ start: UnsafePointer<UInt8>, count length: Int) {
        (base + count).initialize(from: start, count: length)
        count += length
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    @inline(__always)
    mutating func appendDecimal(_ value: UInt64) {
        var digits = 1
        var threshold: UInt64 = 10
        while value >= threshold, digits < 19 {
            digits += 1
            threshold &*= 10
        }
        if digits == 19, value >= threshold { digits = 20 }
        // Two digits per division, from the right.
        let pairs = Self.digitPairs.utf8Start
        var cursor = base + count + digits
        var rest = value
        while rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            cursor -= 2
            cursor[0] = pairs[pair]
            cursor[1] = pairs[pair &+ 1]
        }
        if cursor > base + count {
            cursor -= 1
            cursor[0] = UInt8(truncatingIfNeeded: rest) &+ UInt8(ascii: "0")
        }
        count += digits
    }

    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    func withBytes(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    mutating func removeAll() { count = 0 }
}
