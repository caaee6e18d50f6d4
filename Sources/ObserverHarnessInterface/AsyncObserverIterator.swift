import Foundation

/// How an async observation ended.
package enum AsyncObservationEnd: UInt32, Sendable, CaseIterable {
    /// The sequence ended by itself (its center went away).
    case finished = 1
    /// The task iterating it was cancelled.
    case cancelled = 2
    /// The loop stopped (`break`, `return`, a thrown error) or the iterator
    /// was dropped without being cancelled.
    case iteratorGone = 3

    /// How reports spell it.
    package var name: String {
        switch self {
        case .finished: "finished"
        case .cancelled: "cancelled"
        case .iteratorGone: "iterator-gone"
        }
    }
}

/// What the harness records about one async observation; the production
/// path passes none.
package protocol AsyncObservationEvents: AnyObject, Sendable {
    /// A posted value was buffered for the loop. Called with the iterator's
    /// lock held (before the loop can take the value): only count here.
    func buffered(tag: UInt32)
    /// The loop received a value the registration buffered (`tag` is what
    /// ``AsyncObserverIterator/receive(_:tag:)`` was given with it).
    func consumed(tag: UInt32)
    /// A full buffer dropped its oldest value, which the loop never sees.
    func dropped(tag: UInt32)
    func ended(_ end: AsyncObservationEnd)
}

/// The iterator behind `postedNotifications(named:object:)` and
/// `messages(of:for:bufferSize:)`, with Foundation's semantics
/// (swift-foundation's `AsyncMessageSequenceIterator`):
///
/// - the registration is made when the iterator is, and holds it weakly: an
///   iterator nobody holds any more removes its registration;
/// - a value posted while nobody waits is buffered; with a `limit`, a full
///   buffer drops its oldest value, silently;
/// - cancelling the iterating task ends the sequence: pending `next()` calls
///   return nil and the registration is removed.
package final class AsyncObserverIterator<Element: Sendable>: AsyncIteratorProtocol, @unchecked Sendable {
    package typealias Failure = Never

    private let lock = NSLock()
    // Guarded by `lock`.
    private var buffer: [(value: Element, tag: UInt32)] = []
    private var head = 0
    private var waiting: [UnsafeContinuation<(value: Element, tag: UInt32)?, Never>] = []
    private var isEnded = false
    private var unregister: (@Sendable () -> Void)?

    private let limit: Int?
    private let events: (any AsyncObservationEvents)?

    /// `limit`: the most values kept for a loop that is not waiting (nil: no limit).
    package init(limit: Int?, events: (any AsyncObservationEvents)?) {
        self.limit = limit
        self.events = events
    }

    /// Sets what removes the registration feeding this iterator; run once,
    /// when the observation ends. Set right after registering.
    package func setUnregister(_ action: @escaping @Sendable () -> Void) {
        let runNow = lock.locked { () -> Bool in
            guard !isEnded else { return true }
            unregister = action
            return false
        }
        if runNow { action() }
    }

    deinit {
        end(.iteratorGone)
    }

    /// A posted value, from the registration's handler on the posting thread.
    package func receive(_ value: Element, tag: UInt32 = 0) {
        var droppedTag: UInt32?
        var accepted = false
        let resumption = lock.locked {
            () -> (
                UnsafeContinuation<(value: Element, tag: UInt32)?, Never>,
                (value: Element, tag: UInt32)
            )? in
            guard !isEnded else { return nil }
            accepted = true
            events?.buffered(tag: tag)
            if let limit, buffer.count - head + 1 > limit, head < buffer.count {
                droppedTag = buffer[head].tag
                head += 1
            }
            buffer.append((value, tag))
            guard !waiting.isEmpty else {
                compactLocked()
                return nil
            }
            return (waiting.removeFirst(), takeFirstLocked())
        }
        guard accepted else { return }
        if let droppedTag { events?.dropped(tag: droppedTag) }
        if let (continuation, element) = resumption { continuation.resume(returning: element) }
    }

    package func next() async -> Element? {
        await next(isolation: nil)
    }

    package func next(isolation actor: isolated (any Actor)?) async -> Element? {
        let element = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<(value: Element, tag: UInt32)?, Never>) in
                let ready = lock.locked { () -> (value: Element, tag: UInt32)?? in
                    if isEnded { return .some(nil) }
                    guard head < buffer.count else {
                        waiting.append(continuation)
                        return nil
                    }
                    return .some(takeFirstLocked())
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            end(.cancelled)
        }
        guard let element else { return nil }
        events?.consumed(tag: element.tag)
        return element.value
    }

    /// Ends the observation once: waiting loops get nil, the buffer is
    /// emptied and the registration removed.
    package func end(_ how: AsyncObservationEnd) {
        let ended = lock.locked {
            () -> (
                waiting: [UnsafeContinuation<(value: Element, tag: UInt32)?, Never>],
                unregister: (@Sendable () -> Void)?
            )? in
            guard !isEnded else { return nil }
            isEnded = true
            buffer.removeAll()
            head = 0
            defer {
                waiting.removeAll()
                unregister = nil
            }
            return (waiting, unregister)
        }
        guard let ended else { return }
        for continuation in ended.waiting { continuation.resume(returning: nil) }
        ended.unregister?()
        events?.ended(how)
    }

    private func takeFirstLocked() -> (value: Element, tag: UInt32) {
        defer {
            head += 1
            compactLocked()
        }
        return buffer[head]
    }

    private func compactLocked() {
        if head == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 32, head * 2 > buffer.count {
            buffer.removeFirst(head)
            head = 0
        }
    }
}
