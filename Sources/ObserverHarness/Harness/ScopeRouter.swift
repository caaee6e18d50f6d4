import Foundation
import ObserverHarnessInterface

/// Which test's harness work belongs to when it runs outside every
/// task-local scope: a `DispatchQueue` block, a `Thread`, a timer,
/// `Task.detached`, an object that stored `Observers.center`.
///
/// The process has one default center, so the harness keeps one router
/// (``RoutingCenter``) in front of every scope's center, and this ledger of
/// scopes behind it:
/// - **open**: inside `withObserverHarness`. Work in the scope's own task goes
///   to its harness and no other, so parallel tests stay apart.
/// - **closed**: the scope returned, its harness is alive (the test may still
///   post and analyse). With no scope open, the most recently closed one
///   takes the work that comes from outside every task.
/// - **finished**: its harness was released, or (in a run where scopes never
///   overlapped, so tests run one at a time) another harness's scope opened.
///   Its registrations stay, as the app's would on the default center: every
///   routed post reaches them, unrecorded. A released harness records nothing
///   more at all; one still alive keeps recording what the test does with it.
///
/// Outside every task-local scope: with one scope open, work is that scope's;
/// with several, nobody can tell whose it is, so it reaches every open scope,
/// as it would reach every observer of the default center, and each records
/// an `escaped-test-scope` finding at the app's line.
final class ScopeRouter: @unchecked Sendable {
    static let shared = ScopeRouter()

    private final class Entry {
        /// Held weakly: the router must not keep a test's harness (and what
        /// its registries hold) alive. While a scope is open, the scope holds it.
        weak var registries: HarnessRegistries?
        let serial: Int
        var depth = 0
        /// Once finished, the center is kept while something is registered on
        /// it (a long-lived object's registration), and nothing else.
        var finishedCenter: InstrumentedNotificationCenter?
        var finished = false
        /// When its scope last closed, for choosing the latest.
        var closedAt = 0

        init(_ registries: HarnessRegistries) {
            self.registries = registries
            serial = registries.serial
        }

        /// Still worth keeping: its harness is alive, or its center still has registrations.
        var isLive: Bool {
            finished ? (finishedCenter?.registrationCount ?? 0) > 0 : registries != nil
        }
    }

    private let lock = Lock()
    // Guarded by `lock`.
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var closings = 0
    /// Two scopes were open at once: tests run in parallel, so a scope closing
    /// does not mean its test ended.
    private var overlapped = false
    /// The router is in place for the process (done at the first scope).
    private var activated = false

    /// Where a call made outside every task-local scope goes.
    enum Target {
        /// The harness whose scope the caller is in, or the only candidate;
        /// `inferredInParallelRun` when it was chosen as the only open scope
        /// in a run whose scopes overlap (it may be another test's work).
        case scope(HarnessRegistries, inferredInParallelRun: Bool)
        /// Several scopes are open: it reaches each, and each reports it.
        case ambiguous([HarnessRegistries])
        /// No harness is running: the production center only.
        case production
    }

    // MARK: Scopes

    func enter(_ registries: HarnessRegistries) {
        let key = ObjectIdentifier(registries)
        let activating: Bool = lock.withLock {
            defer { activated = true }
            return !activated
        }
        if activating {
            RegistryScope.processCenter = RoutingCenter.shared
            RoutingCenter.shared.installBridge()
        }
        lock.withLock {
            pruneLocked()
            let entry = entries[key].flatMap { $0.registries === registries ? $0 : nil } ?? Entry(registries)
            entries[key] = entry
            entry.finished = false
            entry.finishedCenter = nil
            entry.depth += 1
            let others = entries.values.filter { $0 !== entry }
            // Another open scope is a parallel test, unless this scope nests in it.
            let outer = RegistryScope.provider as? HarnessRegistries
            if others.contains(where: { $0.depth > 0 && ($0.registries == nil || $0.registries !== outer) }) {
                overlapped = true
            }
            // Run one at a time, a new test's scope means every closed one's test ended.
            if !overlapped {
                for other in others where !other.finished && other.depth == 0 { finishLocked(other) }
            }
        }
    }

    func exit(_ registries: HarnessRegistries) {
        lock.withLock {
            guard let entry = entries[ObjectIdentifier(registries)] else { return }
            entry.depth -= 1
            closings += 1
            entry.closedAt = closings
        }
    }

