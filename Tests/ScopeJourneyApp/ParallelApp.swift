import Foundation
import ObserverHarnessInterface

// A small app core whose services post from wherever their work ends — a
// DispatchQueue, an OperationQueue, a Thread, a detached task — with the hops
// written as most code is: nothing carries a test's scope across them. Its
// tests run as Swift Testing runs a suite, in parallel, the trait on each.

extension Notification.Name {
    public static let syncFinished = Notification.Name("ParallelApp.syncFinished")
    public static let uploadProgress = Notification.Name("ParallelApp.uploadProgress")
    public static let presenceChanged = Notification.Name("ParallelApp.presenceChanged")
}

/// Syncs on a queue of its own and says so from there, as the sender; it
/// reads `Observers.center` inside the block.
public final class SyncEngine: Sendable {
    private let queue = DispatchQueue(label: "ParallelApp.sync")
    public init() {}

    /// Posts from its queue (`hopToMainFirst`: from the main actor, the fix).
    public func sync(hopToMainFirst: Bool = false) {
        queue.async {
            guard hopToMainFirst else {
                Observers.center.post(name: .syncFinished, object: self)
                return
            }
            Task { @MainActor in Observers.center.post(name: .syncFinished, object: self) }
        }
    }
}

/// Uploads on an `OperationQueue` and reports progress from it, through the
/// center it stored when it was made (README's pattern).
public final class Uploader: Sendable {
    private let center = Observers.center
    private let queue = OperationQueue()
    public init() {}

    public func upload(parts: Int) {
        let center = center
        queue.addOperation {
            for part in 1...parts {
                center.post(name: .uploadProgress, object: self, userInfo: ["part": part])
            }
        }
    }
}

/// Reads presence on a `Thread` and posts with no sender, reading the center
/// on that thread: nothing ties the post to a test.
public final class PresenceReader: Sendable {
    public init() {}
    public func read() {
        Thread { Observers.center.post(name: .presenceChanged, object: nil) }.start()
    }
}

/// A socket whose reader task (detached) posts typed messages about it.
public final class Socket: Sendable {
    public init() {}

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    public func receive(_ count: Int) {
        Task.detached {
            Observers.center.post(MessagesArrived(count: count), subject: self)
            Observers.center.post(MessagesArrived(count: count))
        }
    }
}

/// What a socket's reader posts.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
public struct MessagesArrived: NotificationCenter.AsyncMessage {
    public typealias Subject = Socket
    public let count: Int
    public init(count: Int) { self.count = count }
}

/// Shown while it lives; says the connection dropped a moment later, from a
/// queue, through the center it stored: after its test may have ended.
public final class ConnectionBanner: Sendable {
    private let center = Observers.center
    public init() {}

    public func connectionDroppedLater(after delay: DispatchTimeInterval, then done: @escaping @Sendable () -> Void) {
        let center = center
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            center.post(name: .presenceChanged, object: nil)
            done()
        }
    }
}
