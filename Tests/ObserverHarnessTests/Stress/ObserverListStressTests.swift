import Foundation
import Testing

@testable import ObserverHarness

/// 8 threads × 100 000 operations on one weak ``ObserverList``. Each thread
/// notifies its own channel, so the deliveries each notify must make are
/// known; nodes remove themselves in `deinit` on the graveyard thread while
/// notifications are delivering to them.
@Suite(.tags(.stress)) struct ObserverListStressTests {
    final class Node {
        weak var list: ObserverList<Node>?
        /// Counts down when this node is gone.
        let dying: Stress.Counters?
        init(list: ObserverList<Node>?, dying: Stress.Counters? = nil) {
            self.list = list
            self.dying = dying
        }
        deinit {
            list?.remove(self)
            dying?.add("pending", -1)
        }
    }

    /// What one thread did; touched only by that thread.
    final class Tally: @unchecked Sendable {
        var nodes = 0, adds = 0, removes = 0, posts = 0, runs = 0, buried = 0
        var live: [Node] = []
        var keep: [Node] = []
        /// Nodes buried that have not died yet (at most two registered ones).
        let dying = Stress.Counters()
    }

    @Test func eightThreadsRecordEveryAddRemoveNotifyAndDeliveryExactlyOnce() throws {
        let harness = Harness(name: "stress-list")
        let list = harness.observerList(of: Node.self, hold: .weak)
        let graveyard = Stress.Graveyard()
        let tallies = (0..<Stress.threadCount).map { _ in Tally() }
        Stress.onThreads { index in
            let tally = tallies[index]
            let channel = "L\(index)", inner = "L\(index).inner", side = "L\(index).side"
            let innerNode = Node(list: nil)
            list.add(innerNode, channel: inner)
            // Never added: removing it matches nothing.
            let stranger = Node(list: nil)
            // Tracked first: a removal by address alone would name whatever
            // dead node last had this address.
            harness.track(stranger)
            list.remove(stranger, channel: channel)
            tally.keep += [innerNode, stranger]
            tally.nodes += 2
            tally.adds += 1
            tally.removes += 1
            // Handlers post, add and remove re-entrantly, every so many deliveries.
            func handle(_ node: Node) {
                tally.runs += 1
                if tally.runs % 4 == 0 {
                    list.notify(channel: inner) { _ in tally.runs += 1 }
                    tally.posts += 1
                }
                if tally.runs % 8 == 0 {
                    let temporary = Node(list: nil)
                    list.add(temporary, channel: side)
                    list.remove(temporary, channel: side)
                    tally.nodes += 1
                    tally.adds += 1
                    tally.removes += 1
                }
                if tally.runs % 16 == 0 {
                    list.remove(node, channel: channel)
                    list.add(node, channel: channel)
                    tally.removes += 1
                    tally.adds += 1
                }
            }
            var generator = SplitMix64(seed: 0x11575 + UInt64(index))
            for _ in 0..<Stress.operationsPerThread {
                // Notifications are 3 in 8 operations; one that cannot apply
                // removes the stranger instead.
                switch generator.next() % 8 {
                case 0 where tally.live.isEmpty:
                    let node = Node(list: list, dying: tally.dying)
                    list.add(node, channel: channel)
                    tally.live.append(node)
                    tally.nodes += 1
                    tally.adds += 1
                case 1 where !tally.live.isEmpty:
                    let node = tally.live.remove(at: Int(generator.next() % UInt64(tally.live.count)))
                    list.remove(node, channel: channel)
                    tally.removes += 1
                    tally.dying.add("pending")
                    graveyard.bury(node)
                    tally.buried += 1
                case 2 where !tally.live.isEmpty && tally.dying["pending"] < 2:
                    // Dies elsewhere while still registered, racing this thread's notifications.
                    tally.dying.add("pending")
                    graveyard.bury(tally.live.remove(at: Int(generator.next() % UInt64(tally.live.count))))
                    tally.buried += 1
                case 5, 6, 7:
                    list.notify(channel: channel, handle)
                    tally.posts += 1
                default:
                    list.remove(stranger, channel: channel)
                    tally.removes += 1
                }
            }
        }
        graveyard.close()
        let recording = harness.recording()
        let counts = Stress.counts(recording)
        let total = { (key: KeyPath<Tally, Int>) in tallies.reduce(0) { $0 + $1[keyPath: key] } }

        #expect(counts[.track, default: 0] == total(\.nodes))
        #expect(counts[.add, default: 0] == total(\.adds))
        #expect(counts[.remove, default: 0] == total(\.removes) + total(\.buried))
        #expect(counts[.post, default: 0] == total(\.posts))
        #expect(counts[.deliver, default: 0] == total(\.runs))
        #expect(counts[.deliverToDead, default: 0] == 0)
        #expect(Set(counts.keys).isSubset(of: [.track, .add, .remove, .post, .deliver, .deliverSkipped, .dealloc]))
        Stress.expectEachDeallocationOnce(recording)
        Stress.expectDeliveriesFollowTheirPosts(recording)
        // Until here, everything the threads made stays alive; then the
        // handlers' references to their tallies must not keep it alive longer.
        tallies.forEach {
            $0.keep.removeAll(); $0.live.removeAll()
        }
    }

    /// A de-duplicating list shared by 8 threads that subscribe the same
    /// observers over and over (the store shape), while each thread also
    /// removes and re-adds its own share: whatever the interleaving, each
    /// observer has at most one registration, and an ignored add names it.
    @Test func eightThreadsResubscribingSharedObserversKeepOneRegistrationEach() {
        let harness = Harness(name: "stress-dedupe")
        let list = harness.observerList(of: Node.self, hold: .weak, dedupe: true)
        let shared = Tally()
        shared.keep = (0..<64).map { _ in Node(list: nil) }
        let nodes = shared.keep
        let tallies = (0..<Stress.threadCount).map { _ in Tally() }
        Stress.onThreads { index in
            let tally = tallies[index]
            let nodes = shared.keep
            var generator = SplitMix64(seed: 0xDEDE + UInt64(index))
            for _ in 0..<Stress.operationsPerThread / 4 {
                let value = generator.next()
                let node = nodes[Int(value % UInt64(nodes.count))]
                if value % 16 == 0, Int(value % UInt64(nodes.count)) % Stress.threadCount == index {
                    // Only this thread removes this node: its re-add must register it again.
                    list.remove(node)
                    list.add(node)
                    tally.removes += 1
                    tally.adds += 1
                } else {
                    list.add(node)
                    tally.adds += 1
                }
            }
        }
        var called: [ObjectIdentifier: Int] = [:]
        list.notify { called[ObjectIdentifier($0), default: 0] += 1 }
        #expect(called.count == nodes.count)
        #expect(called.values.allSatisfy { $0 == 1 }, "one registration per observer")
        #expect(list.count == nodes.count)
        let recording = harness.recording()
        let adds = recording.recordedEvents(.add).map(\.event)
        let removals = recording.recordedEvents(.remove).map(\.event)
        #expect(adds.count == tallies.reduce(0) { $0 + $1.adds })
        let registered = adds.filter { !$0.flags.contains(.ignoredDuplicate) }
        let ended = removals.filter { $0.registration != 0 }
        #expect(registered.count == nodes.count + ended.count, "a registration is made only when none is active")
        // An ignored add names a registration made for the same observer.
        let observerOfRegistration = Dictionary(uniqueKeysWithValues: registered.map { ($0.registration, $0.object) })
        #expect(
            adds.allSatisfy {
                !$0.flags.contains(.ignoredDuplicate) || observerOfRegistration[$0.registration] == $0.object
            })
        withExtendedLifetime(nodes) {}
    }

    /// The plain list, no harness: half the threads notify while the others
    /// add and remove. Every notify calls the observer kept throughout, and
    /// the ThreadSanitizer run (`.ci/sanitizers thread`) finds no race
    /// between a notify's reads and a removal's in-place write.
    @Test func thePlainListNotifiesWhileOtherThreadsAddAndRemove() {
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func add() { lock.withLock { value += 1 } }
            var count: Int { lock.withLock { value } }
        }
        let list = ObserverList<Node>(hold: .strong)
        let kept = Node(list: nil)
        list.add(kept)
        let keptID = ObjectIdentifier(kept)
        let calls = Counter()
        let rounds = max(100, Stress.operationsPerThread / 50)
        Stress.onThreads { index in
            for _ in 0..<rounds {
                if index % 2 == 0 {
                    list.notify { node in if ObjectIdentifier(node) == keptID { calls.add() } }
                    _ = list.count
                } else {
                    let node = Node(list: nil)
                    list.add(node)
                    list.remove(node)
                }
            }
        }
        #expect(calls.count == rounds * Stress.threadCount / 2)
        #expect(list.count == 1)
        withExtendedLifetime(kept) {}
    }
}
