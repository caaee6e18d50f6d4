import Foundation
import ObserverHarnessInterface

// App code for the scope-boundary journeys: it links only the interface
// product, as an app does, and does its observer work the way apps do —
// from queues, threads, timers, detached tasks and shared managers.

extension Notification.Name {
    public static let scanFinished = Notification.Name("ScopeJourneys.scanFinished")
    public static let journeyThemeChanged = Notification.Name("ScopeJourneys.themeChanged")
    public static let beaconPinged = Notification.Name("ScopeJourneys.beaconPinged")
}

/// A count several threads bump.
public final class Counter: @unchecked Sendable {
    private let condition = NSCondition()
    private var storage = 0
    public init() {}

    public func bump() {
        condition.withLock {
            storage += 1
            condition.broadcast()
        }
    }

    public var value: Int { condition.withLock { storage } }

    /// Waits (off the caller's thread) until the count reaches `count`.
    public func reach(_ count: Int) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.condition.withLock {
                    while self.storage < count { self.condition.wait() }
                }
                continuation.resume()
            }
        }
    }
}

/// A screen that reloads on `.scanFinished`, registered through the default
/// center (or the one given) and removed in `deinit`.
public final class ScanResultsScreen: @unchecked Sendable {
    public let reloads = Counter()
    private let center: any NotificationCenterProtocol
    private var token: (any NSObjectProtocol)?

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
        register()
    }

    /// Registers from a background queue (a screen set up by a callback), and waits for it.
    public init(registeringFromBackgroundOn center: any NotificationCenterProtocol) {
        self.center = center
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            self.register()
            done.signal()
        }
        done.wait()
    }

    private func register() {
        let reloads = self.reloads
        token = center.addObserver(forName: .scanFinished, object: nil, queue: nil) { _ in reloads.bump() }
    }

    public func stopObserving() {
        if let token { center.removeObserver(token) }
        token = nil
    }

    deinit { stopObserving() }
}

/// Registers for `.scanFinished` from a background queue that reads the
/// default center there (a callback setting up its own observation).
public func observeScansFromBackground(_ counter: Counter) -> any NSObjectProtocol {
    nonisolated(unsafe) var token: (any NSObjectProtocol)?
    let registered = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        token = Observers.center.addObserver(forName: .scanFinished, object: nil, queue: nil) { _ in counter.bump() }
        registered.signal()
    }
    registered.wait()
    return token!
}

/// The ways app code leaves the caller's task before it posts.
public enum Hop: String, CaseIterable, Codable, Sendable {
    case globalQueue, serialQueue, asyncAfter, operationQueue, thread, detachedTask, childTask

    /// Posts `.scanFinished` through `center` (the default center when nil,
    /// read where the post runs) after the hop, and waits until it was made.
    public func post(through center: (any NotificationCenterProtocol)? = nil) async {
        let posted = DispatchSemaphore(value: 0)
        let post: @Sendable () -> Void = {
            (center ?? Observers.center).post(name: .scanFinished, object: nil)
            posted.signal()
        }
        switch self {
        case .globalQueue: DispatchQueue.global().async(execute: post)
        case .serialQueue: DispatchQueue(label: "com.example.scanner").async(execute: post)
        case .asyncAfter: DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1), execute: post)
        case .operationQueue: OperationQueue().addOperation(post)
        case .thread: Thread(block: post).start()
        case .detachedTask: Task.detached { post() }
        case .childTask: Task { post() }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                posted.wait()
                continuation.resume()
            }
        }
    }
}

/// A shared manager that keeps the default center in a property, as the
/// seed articles' `sharedInstance` shapes do.
public final class ScanManager: @unchecked Sendable {
    public static let shared = ScanManager()
    let center: any NotificationCenterProtocol

    public init(center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
    }

    public func finishScan() {
        center.post(name: .scanFinished, object: nil)
    }
}

/// Tells observers a scan finished, from a background queue, carrying the
/// caller's registry scope across the hop (the ScopeBoundaries article's example).
public func scanFinished() {
    Observers.withEscapedScope { escaped in
        DispatchQueue.global().async {
            escaped.yield { Observers.center.post(name: .scanFinished, object: nil) }
        }
    }
}

/// A theme service that lives for the whole process and observes once.
public final class ThemeService: @unchecked Sendable {
    public static let shared = ThemeService()
    public let changes = Counter()
    public init() {}
    private var token: (any NSObjectProtocol)?
    private let lock = NSLock()

    /// Registers once, on first call.
    public func start(center: any NotificationCenterProtocol = Observers.center) {
        lock.withLock {
            guard token == nil else { return }
            let changes = self.changes
            token = center.addObserver(forName: .journeyThemeChanged, object: nil, queue: nil) { _ in changes.bump() }
        }
    }
}

/// A screen whose `for await` loop over `.scanFinished` runs in a detached task.
public final class DetachedListener: @unchecked Sendable {
    private var task: Task<Void, Never>?
    private let deliveries = AsyncStream<Void>.makeStream()

    public init() {}

    /// Starts the loop and waits until it listens.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public func start(center: (any NotificationCenterProtocol)? = nil) async {
        let delivered = deliveries.continuation
        let listening = AsyncStream<Void>.makeStream()
        task = Task.detached {
            let notifications = (center ?? Observers.center).postedNotifications(named: .scanFinished)
            var iterator = notifications.makeAsyncIterator()
            listening.continuation.yield()
            while await iterator.next() != nil { delivered.yield() }
        }
        var ready = listening.stream.makeAsyncIterator()
        _ = await ready.next()
    }

    /// Waits for the loop's next notification.
    public func nextDelivery() async {
        var iterator = deliveries.stream.makeAsyncIterator()
        _ = await iterator.next()
    }

    public func stop() { task?.cancel() }
}

/// A shared manager that posts from its own queue with itself as the sender
/// (the seed articles' `sharedInstance` shape), and a screen that watches it.
public final class Beacon: Sendable {
    public static let shared = Beacon()
    private let queue = DispatchQueue(label: "Beacon")
    public init() {}

    /// Posts `.beaconPinged` from the beacon's queue.
    public func ping(center: any NotificationCenterProtocol = Observers.center) {
        queue.async { center.post(name: .beaconPinged, object: self) }
    }
}

public final class BeaconWatcher: @unchecked Sendable {
    public let pings = Counter()
    private let center: any NotificationCenterProtocol
    private var token: (any NSObjectProtocol)?

    public init(_ beacon: Beacon, center: any NotificationCenterProtocol = Observers.center) {
        self.center = center
        let pings = self.pings
        token = center.addObserver(forName: .beaconPinged, object: beacon, queue: nil) { _ in pings.bump() }
    }

    public func stopWatching() {
        if let token { center.removeObserver(token) }
        token = nil
    }
}
