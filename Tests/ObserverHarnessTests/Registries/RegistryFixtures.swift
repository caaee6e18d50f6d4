import Foundation
import Testing

@testable import ObserverHarness

/// Helpers shared by the registry and recorder tests.
enum RegistryFixtures {
    /// What handlers saw, appended from any thread.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [String] = []

        func append(_ entry: String) { lock.withLock { storage.append(entry) } }
        var entries: [String] { lock.withLock { storage } }
    }

    /// A notification sender with identity. Every two senders are `==`, so a
    /// filter that matches them apart must be comparing identity.
    final class Sender: Sendable, Hashable, CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        static func == (lhs: Sender, rhs: Sender) -> Bool { true }
        func hash(into hasher: inout Hasher) {}
        var description: String { name }

        static func name(of object: Any?) -> String {
            guard let object else { return "nil" }
            return (object as? Sender)?.name ?? "\(object)"
        }
    }

    /// A centre and the tokens its handlers need, shareable with `@Sendable` blocks.
    final class SharedCenter: @unchecked Sendable {
        let base: any NotificationCenterProtocol
        private let lock = NSLock()
        private var storage: [Int: any NSObjectProtocol] = [:]

        init(_ base: any NotificationCenterProtocol) { self.base = base }

        subscript(token index: Int) -> (any NSObjectProtocol)? {
            get { lock.withLock { storage[index] } }
            set { lock.withLock { storage[index] = newValue } }
        }

        /// Removes and lets go every token: blocks that capture this centre
        /// would otherwise keep it, and their registrations, alive for good.
        func dropTokens() {
            let tokens = lock.withLock {
                defer { storage.removeAll() }; return Array(storage.values)
            }
            for token in tokens { base.removeObserver(token) }
        }
    }

    /// A plain observer object.
    final class Screen {
        let name: String
        init(_ name: String = "screen") { self.name = name }
    }

    /// Runs `operations` on a fresh Foundation `NotificationCenter` and on a
    /// fresh ``InstrumentedNotificationCenter``, and returns what each one's
    /// handlers logged, plus our recording.
    static func sideBySide(
        _ operations: (SharedCenter, Log) -> Void
    ) -> (foundation: [String], ours: [String], recording: Recording) {
        let foundationLog = Log()
        let foundation = SharedCenter(NotificationCenter())
        operations(foundation, foundationLog)
        foundation.dropTokens()
        let harness = Harness(name: "side-by-side")
        let ourLog = Log()
        let ours = SharedCenter(harness.notificationCenter())
        operations(ours, ourLog)
        let recording = harness.recording()
        ours.dropTokens()
        return (foundationLog.entries, ourLog.entries, recording)
    }

    /// Starts `count` threads at once, runs `body(index)` on each, and waits.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                gate.wait()
                body(index)
                group.leave()
            }
            thread.start()
        }
        for _ in 0..<count { gate.signal() }
        group.wait()
    }
}

extension Recording {
    /// The events of one kind, with their sequence numbers.
    func recordedEvents(_ kind: EventKind) -> [(sequence: Int, event: Event)] {
        events.enumerated().filter { $0.element.kind == kind }.map { ($0.offset, $0.element) }
    }

    /// The kinds of all events, in sequence order.
    var recordedKinds: [EventKind] { events.map { $0.kind } }

    func recordedCount(_ kind: EventKind) -> Int { events.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) } }
}
