import Foundation
import Testing

@testable import ObserverHarness

/// 8 threads × 100 000 operations on one ``InstrumentedNotificationCenter``.
/// Each thread posts on its own name, so the deliveries each post must make
/// are known; its observers remove themselves in `deinit`, which runs on the
/// graveyard thread while posts are delivering to them.
@Suite(.tags(.stress)) struct NotificationCenterStressTests {
    /// Removes itself in `deinit`, as Foundation code does.
    final class Listener {
        let center: InstrumentedNotificationCenter
        let name: Notification.Name
        /// Counts down when this listener is gone.
        let dying: Stress.Counters?
        init(center: InstrumentedNotificationCenter, name: Notification.Name, dying: Stress.Counters? = nil) {
            self.center = center
            self.name = name
            self.dying = dying
        }
        deinit {
            center.removeObserver(self, name: name, object: nil)
            dying?.add("pending", -1)
        }
    }

    /// What one thread did; touched only by that thread (handlers run on the posting thread).
    final class Tally: @unchecked Sendable {
        var tracked = 0, adds = 0, removes = 0, posts = 0, runs = 0, buried = 0
        var live: [Listener] = []
        /// Listeners buried while registered that have not died yet: at
        /// most two, or a lagging graveyard would make every post deliver
        /// to dozens of them.
        let dying = Stress.Counters()
        var tokens: [any NSObjectProtocol] = []
        var keep: [AnyObject] = []
    }

    @Test func eightThreadsRecordEveryAddRemovePostAndDeliveryExactlyOnce() throws {
        let harness = Harness(name: "stress-center")
        let center = harness.notificationCenter()
        let graveyard = Stress.Graveyard()
        let tallies = (0..<Stress.threadCount).map { _ in Tally() }
        Stress.onThreads { index in
            let tally = tallies[index]
            let name = Notification.Name("S\(index)"), inner = Notification.Name("S\(index).inner")
            let side = Notification.Name("S\(index).side")
            // A block observer of the inner name, for handlers to post to.
            tally.keep.append(center.addObserver(forName: inner, object: nil, queue: nil) { _ in tally.runs += 1 })
            // Never registered: removing it matches nothing.
            let stranger = Listener(center: center, name: side)
            // Tracked first: a removal by address alone would name whatever
            // dead listener last had this address, as Foundation's would.
            harness.track(stranger)
            tally.keep.append(stranger)
            tally.tracked += 2
            tally.adds += 1
            var generator = SplitMix64(seed: 0x5EED + UInt64(index))
            for _ in 0..<Stress.operationsPerThread {
                // Posts are 3 in 8 operations; an operation that cannot apply
                // (nothing to remove, say) removes the stranger instead.
                switch generator.next() % 8 {
                case 0 where tally.live.isEmpty:
                    let listener = Listener(center: center, name: name, dying: tally.dying)
                    center.addObserver(listener, name: name, object: nil) { listener, _ in
                        tally.runs += 1
                        // Re-entrant work, every so many deliveries.
                        if tally.runs % 4 == 0 {
                            center.post(name: inner, object: nil)
                            tally.posts += 1
                        }
                        if tally.runs % 8 == 0 {
                            let token = center.addObserver(forName: side, object: nil, queue: nil) { _ in }
                            center.removeObserver(token)
                            tally.tracked += 1
                            tally.adds += 1
                            tally.removes += 1
                        }
                        if tally.runs % 16 == 0 {
                            // Off and on again during its own delivery: it stays registered once.
                            center.removeObserver(listener, name: name, object: nil)
                            center.addObserver(listener, name: name, object: nil) { _, _ in tally.runs += 1 }
                            tally.removes += 1
                            tally.adds += 1
                        }
                    }
                    tally.live.append(listener)
                    tally.tracked += 1
                    tally.adds += 1
                case 1 where !tally.live.isEmpty:
                    // Removed, then dies elsewhere (its deinit removes again, matching nothing).
                    let listener = tally.live.remove(at: Int(generator.next() % UInt64(tally.live.count)))
                    center.removeObserver(listener, name: name, object: nil)
                    tally.removes += 1
                    tally.dying.add("pending")
                    graveyard.bury(listener)
                    tally.buried += 1
                case 2 where !tally.live.isEmpty && tally.dying["pending"] < 2:
                    // Dies elsewhere while still registered, racing this thread's posts.
                    tally.dying.add("pending")
                    graveyard.bury(tally.live.remove(at: Int(generator.next() % UInt64(tally.live.count))))
                    tally.buried += 1
                case 3 where tally.tokens.isEmpty:
                    tally.tokens.append(
                        center.addObserver(forName: name, object: nil, queue: nil) { _ in
                            tally.runs += 1
                        })
                    tally.tracked += 1
                    tally.adds += 1
                case 3:
                    center.removeObserver(tally.tokens.removeLast())
                    tally.removes += 1
                case 5, 6, 7:
                    center.post(name: name, object: nil)
                    tally.posts += 1
                default:
                    center.removeObserver(stranger, name: name, object: nil)
                    tally.removes += 1
                }
            }
        }
        graveyard.close()
        let recording = harness.recording()
        let counts = Stress.counts(recording)
        let total = { (key: KeyPath<Tally, Int>) in tallies.reduce(0) { $0 + $1[keyPath: key] } }

        #expect(counts[.track, default: 0] == total(\.tracked))
        #expect(counts[.add, default: 0] == total(\.adds))
        // Each buried listener's deinit removes once more.
        #expect(counts[.remove, default: 0] == total(\.removes) + total(\.buried))
        #expect(counts[.post, default: 0] == total(\.posts))
        // A handler ran exactly when a delivery was recorded.
        #expect(counts[.deliver, default: 0] == total(\.runs))
        #expect(counts[.deliverToDead, default: 0] == 0)
        #expect(counts[.tokenDropped, default: 0] == 0)
        #expect(counts[.dealloc, default: 0] <= total(\.tracked))
        #expect(Set(counts.keys).isSubset(of: [.track, .add, .remove, .post, .deliver, .deliverSkipped, .dealloc]))
        Stress.expectEachDeallocationOnce(recording)
        Stress.expectDeliveriesFollowTheirPosts(recording)
        // Until here, everything the threads made stays alive; then the
        // handlers' references to their tallies must not keep it alive longer.
        tallies.forEach {
            $0.keep.removeAll(); $0.live.removeAll(); $0.tokens.removeAll()
        }
    }
}