    /// The harness was released: its test ended.
    func harnessEnded(_ registries: HarnessRegistries) {
        let ended: Bool = lock.withLock {
            guard let entry = entries[ObjectIdentifier(registries)], entry.registries === registries else {
                return false
            }
            finishLocked(entry)
            pruneLocked()
            return true
        }
        if ended { registries.finishRecording() }
    }

    /// Marks `entry` finished for routing: posts reach its registrations
    /// unrecorded. Its center is kept only if something is registered there.
    private func finishLocked(_ entry: Entry) {
        entry.finished = true
        let center = entry.registries?.routedCenterIfMade
        entry.finishedCenter = (center?.registrationCount ?? 0) > 0 ? center : nil
    }

    /// Drops the scopes whose harness is gone and whose center has nothing
    /// registered any more.
    private func pruneLocked() {
        entries = entries.filter { $0.value.isLive }
    }

    // MARK: Resolving

    /// Where a call from here goes, made through a center read in `bound`'s scope (if any).
    func target(boundTo bound: HarnessRegistries? = nil) -> Target {
        if let scope = RegistryScope.provider as? HarnessRegistries {
            return .scope(scope, inferredInParallelRun: false)
        }
        return lock.withLock {
            // An object made in a test that is still running is that test's.
            if let bound, let entry = entries[ObjectIdentifier(bound)], entry.registries === bound, !entry.finished {
                return .scope(bound, inferredInParallelRun: false)
            }
            let open = entries.values.filter { $0.depth > 0 }.sorted { $0.serial < $1.serial }
                .compactMap(\.registries)
            if open.count == 1 { return .scope(open[0], inferredInParallelRun: overlapped) }
            if open.count > 1 { return .ambiguous(open) }
            let latest = entries.values.filter { !$0.finished && $0.registries != nil }.max {
                $0.closedAt < $1.closedAt
            }
            return latest?.registries.map { .scope($0, inferredInParallelRun: overlapped) } ?? .production
        }
    }

    /// The centers of finished scopes that still have registrations: every
    /// post reaches them, as it would reach them on the default center.
    func finishedCenters(excluding registries: HarnessRegistries? = nil) -> [InstrumentedNotificationCenter] {
        lock.withLock {
            entries.values
                .filter { $0.finished && ($0.registries == nil || $0.registries !== registries) }
                .sorted { $0.serial < $1.serial }
                .compactMap(\.finishedCenter)
        }
    }

    /// Every center a registration of the caller's may be in: the target's
    /// first, then every other scope's.
    func allCenters(first: HarnessRegistries?) -> [InstrumentedNotificationCenter] {
        let rest = lock.withLock {
            entries.values
                .filter { $0.registries == nil || $0.registries !== first }
                .sorted { $0.serial < $1.serial }
                .compactMap { $0.finishedCenter ?? $0.registries?.routedCenterIfMade }
        }
        return (first?.routedCenterIfMade).map { [$0] + rest } ?? rest
    }
}

/// Where code runs when it is outside every test's task, for the message
/// that says how work left a scope.
enum ExecutionContext: UInt8, Sendable {
    case unknown = 0
    /// A task that does not descend from the test's (`Task.detached`).
    case unscopedTask = 1
    /// An `OperationQueue` other than the main one.
    case operationQueue = 2
    /// The main thread, outside the test's task: a main-queue block, a timer, a run-loop source.
    case mainThread = 3
    /// Another thread: a `DispatchQueue` block, a `Thread`.
    case backgroundThread = 4

    static func describeCurrent() -> ExecutionContext {
        if withUnsafeCurrentTask(body: { $0 != nil }) { return .unscopedTask }
        if let queue = OperationQueue.current, queue !== OperationQueue.main { return .operationQueue }
        return Thread.isMainThread ? .mainThread : .backgroundThread
    }

    var phrase: String {
        switch self {
        case .unknown: "outside the test's task"
        case .unscopedTask: "a task that does not descend from the test's (Task.detached)"
        case .operationQueue: "an OperationQueue"
        case .mainThread: "the main thread outside the test's task (a main-queue block, a timer or a run-loop source)"
        case .backgroundThread: "a background thread (a DispatchQueue block or a Thread)"
        }
    }
}
