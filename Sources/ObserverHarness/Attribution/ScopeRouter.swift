import Foundation
import ObserverHarnessInterface

/// Whose work a call through `Observers.center` is, when it is made under a
/// harness: the one place that decides it, and the ledger of test scopes it
/// decides from.
///
/// The process has one default center, so the harness keeps one router
/// (``RoutingCenter``) in front of every test's center, and this ledger
/// behind it. A scope is **running** from its `withObserverHarness` until its
/// harness is released (or, in a run whose scopes never overlapped, until
/// another harness opens one); then it is **finished**, and its registrations
/// that long-lived objects still hold are **leftovers** (``Leftovers``).
///
/// ``attribute(bound:touching:_:)`` gives work to a running test only on a
/// fact about the work itself, never on which other tests happen to run
/// beside it, so a test's verdict is the same in a parallel and a serialized
/// run. The first that applies wins:
/// 1. the task-local scope: the test's task, and `Task {}` started in it;
/// 2. a handler a test's registry is running on this thread: what a delivery
///    does is the work of the test that posted it;
/// 3. the center the caller stored, read in a test's scope, while that test
///    runs (unless another running test has used the objects the work touches:
///    a shared object made in one test and used by another);
/// 4. an object the work touches (a post's sender or subject, a registration's
///    observer or filter) that exactly one running test has seen;
/// 5. in a run where tests never overlapped and no parallel suite (the
///    `.observerHarness` trait) is running — XCTest, a script — the one running test.
///
/// Anything else is **untold**: a post reaches every running test's matching
/// registrations unrecorded, as the default center would, and each test it
/// reached notes it (`escaped-test-scope`, a note: it fails nobody); a
/// registration goes to Foundation's default center. Deciding by which tests'
/// registrations a post reaches, or by how many scopes are open, would make a
/// verdict depend on the tests that run beside it.
final class ScopeRouter: @unchecked Sendable {
    static let shared = ScopeRouter()

    fileprivate final class Entry {
        /// Held weakly: the router must not keep a test's harness (and what
        /// its registries hold) alive. While a scope is open, the scope holds it.
        weak var weakRegistries: HarnessRegistries?
        let key: ObjectIdentifier
        let serial: Int
        /// What tells whether the test has seen an object, held so that asking
        /// never loads (and so briefly keeps alive) another test's registries.
        let recorder: Recorder
        /// False for the trait's tests, which may run in parallel.
        let infersSoleTest: Bool
        var depth = 0
        /// When its scope last closed, for choosing the latest.
        var closedAt = 0
        /// The test ended: an untold delivery still under way skips it (its
        /// registrations, if any remain, are leftovers by then).
        var ended = false

        init(_ registries: HarnessRegistries) {
            weakRegistries = registries
            key = ObjectIdentifier(registries)
            serial = registries.serial
            recorder = registries.recording
            infersSoleTest = registries.infersSoleTest
        }
    }

    private let lock = Lock()
    // Guarded by `lock`.
    /// The running tests, by registries and by recorder.
    private var running = [ObjectIdentifier: Entry]() {
        didSet { runningCount.store(running.count) }
    }
    /// `running.count`, read without the lock: with no test running (a test
    /// without the trait, in a suite where one with it ran), nothing is
    /// anyone's, and the router steps aside for Foundation's center.
    private let runningCount = PublishedCount()
    private var byRecorder = [ObjectIdentifier: Entry]()
    private var closings = 0
    /// Two scopes were open at once: tests run in parallel, so a scope closing
    /// does not mean its test ended, and nothing is given to a test by elimination.
    private var overlapped = false
    /// The router is in place for the process (done at the first scope).
    private var activated = false
    /// Finished tests' registrations, which every post still reaches.
    let leftovers = Leftovers()

    /// `entry`'s registries. Its harness lives while the entry is running
    /// (its release waits on this lock to remove it), so a reference taken
    /// and dropped under the lock is never the last one.
    private func registriesLocked(_ entry: Entry) -> HarnessRegistries? { entry.weakRegistries }

