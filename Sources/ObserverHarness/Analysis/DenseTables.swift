// Flat tables for the analysis: ids in a recording are small integers
// (registrations 1, 2, 3, …; registries, strings and threads few), so arrays
// indexed by id replace hash tables on the paths that run per event. Both
// types fall back to a dictionary for ids a hand-written trace may make huge.

/// Maps ids to array positions: nothing at all while id `n` sits at
/// position `n - 1` (a live recorder numbers registrations 1, 2, 3, … and
/// records them in that order), a flat table while ids are dense, a
/// dictionary for ids far beyond the count (a hand-written trace), so a huge
/// id costs no memory.
struct DenseIndex {
    /// Ids 1…`inOrder` are at positions 0..<`inOrder`, and no other id is known.
    private var inOrder = 0
    private var flat: [Int32] = []
    private var sparse = [UInt32: Int32]()
    private var count = 0

    subscript(id: UInt32) -> Int? {
        let index = Int(id)
        if inOrder > 0 { return index >= 1 && index <= inOrder ? index - 1 : nil }
        if index < flat.count, flat[index] >= 0 { return Int(flat[index]) }
        return sparse.isEmpty ? nil : sparse[id].map(Int.init)
    }

    /// Room in the flat table for ids up to `count`: one allocation where a
    /// live recorder's ids (1, 2, 3, …) would grow it id by id.
    mutating func reserve(ids count: Int) {
        if flat.isEmpty { flat = [Int32](repeating: -1, count: count + 1) }
    }

    /// Records the position of an id not seen before.
    mutating func insert(_ position: Int, for id: UInt32) {
        let index = Int(id)
        if index == inOrder + 1, position == inOrder, count == inOrder {
            inOrder += 1
            count += 1
            return
        }
        if inOrder > 0 {
            // Out of order: the ids so far go into the table.
            flat = [-1] + (0..<Int32(inOrder))
            inOrder = 0
        }
        if index >= flat.count && index < 2 * count + 1024 {
            // An array, not `repeatElement`: a debug build (what `swift test`
            // makes) copies a `Repeated` element by element through generic code.
            flat += [Int32](repeating: -1, count: index + 1 - flat.count)
        }
        if index < flat.count { flat[index] = Int32(position) } else { sparse[id] = Int32(position) }
        count += 1
    }
}

/// Numbers pairs of small ids (a registry and a string, a registry and a
/// thread) 0, 1, 2, … in first-seen order, so per-pair state can live in
/// arrays. A flat table while `firstCount × secondCount` is small, as it is
/// for any real recording; a dictionary for pairs outside it.
struct PairNumbering {
    private static let flatLimit = 1 << 22
    private let secondCount: Int
    private var flat: [Int32]
    private var sparse = [UInt64: Int32]()
    private(set) var count = 0

    init(firstCount: Int, secondCount: Int) {
        self.secondCount = secondCount
        let cells = firstCount.multipliedReportingOverflow(by: secondCount)
        flat =
            !cells.overflow && cells.partialValue <= Self.flatLimit
            ? Array(repeating: -1, count: cells.partialValue) : []
    }

    /// The number of a pair ``number(_:_:)`` has numbered.
    func existingNumber(_ first: UInt32, _ second: UInt32) -> Int {
        let cell = Int(first) &* secondCount &+ Int(second)
        if Int(second) < secondCount, cell >= 0, cell < flat.count { return Int(flat[cell]) }
        return Int(sparse[UInt64(first) << 32 | UInt64(second)]!)
    }

    /// The pair's number, the next one if the pair is new.
    mutating func number(_ first: UInt32, _ second: UInt32) -> Int {
        let cell = Int(first) &* secondCount &+ Int(second)
        if Int(second) < secondCount, cell >= 0, cell < flat.count {
            if flat[cell] < 0 {
                flat[cell] = Int32(count)
                count += 1
            }
            return Int(flat[cell])
        }
        let key = UInt64(first) << 32 | UInt64(second)
        if let existing = sparse[key] { return Int(existing) }
        sparse[key] = Int32(count)
        count += 1
        return count - 1
    }
}

/// A post's deliveries, in order: the first three inline, any more in an
/// array. Most posts reach one to three receivers, so indexing allocates
/// nothing per post and copying a ``TraceIndex/PostRecord`` touches no heap
/// memory (an array per post made every rule that walks posts miss the cache).
struct DeliveryList: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    private var inline: (UInt32, UInt32, UInt32) = (0, 0, 0)
    private var storedCount: UInt32 = 0
    /// In 32 bits, as sequences are: a post that reaches a thousand receivers
    /// keeps 4 bytes a delivery, not 8.
    private var overflow: [UInt32]?

    var count: Int { Int(storedCount) }

    init() {}

    init(arrayLiteral elements: Int...) {
        for element in elements { append(element) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    func index(after i: Int) -> Int { i + 1 }
    func index(before i: Int) -> Int { i - 1 }
    func makeIterator() -> Iterator { Iterator(list: self) }

    /// See ``TraceIndex/RegistrationsInOrder/Iterator``.
    struct Iterator: IteratorProtocol {
        let list: DeliveryList
        var position = 0

        mutating func next() -> Int? {
            guard position < list.count else { return nil }
            position += 1
            return list[position - 1]
        }
    }

    subscript(position: Int) -> Int {
        precondition(position >= 0 && position < count, "delivery index out of range")
        switch position {
        case 0: return Int(inline.0)
        case 1: return Int(inline.1)
        case 2: return Int(inline.2)
        default: return Int(overflow![position - 3])
        }
    }

    /// Appends an event sequence number (sequences fit in 32 bits, as in events).
    mutating func append(_ sequence: Int) {
        switch count {
        case 0: inline.0 = UInt32(sequence)
        case 1: inline.1 = UInt32(sequence)
        case 2: inline.2 = UInt32(sequence)
        default:
            if overflow == nil { overflow = [] }
            overflow!.append(UInt32(sequence))
        }
        storedCount += 1
    }
}

/// Event sequence numbers in 32 bits each (sequences fit, as in events),
/// read as `Int`: half the memory of `[Int]` for the index's longest lists.
struct SequenceList: RandomAccessCollection, Sendable {
    private var stored: [UInt32] = []

    var startIndex: Int { 0 }
    var endIndex: Int { stored.count }
    func index(after i: Int) -> Int { i + 1 }
    func index(before i: Int) -> Int { i - 1 }
    subscript(position: Int) -> Int { Int(stored[position]) }
    func makeIterator() -> Iterator { Iterator(list: self) }

    /// See ``TraceIndex/RegistrationsInOrder/Iterator``.
    struct Iterator: IteratorProtocol {
        let list: SequenceList
        var position = 0

        mutating func next() -> Int? {
            guard position < list.endIndex else { return nil }
            position += 1
            return list[position - 1]
        }
    }

    init() {}

    init(_ sequences: some Sequence<Int>) {
        stored = sequences.map { UInt32($0) }
    }

    mutating func append(_ sequence: Int) { stored.append(UInt32(sequence)) }
    mutating func reserveCapacity(_ capacity: Int) { stored.reserveCapacity(capacity) }
}
