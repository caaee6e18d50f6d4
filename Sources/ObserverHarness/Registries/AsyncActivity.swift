import Foundation

/// What a harness's async observers still have under way: deliveries of
/// async messages enqueued but not finished, loops whose owner is gone
/// that have not ended yet, and tasks the test's objects keep that have not
/// opened their loop yet. ``Harness/settle(loopsOpened:maxTurns:fileID:filePath:line:column:)``
/// waits on it.
final class AsyncActivity: @unchecked Sendable {
    private struct OpenLoop {
        weak var owner: AnyObject?
        var ownerID: UInt32
    }

    private struct WeakObject {
        weak var object: AnyObject?
    }

    /// A task an object the test tracks keeps in its stored properties.
    private struct HeldTaskRecord {
        let task: any HeldTask
        var holders = [UInt32: WeakObject]()
        var opened = false
        var finished = false
    }

    private let lock = NSLock()
    // Guarded by `lock`.
    /// Owners loaded from weak references under the lock, released after
    /// it: an owner's deinit (cancelling its loop's task) may come back here.
    private var heldUntilUnlock: [AnyObject] = []
    private var pendingDeliveries = 0
    private var pendingMainActorTurns = 0
    private var bufferedValues = 0
    private var openLoops = [UInt32: OpenLoop]()
    private var releasedOwners = Set<UInt32>()
    private(set) var loopsOpened = 0
    /// The objects the test tracked or released, whose tasks are searched.
    private var holders = [UInt32: WeakObject]()
    private var heldTasks = [Int: HeldTaskRecord]()
    /// Each open loop's task.
    private var loopTasks = [UInt32: Int]()
    /// Every task a loop opened in, so a task found after its loop opened is not waited for.
    private var tasksWithLoops = Set<Int>()

    /// Values buffered for loops that have not taken them yet (`delta` may be negative).
    func valuesBuffered(_ delta: Int) { withLock { bufferedValues += delta } }

    func deliveryEnqueued() { withLock { pendingDeliveries += 1 } }
    func deliveryFinished() { withLock { pendingDeliveries -= 1 } }

    /// Lets the main actor take every job it was given before this call (a
    /// main-actor object's `Task { for await … }`, made before the test
    /// settles, runs to its loop's first wait, which registers it): the main
    /// actor takes its jobs in order, so a turn enqueued now is taken after
    /// them, and the activity is not settled until it is.
    func enqueueMainActorTurn() {
        withLock { pendingMainActorTurns += 1 }
        Task { @MainActor in self.withLock { self.pendingMainActorTurns -= 1 } }
    }

    /// Records a loop opened in the task `task`; returns the owner found for
    /// it when it has none of its own: the one object keeping that task.
    func loopOpened(_ loop: UInt32, owner: AnyObject?, ownerID: UInt32, task: Int?) -> UInt32? {
        withLock {
            openLoops[loop] = OpenLoop(owner: owner, ownerID: ownerID)
            loopsOpened += 1
            guard let task else { return nil }
            loopTasks[loop] = task
            tasksWithLoops.insert(task)
            heldTasks[task]?.opened = true
            return ownerID == 0 ? inferOwnerLocked(of: loop) : nil
        }
    }

    /// An object whose stored tasks the harness searches from now on.
    func noteHolder(_ object: AnyObject, id: UInt32) {
        withLock { holders[id] = WeakObject(object: object) }
    }

    /// The holders still alive, to search.
    func liveHolders() -> [(id: UInt32, object: AnyObject)] {
        withLock {
            holders.compactMap { id, holder in holder.object.map { (id, $0) } }.sorted { $0.id < $1.id }
        }
    }

    /// Records the tasks `holder` keeps; returns the loops whose owner this
    /// finds, with it. A task seen for the first time is watched until it
    /// finishes, so that waiting for it to open a loop can stop.
    func noteHeldTasks(_ tasks: [any HeldTask], holder: AnyObject, holderID: UInt32) -> [(loop: UInt32, owner: UInt32)]
    {
        var watch: [any HeldTask] = []
        let found = withLock { () -> [(loop: UInt32, owner: UInt32)] in
            for task in tasks {
                let identity = task.taskIdentity
                if heldTasks[identity] == nil {
                    heldTasks[identity] = HeldTaskRecord(task: task, opened: tasksWithLoops.contains(identity))
                    watch.append(task)
                }
                heldTasks[identity]?.holders[holderID] = WeakObject(object: holder)
            }
            var found: [(loop: UInt32, owner: UInt32)] = []
            for (loop, task) in loopTasks.sorted(by: { $0.key < $1.key })
            where tasks.contains(where: { $0.taskIdentity == task }) {
                if let owner = inferOwnerLocked(of: loop) { found.append((loop, owner)) }
            }
            return found
        }
        for task in watch {
            // Background priority: waiting never raises the app task's.
            Task.detached(priority: .background) { [weak self] in
                await task.waitUntilFinished()
                self?.heldTaskFinished(task.taskIdentity)
            }
        }
        return found
    }

