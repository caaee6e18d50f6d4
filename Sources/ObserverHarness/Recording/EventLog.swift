/// Append-only event storage in fixed-size chunks.
///
/// Chunks never move once allocated, so a snapshot can read every event below
/// the count it captured without taking the recorder's lock.
final class EventStorage: @unchecked Sendable {
    static let chunkShift = 16
    static let chunkSize = 1 << chunkShift
    static let chunkMask = chunkSize - 1

    // Mutated only under the owning recorder's lock; read through snapshots.
    // The lock already orders every access, so no runtime exclusivity checks.
    @exclusivity(unchecked) private(set) var chunks: [UnsafeMutablePointer<Event>] = []
    @exclusivity(unchecked) private(set) var count = 0

    deinit {
        for chunk in chunks { ChunkPool.shared.give(chunk) }
    }

    /// Appends and returns the new event's index. Caller holds the lock.
    @inline(__always)
    func append(_ event: Event) -> Int {
        let index = count
        if index & Self.chunkMask == 0 {
            chunks.append(ChunkPool.shared.take())
        }
        (chunks[index >> Self.chunkShift] + (index & Self.chunkMask)).initialize(to: event)
        count = index + 1
        return index
    }

    /// The event at `index` (below ``count``). Caller holds the lock.
    subscript(index: Int) -> Event {
        chunks[index >> Self.chunkShift][index & Self.chunkMask]
    }

}

/// Freed event chunks, kept for the next harness. The allocator hands a
/// freed 2.6 MB chunk back to the system, so a new harness's chunk would be
/// fresh pages, and the first write to each costs a page fault (~1.5 µs a
/// page here, ~16 ns an event): a test suite makes a harness per test.
final class ChunkPool: @unchecked Sendable {
    static let shared = ChunkPool()
    /// At most this many chunks (about 21 MB) wait for reuse.
    static let capacity = 8

    private let lock = Lock()
    // Guarded by `lock`.
    private var chunks: [UnsafeMutablePointer<Event>] = []

    func take() -> UnsafeMutablePointer<Event> {
        lock.lock()
        let chunk = chunks.popLast()
        lock.unlock()
        return chunk ?? .allocate(capacity: EventStorage.chunkSize)
    }

    func give(_ chunk: UnsafeMutablePointer<Event>) {
        lock.lock()
        let kept = chunks.count < Self.capacity
        if kept { chunks.append(chunk) }
        lock.unlock()
        if !kept { chunk.deallocate() }
    }
}

/// A read-only view of the first `count` events of a storage.
///
/// Unchecked: it reads chunk memory without the lock, which is sound because
/// events below `count` are never written again and `storage` is kept alive.
struct EventLog: RandomAccessCollection, @unchecked Sendable {
    /// Where the events are: one reference, as a debug build (what `swift
    /// test` makes) copies the whole log, retaining each reference in it, on
    /// every read of an event.
    private let source: Source
    /// The first chunk, and how many events it holds here: a test's whole
    /// recording, read through a plain pointer.
    private let firstChunk: UnsafeMutablePointer<Event>?
    private let firstChunkCount: Int
    let count: Int

    private final class Source {
        let storage: EventStorage?
        let chunks: [UnsafeMutablePointer<Event>]
        let loaded: [Event]

        init(storage: EventStorage?, chunks: [UnsafeMutablePointer<Event>], loaded: [Event]) {
            self.storage = storage
            self.chunks = chunks
            self.loaded = loaded
        }
    }

    init(storage: EventStorage, count: Int) {
        source = Source(storage: storage, chunks: storage.chunks, loaded: [])
        self.count = count
        firstChunk = storage.chunks.first
        firstChunkCount = Swift.min(count, EventStorage.chunkSize)
    }

    /// Events that did not come from a live recorder (a trace file, a test).
    init(_ events: [Event]) {
        source = Source(storage: nil, chunks: [], loaded: events)
        self.count = events.count
        firstChunk = nil
        firstChunkCount = 0
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    func index(after i: Int) -> Int { i + 1 }
    func index(before i: Int) -> Int { i - 1 }

    @inline(__always)
    subscript(index: Int) -> Event {
        precondition(index >= 0 && index < count, "event index out of range")
        if index < firstChunkCount, let firstChunk { return firstChunk[index] }
        if source.storage == nil { return source.loaded[index] }
        return source.chunks[index >> EventStorage.chunkShift][index & EventStorage.chunkMask]
    }
}
