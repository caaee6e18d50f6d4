import Foundation
import Testing

@testable import ObserverHarness

@Suite struct DeliveryOrderTests {
    typealias Screen = RegistryFixtures.Screen

    /// The order in which a list with this policy notifies `count` observers, once per post.
    private func notifiedOrder(_ order: DeliveryOrder, count: Int, posts: Int = 1) -> [[String]] {
        let harness = Harness()
        let list = harness.observerList(of: Screen.self, order: order)
        let screens = (0..<count).map { Screen("\($0)") }
        for screen in screens { list.add(screen) }
        return (0..<posts).map { _ in
            var seen: [String] = []
            list.notify { seen.append($0.name) }
            return seen
        }
    }

    private func context(_ count: Int, ordinal: Int = 0) -> DeliveryContext {
        DeliveryContext(registry: "r", channel: "c", receiverCount: count, postOrdinal: ordinal)
    }

    @Test func registrationOrderIsTheDefault() {
        #expect(notifiedOrder(.registration, count: 4) == [["0", "1", "2", "3"]])
    }

    @Test func reversedNotifiesTheLastRegisteredFirst() {
        #expect(notifiedOrder(.reversed, count: 4) == [["3", "2", "1", "0"]])
    }

    @Test func permutationAppliesTheGivenOrderAndAppendsTheRestInRegistrationOrder() {
        #expect(notifiedOrder(.permutation([2, 0]), count: 4) == [["2", "0", "1", "3"]])
        // Out-of-range and repeated entries are ignored.
        #expect(notifiedOrder(.permutation([9, 1, 1, -1]), count: 3) == [["1", "0", "2"]])
    }

    @Test func shuffledIsDeterministicForASeed() {
        let first = notifiedOrder(.shuffled(seed: 42), count: 8, posts: 5)
        let second = notifiedOrder(.shuffled(seed: 42), count: 8, posts: 5)
        #expect(first == second)
        for order in first { #expect(order.sorted() == (0..<8).map(String.init).sorted()) }
        #expect(Set(first).count > 1, "each post gets its own order")
    }

    @Test func shuffledDiffersForDifferentSeeds() {
        let orders = (0..<8).map { seed in
            (0..<3).map { DeliveryOrder.shuffled(seed: UInt64(seed)).permutation(for: context(10, ordinal: $0)) }
        }
        #expect(Set(orders.map { $0.description }).count == orders.count)
    }

    @Test func shuffledOrderIsPinnedAcrossPlatforms() {
        // SplitMix64 with our own bounded draw: a seed's order never changes.
        let order = DeliveryOrder.shuffled(seed: 1).permutation(for: context(6))
        #expect(order.sorted() == Array(0..<6))
        #expect(order == DeliveryOrder.shuffled(seed: 1).permutation(for: context(6)))
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    }

    @Test func customOrderIsRepairedIntoAPermutation() {
        let broken = DeliveryOrder.custom { _ in [3, 3, 7, -2, 1] }
        #expect(broken.permutation(for: context(4)) == [3, 1, 0, 2])
        let reversed = DeliveryOrder.custom { Array((0..<$0.receiverCount).reversed()) }
        #expect(reversed.permutation(for: context(3)) == [2, 1, 0])
    }

    @Test func singleReceiverPostsDoNotConsultThePolicy() {
        let counter = RegistryFixtures.Log()
        let order = DeliveryOrder.custom { context in
            counter.append("\(context.receiverCount)")
            return Array(0..<context.receiverCount)
        }
        _ = notifiedOrder(order, count: 1, posts: 2)
        _ = notifiedOrder(order, count: 2, posts: 1)
        #expect(counter.entries == ["2"])
    }
}