    private func heldTaskFinished(_ identity: Int) {
        withLock { heldTasks[identity]?.finished = true }
    }

    /// The owner of `loop` when it has none yet and exactly one holder keeps
    /// its task (two objects sharing a task: neither is its owner).
    private func inferOwnerLocked(of loop: UInt32) -> UInt32? {
        guard let task = loopTasks[loop], let record = heldTasks[task], record.holders.count == 1,
            let (ownerID, holder) = record.holders.first, var open = openLoops[loop], open.ownerID == 0
        else { return nil }
        open.ownerID = ownerID
        open.owner = holder.object
        if let owner = open.owner { heldUntilUnlock.append(owner) }
        openLoops[loop] = open
        return ownerID
    }

    /// Every task found in the test's objects, for ``Harness/cancelHeldTasks()``.
    func allHeldTasks() -> [any HeldTask] {
        withLock { heldTasks.sorted { $0.key < $1.key }.map(\.value.task) }
    }

    /// Whether every task the test's objects keep has opened its loop, ended or been cancelled.
    var heldTasksStarted: Bool {
        withLock { !hasPendingHeldTaskLocked }
    }

    private var hasPendingHeldTaskLocked: Bool {
        heldTasks.values.contains { !$0.opened && !$0.finished && !$0.task.isTaskCancelled }
    }

    func loopEnded(_ loop: UInt32) {
        withLock {
            openLoops[loop] = nil
            loopTasks[loop] = nil
        }
    }

    /// The app said it released `id` (``Harness/noteReleased(_:fileID:filePath:line:column:)``).
    func ownerReleased(_ id: UInt32) {
        _ = withLock { releasedOwners.insert(id) }
    }

    /// Whether `loop`'s owner is gone; a live one is held until the lock goes.
    private func isGoneLocked(_ loop: OpenLoop) -> Bool {
        guard let owner = loop.owner else { return true }
        heldUntilUnlock.append(owner)
        return false
    }

    /// `lock.withLock`, then the objects held under it let go.
    private func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer {
            let held = heldUntilUnlock
            heldUntilUnlock = []
            lock.unlock()
            withExtendedLifetime(held) {}
        }
        return try body()
    }

    /// Nothing left to wait for: at least `loops` loops opened so far, no
    /// delivery or main-actor turn pending, no value waiting in a loop's buffer, every task the
    /// test's objects keep has opened its loop or finished, and every loop
    /// whose owner is gone or released has ended.
    func isSettled(loopsOpened loops: Int) -> Bool {
        withLock {
            loopsOpened >= loops && pendingDeliveries == 0 && pendingMainActorTurns == 0 && bufferedValues == 0
                && !hasPendingHeldTaskLocked
                && !openLoops.values.contains { loop in
                    loop.ownerID != 0 && (isGoneLocked(loop) || releasedOwners.contains(loop.ownerID))
                }
        }
    }
}

/// Foundation's queue for async-message observers (swift-foundation's
/// `_NotificationCenterActorQueueManager`): one worker per center takes the
/// enqueued deliveries in order and runs each as a child task, so observers
/// run later, off the posting thread, concurrently with each other.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)  // withDiscardingTaskGroup
final class AsyncDeliveryQueue: Sendable {
    private let continuation: AsyncStream<@Sendable () async -> Void>.Continuation
    private let worker: Task<Void, Never>

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
        self.continuation = continuation
        worker = Task.detached {
            await withDiscardingTaskGroup { group in
                for await work in stream { group.addTask(operation: work) }
            }
        }
    }

    deinit {
        continuation.finish()
    }

    func enqueue(_ work: @escaping @Sendable () async -> Void) {
        continuation.yield(work)
    }
}
