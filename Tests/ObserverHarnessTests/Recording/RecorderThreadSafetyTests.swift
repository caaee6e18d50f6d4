import Foundation
import Testing

@testable import ObserverHarness

/// Eight threads hammer one registry at once. Each thread works on its own
/// channel, so what it should record is known exactly from what it did.
@Suite(.tags(.stress)) struct RecorderThreadSafetyTests {
    static let threadCount = 8
    static let operationsPerThread = 5_000

    /// What each thread did, and objects kept alive until the recording is taken.
    final class ThreadLog: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var expected: [Int: [EventKind]] = [:]
        private(set) var threadNumbers: [Int: UInt16] = [:]
        private var keepAlive: [Any] = []

        func store(index: Int, expected kinds: [EventKind], keepAlive objects: [Any]) {
            let threadNumber = ThreadContext.current.threadNumber
            lock.withLock {
                expected[index] = kinds
                threadNumbers[index] = threadNumber
                keepAlive.append(objects)
            }
        }
    }

    final class Node {}

    @Test func concurrentCenterOperationsAreRecordedExactlyInEachThreadsOrder() throws {
        let harness = Harness()
        let center = harness.notificationCenter()
        let log = ThreadLog()
        RegistryFixtures.onThreads(Self.threadCount) { index in
            let name = Notification.Name("T\(index)")
            var generator = SplitMix64(seed: UInt64(index) + 1)
            var active: [any NSObjectProtocol] = []
            var all: [any NSObjectProtocol] = []
            var expected: [EventKind] = []
            for _ in 0..<Self.operationsPerThread {
                switch generator.next() % 3 {
                case 0:
                    let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in }
                    active.append(token)
                    all.append(token)
                    expected += [.track, .add]
                case 1 where !active.isEmpty:
                    let token = active.remove(at: Int(generator.next() % UInt64(active.count)))
                    center.removeObserver(token)
                    expected.append(.remove)
                default:
                    center.post(name: name, object: nil)
                    expected.append(.post)
                    expected += repeatElement(.deliver, count: active.count)
                }
            }
            log.store(index: index, expected: expected, keepAlive: all)
        }
        try check(harness.recording(), against: log)
    }

    @Test func concurrentObserverListOperationsAreRecordedExactlyInEachThreadsOrder() throws {
        let harness = Harness()
        let list = harness.observerList(of: Node.self)
        let log = ThreadLog()
        RegistryFixtures.onThreads(Self.threadCount) { index in
            let channel = "T\(index)"
            var generator = SplitMix64(seed: UInt64(index) + 100)
            let nodes = (0..<4).map { _ in Node() }
            var registered = [false, false, false, false]
            var tracked = [false, false, false, false]
            var expected: [EventKind] = []
            for _ in 0..<Self.operationsPerThread {
                let pick = Int(generator.next() % 4)
                switch generator.next() % 3 {
                case 0 where !registered[pick]:
                    list.add(nodes[pick], channel: channel)
                    if !tracked[pick] { expected.append(.track) }
                    tracked[pick] = true
                    registered[pick] = true
                    expected.append(.add)
                case 1 where registered[pick]:
                    list.remove(nodes[pick], channel: channel)
                    registered[pick] = false
                    expected.append(.remove)
                default:
                    var delivered = 0
                    list.notify(channel: channel) { _ in delivered += 1 }
                    let active = registered.filter { $0 }.count
                    if delivered != active { Issue.record("thread \(index): \(delivered) deliveries for \(active)") }
                    expected.append(.post)
                    expected += repeatElement(.deliver, count: active)
                }
            }
            log.store(index: index, expected: expected, keepAlive: nodes)
        }
        try check(harness.recording(), against: log)
    }

    private func check(_ recording: Recording, against log: ThreadLog) throws {
        #expect(Set(log.threadNumbers.values).count == Self.threadCount, "each thread has its own number")

        // Exact counts per kind: nothing lost, nothing doubled.
        var expectedCounts: [EventKind: Int] = [:]
        for kinds in log.expected.values { for kind in kinds { expectedCounts[kind, default: 0] += 1 } }
        var counts: [EventKind: Int] = [:]
        for event in recording.events { counts[event.kind, default: 0] += 1 }
        #expect(counts == expectedCounts)
        #expect(recording.eventCount == log.expected.values.reduce(0) { $0 + $1.count })

        // Each thread's events, in sequence order, are exactly what it did, in order.
        var byThread: [UInt16: [EventKind]] = [:]
        var timeWentBack = 0, badCauses = 0
        var lastTime: UInt64 = 0
        for (sequence, event) in recording.events.enumerated() {
            byThread[event.thread, default: []].append(event.kind)
            if event.time < lastTime { timeWentBack += 1 }
            lastTime = event.time
            if event.kind == .deliver {
                let cause = Int(event.cause)
                if !(cause < sequence && recording.events[cause].kind == .post
                    && recording.events[cause].thread == event.thread)
                {
                    badCauses += 1
                }
            }
        }
        for (index, threadNumber) in log.threadNumbers {
            #expect(byThread[threadNumber] == log.expected[index], "thread \(index)'s events are out of program order")
        }
        #expect(timeWentBack == 0, "sequence order and time order agree")
        #expect(badCauses == 0, "every delivery names an earlier post of its own thread")

        // Sequence numbers are gap-free: the trace reader checks 0, 1, 2, … in order.
        let trace = try Recording.readTrace(recording.traceData())
        #expect(trace.recording.eventCount == recording.eventCount)
    }
}
