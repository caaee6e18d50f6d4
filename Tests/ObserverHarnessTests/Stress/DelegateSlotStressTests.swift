import Foundation
import Testing

@testable import ObserverHarness

/// 8 threads × 100 000 operations on one weak ``DelegateSlot``: they replace
/// the delegate, clear it and call it at once, delegates die on the graveyard
/// thread while they are called, and calls re-enter slots.
@Suite(.tags(.stress)) struct DelegateSlotStressTests {
    protocol ScrollDelegate: AnyObject { func didScroll() -> Int }

    final class Album: ScrollDelegate {
        func didScroll() -> Int { 1 }
    }

    final class Scroller {}

    /// What one thread did; touched only by that thread.
    final class Tally: @unchecked Sendable {
        var delegates = 0, sets = 0, calls = 0, innerRuns = 0, buried = 0
        var keep: [AnyObject] = []
    }

    @Test func eightThreadsRecordEverySetCallAndDeliveryExactlyOnce() throws {
        let harness = Harness(name: "stress-delegate")
        let scroller = Scroller()
        let slot = harness.delegateSlot(of: scroller, as: (any ScrollDelegate).self)
        let graveyard = Stress.Graveyard()
        let runs = Stress.Counters()
        let tallies = (0..<Stress.threadCount).map { _ in Tally() }
        Stress.onThreads { index in
            let tally = tallies[index]
            // A slot of this thread's own, for calls to re-enter.
            let innerOwner = Scroller(), innerDelegate = Album()
            let inner = harness.delegateSlot(of: innerOwner, as: (any ScrollDelegate).self, name: "inner")
            inner.set(innerDelegate)
            tally.keep += [innerOwner, innerDelegate, inner]
            tally.delegates += 2
            tally.sets += 1
            var generator = SplitMix64(seed: 0xDE1E + UInt64(index))
            for _ in 0..<Stress.operationsPerThread {
                switch generator.next() % 8 {
                case 0:
                    // The slot holds it weakly: it dies elsewhere, maybe while being called.
                    let album = Album()
                    slot.set(album)
                    graveyard.bury(album)
                    tally.delegates += 1
                    tally.sets += 1
                    tally.buried += 1
                case 1:
                    slot.set(nil)
                    tally.sets += 1
                default:
                    let result = slot.call { delegate -> Int in
                        runs.add("runs")
                        if runs["runs"] % 3 == 0 {
                            // Re-entrant: a call on another slot, then a change to this one.
                            tally.innerRuns += inner.call { $0.didScroll() } ?? 0
                            tally.calls += 1
                        }
                        return delegate.didScroll()
                    }
                    _ = result
                    tally.calls += 1
                }
            }
        }
        graveyard.close()
        let recording = harness.recording()
        let counts = Stress.counts(recording)
        let total = { (key: KeyPath<Tally, Int>) in tallies.reduce(0) { $0 + $1[keyPath: key] } }

        // The owner, and per thread its inner owner and delegate, are tracked too.
        #expect(counts[.track, default: 0] == 1 + total(\.delegates))
        #expect(counts[.delegateSet, default: 0] == total(\.sets))
        #expect(counts[.delegateCall, default: 0] == total(\.calls))
        #expect(counts[.deliver, default: 0] == runs["runs"] + total(\.innerRuns))
        #expect(counts[.deliver, default: 0] + counts[.deliverSkipped, default: 0] <= total(\.calls))
        #expect(
            Set(counts.keys).isSubset(of: [
                .track, .delegateSet, .delegateCall, .deliver, .deliverSkipped,
                .dealloc,
            ]))
        Stress.expectEachDeallocationOnce(recording)
        Stress.expectDeliveriesFollowTheirPosts(recording)
        // Until here, everything the threads made stays alive.
        tallies.forEach { $0.keep.removeAll() }
        withExtendedLifetime(scroller) {}
    }
}
