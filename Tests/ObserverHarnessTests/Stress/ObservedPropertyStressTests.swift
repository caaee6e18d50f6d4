import Foundation
import Testing

@testable import ObserverHarness

/// 8 threads × 100 000 operations on one ``ObservedProperty`` that all of
/// them set and observe: every set reaches every thread's observers, on the
/// setting thread, while observers (some held `unowned`, as KVO does) die on
/// the graveyard thread.
@Suite(.tags(.stress)) struct ObservedPropertyStressTests {
    final class Owner {}

    final class Watcher {
        weak var property: ObservedProperty<Int>?
        /// Counts down when this watcher is gone.
        let dying: Stress.Counters?
        init(property: ObservedProperty<Int>?, dying: Stress.Counters? = nil) {
            self.property = property
            self.dying = dying
        }
        deinit {
            property?.removeObserver(self)
            dying?.add("pending", -1)
        }
    }

    /// What one thread did; touched only by that thread.
    final class Tally: @unchecked Sendable {
        var watchers = 0, adds = 0, removes = 0, sets = 0, innerRuns = 0, buried = 0
        var live: [Watcher] = []
        var keep: [AnyObject] = []
        /// Watchers buried that have not died yet (at most two registered ones).
        let dying = Stress.Counters()
    }

    @Test func eightThreadsRecordEverySetAndDeliveryExactlyOnce() throws {
        let harness = Harness(name: "stress-property")
        let owner = Owner()
        let property = harness.observedProperty("value", of: owner, initialValue: 0)
        let graveyard = Stress.Graveyard()
        // Handlers run on whichever thread sets, so their count is shared.
        let runs = Stress.Counters()
        let tallies = (0..<Stress.threadCount).map { _ in Tally() }
        Stress.onThreads { index in
            let tally = tallies[index]
            // A property of this thread's own, for handlers to set re-entrantly.
            let innerOwner = Owner()
            let inner = harness.observedProperty("inner", of: innerOwner, initialValue: 0)
            let innerWatcher = Watcher(property: nil)
            inner.addObserver(innerWatcher) { _, _ in tally.innerRuns += 1 }
            tally.keep += [innerOwner, inner, innerWatcher]
            tally.watchers += 2
            tally.adds += 1
            var handled = 0
            var generator = SplitMix64(seed: 0x9409 + UInt64(index))
            for _ in 0..<Stress.operationsPerThread {
                switch generator.next() % 8 {
                case 0 where tally.live.isEmpty:
                    let watcher = Watcher(property: property, dying: tally.dying)
                    property.addObserver(watcher, hold: tally.watchers % 2 == 0 ? .weak : .unowned) { _, change in
                        runs.add("runs")
                        // Re-entrant work on the setting thread, which this
                        // thread's own watchers only see when it set.
                        guard change.newValue == index else { return }
                        handled += 1
                        if handled % 4 == 0 {
                            inner.set(handled)
                            tally.sets += 1
                        }
                        if handled % 8 == 0 {
                            let temporary = Watcher(property: nil)
                            // Other threads' sets may reach it before it goes.
                            property.addObserver(temporary) { _, _ in runs.add("runs") }
                            property.removeObserver(temporary)
                            tally.watchers += 1
                            tally.adds += 1
                            tally.removes += 1
                        }
                    }
                    tally.live.append(watcher)
                    tally.watchers += 1
                    tally.adds += 1
                case 1 where !tally.live.isEmpty:
                    let watcher = tally.live.remove(at: Int(generator.next() % UInt64(tally.live.count)))
                    property.removeObserver(watcher)
                    tally.removes += 1
                    tally.dying.add("pending")
                    graveyard.bury(watcher)
                    tally.buried += 1
                case 2 where !tally.live.isEmpty && tally.dying["pending"] < 2:
                    // Dies elsewhere while still registered, racing every thread's sets.
                    tally.dying.add("pending")
                    graveyard.bury(tally.live.remove(at: Int(generator.next() % UInt64(tally.live.count))))
                    tally.buried += 1
                case 3:
                    // Every set reaches every thread's watchers: fewer sets than reads.
                    property.set(index)
                    tally.sets += 1
                default:
                    _ = property.value
                }
            }
        }
        graveyard.close()
        let recording = harness.recording()
        let counts = Stress.counts(recording)
        let total = { (key: KeyPath<Tally, Int>) in tallies.reduce(0) { $0 + $1[keyPath: key] } }

        // The owner and each thread's inner owner are tracked too.
        #expect(counts[.track, default: 0] == 1 + total(\.watchers))
        #expect(counts[.add, default: 0] == total(\.adds))
        #expect(counts[.remove, default: 0] == total(\.removes) + total(\.buried))
        #expect(counts[.propertySet, default: 0] == total(\.sets))
        #expect(counts[.deliver, default: 0] == runs["runs"] + total(\.innerRuns))
        #expect(
            Set(counts.keys).isSubset(of: [
                .track, .add, .remove, .propertySet, .deliver, .deliverSkipped,
                .deliverToDead, .dealloc,
            ]))
        Stress.expectEachDeallocationOnce(recording)
        Stress.expectDeliveriesFollowTheirPosts(recording)
        // Until here, everything the threads made stays alive; then the
        // handlers' references to their tallies must not keep it alive longer.
        tallies.forEach {
            $0.keep.removeAll(); $0.live.removeAll()
        }
        withExtendedLifetime(owner) {}
    }
}
