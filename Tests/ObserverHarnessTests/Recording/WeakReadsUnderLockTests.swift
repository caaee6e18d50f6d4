import Foundation
import Testing

@testable import ObserverHarness
@testable import ObserverHarnessInterface

/// Reading a weak reference takes a strong one. When the app lets its last
/// reference go on another thread at that moment, ours is the last: were it
/// released under a registry's lock, the object's deinit would run there, and
/// a deinit that removes an observer waits for that lock forever (a test hung
/// so in `analyze()`, while a screen's deinit ran on a queue). Each check
/// here plays that moment on one thread: the weak read, then the app's last
/// reference gone, both under the lock; the deinit must wait for the unlock.
@Suite struct WeakReadsUnderLockTests {
    /// Says whether its deinit ran, and lets it use a registry then.
    final class Departing: @unchecked Sendable {
        private let lock = NSLock()
        private var ran = false
        var deinitRan: Bool { lock.withLock { ran } }
        let onDeinit: @Sendable () -> Void
        init(onDeinit: @escaping @Sendable () -> Void = {}) { self.onDeinit = onDeinit }
        deinit {
            lock.withLock { ran = true }
            onDeinit()
        }
    }

    /// Keeps the `Departing` object's flag after the object is gone.
    final class Witness: @unchecked Sendable {
        private let lock = NSLock()
        private var ran = false
        var deinitRan: Bool { lock.withLock { ran } }
        func note() { lock.withLock { ran = true } }
    }

    @Test func theRecordersWeakReadKeepsTheObjectUntilItsLockGoes() {
        let harness = Harness()
        let witness = Witness()
        // Only notes: a deinit that used a registry here would hang this test
        // if the fix regressed, instead of failing it.
        var object: Departing? = Departing { witness.note() }
        let id = harness.track(object!).rawValue
        var ranUnderLock = true
        harness.recorder.withLock {
            #expect(!harness.recorder.isDeallocatedLocked(id))
            object = nil  // the app's last reference
            ranUnderLock = witness.deinitRan
        }
        #expect(!ranUnderLock, "the deinit ran under the recorder's lock")
        #expect(witness.deinitRan, "the deinit ran once the lock went")
        #expect(harness.recorder.isDeallocated(id))
    }

    @Test func severalObjectsReadUnderOneLockAllWaitForIt() {
        let harness = Harness()
        let witnesses = (0..<3).map { _ in Witness() }
        var objects: [Departing] = witnesses.map { witness in Departing { witness.note() } }
        let ids = objects.map { harness.track($0).rawValue }
        var ranUnderLock: [Bool] = []
        harness.recorder.withLock {
            for id in ids { #expect(!harness.recorder.isDeallocatedLocked(id)) }
            objects = []
            ranUnderLock = witnesses.map(\.deinitRan)
        }
        #expect(ranUnderLock == [false, false, false])
        #expect(witnesses.map(\.deinitRan) == [true, true, true])
        withExtendedLifetime(objects) {}
    }

    @Test func aPlainListsDuplicateCheckKeepsTheObserverUntilItsLockGoes() {
        let list = ObserverList<Departing>(hold: .weak, dedupe: true)
        let witness = Witness()
        var observer: Departing? = Departing {
            witness.note()
        }
        list.add(observer!)
        var held: [AnyObject] = []
        list.lock.lock()
        #expect(list.hasLiveEntry(channel: "", from: 0, keeping: &held))
        observer = nil
        let ranUnderLock = witness.deinitRan
        list.lock.unlock()
        #expect(!ranUnderLock)
        held = []
        #expect(witness.deinitRan)
        #expect(list.count == 0)
    }

    @Test func aPlainListStillFindsItsDuplicatesAndDropsItsDead() {
        let list = ObserverList<Departing>(hold: .weak, dedupe: true)
        let kept = Departing()
        list.add(kept)
        list.add(kept)
        #expect(list.count == 1, "a live duplicate is not added again")
        for _ in 0..<40 { list.add(Departing()) }  // each dies at once; compaction drops them
        #expect(list.count == 1)
        #expect(list.observers().count == 1)
    }
}
