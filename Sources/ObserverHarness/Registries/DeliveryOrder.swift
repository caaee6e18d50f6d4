/// Which receiver of one post is notified first.
///
/// Every instrumented registry delivers in registration order unless given
/// another policy. Replay uses custom policies to explore orders; tests can
/// use ``reversed`` or ``shuffled(seed:)`` to shake out order dependence.
///
/// ```swift
/// let center = harness.notificationCenter(order: .reversed)
/// ```
public struct DeliveryOrder: Sendable {
    /// Returns the order to notify `context.receiverCount` receivers in, as a
    /// permutation of `0..<receiverCount` (registration order indices).
    let arrange: @Sendable (DeliveryContext) -> [Int]
    /// Fast path: registration order needs no permutation.
    let isRegistrationOrder: Bool

    /// First registered, first notified.
    public static let registration = DeliveryOrder(isRegistrationOrder: true) { Array(0..<$0.receiverCount) }

    /// Last registered, first notified.
    public static let reversed = DeliveryOrder(isRegistrationOrder: false) { Array((0..<$0.receiverCount).reversed()) }

    /// A seeded pseudo-random order per post: the same seed gives the same orders.
    public static func shuffled(seed: UInt64) -> DeliveryOrder {
        DeliveryOrder(isRegistrationOrder: false) { context in
            var generator = SplitMix64(seed: seed ^ (UInt64(context.postOrdinal) &* 0x9E37_79B9_7F4A_7C15))
            var order = Array(0..<context.receiverCount)
            generator.shuffle(&order)
            return order
        }
    }

    /// This permutation of registration indices for every post; receivers it
    /// does not name follow in registration order.
    public static func permutation(_ order: [Int]) -> DeliveryOrder {
        DeliveryOrder(isRegistrationOrder: false) { context in
            var seen = Set<Int>()
            var result = order.filter { $0 >= 0 && $0 < context.receiverCount && seen.insert($0).inserted }
            result += (0..<context.receiverCount).filter { !seen.contains($0) }
            return result
        }
    }

    /// Any policy: return a permutation of `0..<context.receiverCount`.
    /// Entries that are out of range or repeated are ignored, and receivers
    /// left out are appended in registration order.
    public static func custom(_ arrange: @escaping @Sendable (DeliveryContext) -> [Int]) -> DeliveryOrder {
        DeliveryOrder(isRegistrationOrder: false, arrange)
    }

    init(isRegistrationOrder: Bool, _ arrange: @escaping @Sendable (DeliveryContext) -> [Int]) {
        self.isRegistrationOrder = isRegistrationOrder
        self.arrange = arrange
    }

    /// A valid permutation, whatever `arrange` returned.
    func permutation(for context: DeliveryContext) -> [Int] {
        let proposed = arrange(context)
        let count = context.receiverCount
        if proposed.count == count, Set(proposed).count == count, proposed.allSatisfy({ $0 >= 0 && $0 < count }) {
            return proposed
        }
        var seen = Set<Int>()
        var result = proposed.filter { $0 >= 0 && $0 < count && seen.insert($0).inserted }
        result += (0..<count).filter { !seen.contains($0) }
        return result
    }
}

/// What an order policy knows about the post it orders.
public struct DeliveryContext: Sendable {
    /// The registry's name.
    public var registry: String
    /// The notification name, subject channel, property or delegate method.
    public var channel: String
    /// How many registrations receive this post.
    public var receiverCount: Int
    /// Counts this registry's posts with two or more receivers, from 0.
    public var postOrdinal: Int
    /// The post's sequence number and its receivers' registration ids in
    /// registration order (for replay's exploration).
    var postSequence: UInt32 = 0
    var registrationIDs: [UInt32] = []
    /// Where the post is recorded (for the live order check's footprints).
    var recorder: Recorder?

    package init(registry: String, channel: String, receiverCount: Int, postOrdinal: Int) {
        self.registry = registry
        self.channel = channel
        self.receiverCount = receiverCount
        self.postOrdinal = postOrdinal
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64):
/// the same seed gives the same sequence on every platform.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Fisher–Yates with our own bounded draw, so a seed gives the same order
    /// whatever the standard library's shuffle does.
    mutating func shuffle<T>(_ elements: inout [T]) {
        guard elements.count > 1 else { return }
        for i in stride(from: elements.count - 1, to: 0, by: -1) {
            let j = Int(next() % UInt64(i + 1))
            elements.swapAt(i, j)
        }
    }
}
