import Foundation

/// What a harness's async observers still have under way: deliveries of
/// async messages enqueued but not finished, and loops whose owner is gone
/// that have not ended yet. ``Harness/settle(loopsOpened:maxTurns:fileID:filePath:line:column:)``
/// waits on it.
final class AsyncActivity: @unchecked Sendable {
    private struct OpenLoop {
        weak var owner: AnyObject?
        let ownerID: UInt32
    }

    private let lock = NSLock()
    // Guarded by `lock`.
    private var pendingDeliveries = 0
    private var bufferedValues = 0
    private var openLoops: [UInt32: OpenLoop] = [:]
    private var releasedOwners: Set<UInt32> = []
    private(set) var loopsOpened = 0

    /// Values buffered for loops that have not taken them yet (`delta` may be negative).
    func valuesBuffered(_ delta: Int) { lock.withLock { bufferedValues += delta } }

    func deliveryEnqueued() { lock.withLock { pendingDeliveries += 1 } }
    func deliveryFinished() { lock.withLock { pendingDeliveries -= 1 } }

    func loopOpened(_ loop: UInt32, owner: AnyObject?, ownerID: UInt32) {
        lock.withLock {
            openLoops[loop] = OpenLoop(owner: owner, ownerID: ownerID)
            loopsOpened += 1
        }
    }

    func loopEnded(_ loop: UInt32) {
        _ = lock.withLock { openLoops.removeValue(forKey: loop) }
    }

    /// The app said it released `id` (``Harness/noteReleased(_:fileID:filePath:line:column:)``).
    func ownerReleased(_ id: UInt32) {
        _ = lock.withLock { releasedOwners.insert(id) }
    }

    /// Nothing left to wait for: at least `loops` loops opened so far, no
    /// delivery pending, no value waiting in a loop's buffer, and every loop
    /// whose owner is gone or released has ended.
    func isSettled(loopsOpened loops: Int) -> Bool {
        lock.withLock {
            loopsOpened >= loops && pendingDeliveries == 0 && bufferedValues == 0
                && !openLoops.values.contains { loop in
                    loop.ownerID != 0 && (loop.owner == nil || releasedOwners.contains(loop.ownerID))
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