    private func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }

    // MARK: Scopes

    // An entry is in `running` only while its harness lives: the harness's
    // release removes it (`harnessEnded`) before the registries can go. So
    // an entry's key names its registries, and another test's registries are
    // taken out of the lock only to hand them work: held on this thread, they
    // (and the app objects they hold) would outlive the test's end.

    func enter(_ registries: HarnessRegistries) {
        let key = ObjectIdentifier(registries)
        let activating: Bool = withLock {
            defer { activated = true }
            return !activated
        }
        if activating { RegistryScope.processCenter = RoutingCenter.shared }
        registries.hasOpenedScope = true
        let finishing: [HarnessRegistries] = withLock {
            let entry = running[key] ?? Entry(registries)
            running.updateValue(entry, forKey: key)
            byRecorder.updateValue(entry, forKey: ObjectIdentifier(entry.recorder))
            entry.depth += 1
            let others = running.values.filter { $0 !== entry }
            // Another open scope is a parallel test, unless this scope nests in it.
            let outer = (RegistryScope.provider as? HarnessRegistries).map(ObjectIdentifier.init)
            if others.contains(where: { $0.depth > 0 && $0.key != outer }) {
                overlapped = true
            }
            // Run one at a time, a new test's scope means every closed one's test
            // ended; a test that may run beside others ends only when released.
            guard !overlapped, entry.infersSoleTest else { return [] }
            return others.filter { $0.depth == 0 && $0.infersSoleTest }.compactMap { registriesLocked($0) }
        }
        // A harness that opens a scope again takes its registrations back.
        if let center = registries.routedCenterIfMade { leftovers.remove(center) }
        registries.markRunning()
        for finished in finishing { end(finished) }
    }

    func exit(_ registries: HarnessRegistries) {
        withLock {
            guard let entry = running[ObjectIdentifier(registries)] else { return }
            entry.depth -= 1
            closings += 1
            entry.closedAt = closings
        }
    }

    /// The harness was released: its test ended, if it had not already (a
    /// later test's scope ends it in a run of one test at a time).
    func harnessEnded(_ registries: HarnessRegistries) {
        let isRunning = withLock { running[ObjectIdentifier(registries)] != nil }
        // A harness used only by injection keeps recording: its registries
        // outlive it in the test's hands (`Harness().notificationCenter()`).
        guard registries.hasOpenedScope else { return }  // never entered: never running
        registries.finishRecording()
        if isRunning { end(registries) }
    }

    /// Ends a running test: its registrations become leftovers before it
    /// stops being running, so a post made meanwhile reaches them by one way
    /// or the other (`RoutingCenter` delivers once to a center reached both ways).
    private func end(_ registries: HarnessRegistries) {
        registries.routedCenterIfMade.map(leftovers.add)
        registries.markEnded()
        withLock { removeLocked(ObjectIdentifier(registries)) }
    }

    private func removeLocked(_ key: ObjectIdentifier) {
        guard let entry = running.removeValue(forKey: key) else { return }
        entry.ended = true
        byRecorder.removeValue(forKey: ObjectIdentifier(entry.recorder))
    }

    // MARK: Attributing

    /// Whose work a call is.
    enum Attribution {
        /// This running test's: recorded there.
        case test(HarnessRegistries)
        /// Nothing ties it to one test: it reaches these running tests as the
        /// default center would, and none records it as its own.
        case untold(RunningTests)
    }

    /// The tests running when an untold call was made, in the order they were
    /// made. A test is taken only while the call reaches its center, and
    /// only if it has one; one that ended meanwhile is skipped (its
    /// registrations are leftovers by then): a post reaching another test's
    /// observers must not keep a finished test's objects alive.
    struct RunningTests {
        fileprivate let entries: [Entry]
        fileprivate let router: ScopeRouter
        /// Whether several running tests have used an object the work
        /// touches (a shared manager): then no sender can tie it to one.
        var touchesSharedObject = false

        var count: Int { entries.count }

        /// Runs `body` with each still-running test's registries and center.
        func forEach(_ body: (HarnessRegistries, InstrumentedNotificationCenter) -> Void) {
            for entry in entries {
                guard let (registries, center) = router.centerIfRunning(entry) else { continue }
                body(registries, center)
            }
        }
    }

    private func centerIfRunning(_ entry: Entry) -> (HarnessRegistries, InstrumentedNotificationCenter)? {
        withLock {
            guard !entry.ended, let registries = registriesLocked(entry),
                let center = registries.routedCenterIfMade
            else { return nil }
            return (registries, center)
        }
    }

    /// Whose work a call made from here is, made through `bound` (the scope
    /// the caller's center was read in, if any) and touching the objects given.
    /// `bound` is read only past the task-local scope: a weak reference's
    /// load is two atomic operations, on every post made in a test's task.
    func attribute(
        bound: @autoclosure () -> HarnessRegistries?, touching first: AnyObject?, _ second: AnyObject? = nil
    ) -> Attribution {
        // A scope carried past its test's end (`withEscapedScope`) is nobody's
        // now: its center no longer reaches the running tests' observers.
        if let scope = RegistryScope.provider as? HarnessRegistries, !scope.hasEnded { return .test(scope) }
        // No test running: no frame, bound scope or seen object can name one.
        guard isAnyTestRunning else { return .untold(RunningTests(entries: [], router: self)) }
        let bound = bound()
        let frame = ThreadContext.current.frameRecorder
        return withLock {
            if let frame, let entry = byRecorder[frame], let registries = registriesLocked(entry) {
                return .test(registries)
            }
            // Unless another running test has used what the work touches: a
            // shared object made in one test and used by another.
            if let bound, running[ObjectIdentifier(bound)] != nil {
                guard seenByOtherLocked(than: ObjectIdentifier(bound), first, second) else { return .test(bound) }
                return .untold(runningLocked(touching: first, second))
            }
            if let owner = ownerLocked(of: first, second) { return .test(owner) }
            if let sole = soleTestLocked() { return .test(sole) }
            return .untold(runningLocked(touching: first, second))
        }
    }

    /// Whether a test is running, read without the lock.
    var isAnyTestRunning: Bool { runningCount.load() > 0 }

    /// No test is running and none left registrations behind: the app's
    /// calls are Foundation's alone (a test without the trait, in a suite
    /// where one with it ran, pays for no routing).
    var isIdle: Bool { !isAnyTestRunning && leftovers.isEmpty }

    private func runningLocked() -> RunningTests {
        RunningTests(entries: running.values.sorted { $0.serial < $1.serial }, router: self)
    }

    /// The running tests, for untold work touching the objects given.
    private func runningLocked(touching first: AnyObject?, _ second: AnyObject?) -> RunningTests {
        var tests = runningLocked()
        if first != nil || second != nil {
            tests.touchesSharedObject = running.values.filter { Self.hasSeen($0, first, second) }.count > 1
        }
        return tests
    }

    /// Whether a running test other than `test` has seen one of the objects.
    private func seenByOtherLocked(than test: ObjectIdentifier, _ first: AnyObject?, _ second: AnyObject?) -> Bool {
        guard first != nil || second != nil else { return false }
        return running.values.contains { entry in
            entry.key != test && Self.hasSeen(entry, first, second)
        }
    }

    private static func hasSeen(_ entry: Entry, _ first: AnyObject?, _ second: AnyObject?) -> Bool {
        if let first, entry.recorder.knownObjectID(for: first) != nil { return true }
        if let second, entry.recorder.knownObjectID(for: second) != nil { return true }
        return false
    }

    /// The one running test that has seen the objects, if exactly one has.
    private func ownerLocked(of first: AnyObject?, _ second: AnyObject?) -> HarnessRegistries? {
        guard first != nil || second != nil, !running.isEmpty else { return nil }
        var owner: Entry?
        for entry in running.values where Self.hasSeen(entry, first, second) {
            if owner != nil { return nil }  // several have: a shared object
            owner = entry
        }
        return owner.flatMap { registriesLocked($0) }
    }

    /// The running test, when tests run one at a time (never overlapped, no
    /// parallel suite running): the open one, else the one that closed last.
    private func soleTestLocked() -> HarnessRegistries? {
        guard !overlapped, !running.isEmpty, running.values.allSatisfy(\.infersSoleTest) else { return nil }
        let open = running.values.filter { $0.depth > 0 }
        if open.count == 1 { return registriesLocked(open[0]) }
        guard open.isEmpty else { return nil }
        return running.values.max { $0.closedAt < $1.closedAt }.flatMap { registriesLocked($0) }
    }

    /// Whether the test whose recorder is `recorder` is running now.
    func isRunning(recorder: ObjectIdentifier) -> Bool {
        withLock { byRecorder[recorder].map { !$0.ended } ?? false }
    }

    /// Every running test's center that exists, then the finished tests'
    /// centers where `observer` was registered: where its registrations may
    /// be. `body` gets each in turn; another test's is held only for its call.
    func forEachCenter(
        holding observer: AnyObject, first: HarnessRegistries?, _ body: (InstrumentedNotificationCenter) -> Void
    ) {
        if let center = first?.routedCenterIfMade { body(center) }
        if isAnyTestRunning {
            withLock(runningLocked).forEach { registries, center in if registries !== first { body(center) } }
        }
        for center in leftovers.centers(observedBy: observer) { body(center) }
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
    /// A post made straight on `NotificationCenter.default`, brought over by the bridge.
    case foundationCenter = 5

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
        case .foundationCenter: "NotificationCenter.default, outside the test's task"
        }
    }
}
