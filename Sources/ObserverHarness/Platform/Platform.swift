// Every platform difference of the core library lives in this file.
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
#if !canImport(Darwin)
    import Synchronization
#endif

/// A mutual-exclusion lock: `os_unfair_lock` on Darwin, `pthread_mutex_t` elsewhere.
///
/// The lock lives in its own allocation so its address never moves, which both
/// primitives require.
final class Lock: @unchecked Sendable {
    #if canImport(Darwin)
        private let primitive: UnsafeMutablePointer<os_unfair_lock>
        init() {
            primitive = .allocate(capacity: 1)
            primitive.initialize(to: os_unfair_lock())
        }
        deinit { primitive.deinitialize(count: 1); primitive.deallocate() }
        @inline(__always) func lock() { os_unfair_lock_lock(primitive) }
        @inline(__always) func unlock() { os_unfair_lock_unlock(primitive) }
    #else
        private let primitive: UnsafeMutablePointer<pthread_mutex_t>
        init() {
            primitive = .allocate(capacity: 1)
            primitive.initialize(to: pthread_mutex_t())
            pthread_mutex_init(primitive, nil)
        }
        deinit {
            pthread_mutex_destroy(primitive)
            primitive.deinitialize(count: 1)
            primitive.deallocate()
        }
        @inline(__always) func lock() { pthread_mutex_lock(primitive) }
        @inline(__always) func unlock() { pthread_mutex_unlock(primitive) }
    #endif

    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

// Two values every routed post reads and that rarely change, read without a
// lock where `Synchronization` needs no newer system than the package's floor
// (on Darwin it needs macOS 15: a lock there, as before).

/// A scope's notification center: made once, under its owner's lock, and
/// read after that without one. (Not generic: unspecialised in a debug build,
/// and `AtomicLazyReference.load()` is an unspecialised call even in release.)
final class OnceCenter: @unchecked Sendable {
    #if canImport(Darwin)
        private let lock = Lock()
        private var value: InstrumentedNotificationCenter?  // guarded by `lock`
        func load() -> InstrumentedNotificationCenter? { lock.withLock { value } }
        func withLoaded(_ body: (InstrumentedNotificationCenter) -> Void) -> Bool {
            guard let center = load() else { return false }
            body(center)
            return true
        }
        /// Called once.
        func store(_ made: InstrumentedNotificationCenter) { lock.withLock { value = made } }
    #else
        /// Holds its center retained once stored.
        private let value = Atomic<Unmanaged<InstrumentedNotificationCenter>?>(nil)
        func load() -> InstrumentedNotificationCenter? { value.load(ordering: .acquiring)?.takeUnretainedValue() }
        /// Runs `body` with the center, if made, without a retain and release
        /// around it: this holds it for its own life.
        @inline(__always)
        func withLoaded(_ body: (InstrumentedNotificationCenter) -> Void) -> Bool {
            guard let center = value.load(ordering: .acquiring) else { return false }
            center._withUnsafeGuaranteedRef(body)
            return true
        }
        /// Called once.
        func store(_ made: InstrumentedNotificationCenter) {
            value.store(Unmanaged.passRetained(made), ordering: .releasing)
        }
        deinit { value.load(ordering: .relaxed)?.release() }
    #endif
}

/// A count written under its owner's lock and read without one.
final class PublishedCount: @unchecked Sendable {
    #if canImport(Darwin)
        private let lock = Lock()
        private var value = 0  // guarded by `lock`
        func load() -> Int { lock.withLock { value } }
        func store(_ count: Int) { lock.withLock { value = count } }
    #else
        private let value = Atomic<Int>(0)
        func load() -> Int { value.load(ordering: .acquiring) }
        func store(_ count: Int) { value.store(count, ordering: .releasing) }
    #endif
}

/// Monotonic nanoseconds since an arbitrary point (boot on both platforms).
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    #if canImport(Darwin)
        return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
    #else
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    #endif
}

/// Per-thread storage for the harness: a small thread number and the event
/// whose handler is running on this thread (so nested events know their cause).
final class ThreadContext {
    let threadNumber: UInt16
    /// The recorder and sequence number of the delivery, delegate call or
    /// method invocation whose body is running on this thread. Only this
    /// thread touches them, so the runtime's exclusivity checks (a call each,
    /// several per delivery) buy nothing.
    @exclusivity(unchecked) var frameRecorder: ObjectIdentifier?
    @exclusivity(unchecked) var frameSequence: UInt32 = Event.none
    /// How many posts, property sets and delegate calls are delivering on
    /// this thread: past the cycle bound, the nesting is checked per channel.
    @exclusivity(unchecked) var deliveryDepth = 0
    /// Where code on this thread runs, as a replay models it; nil live.
    @exclusivity(unchecked) var modelledPlace: ExecutionPlace?
    /// The post the scope router is handing to Foundation's center on this
    /// thread, which its bridge observer lets pass.
    @exclusivity(unchecked) var forwardedPost: ForwardedPost?
    /// Where the outermost delivery in progress on this thread runs, once
    /// asked: nested deliveries are synchronous, so they run there too.
    @exclusivity(unchecked) var deliveryPlace: ExecutionPlace?

    init(threadNumber: UInt16) {
        self.threadNumber = threadNumber
    }

    private static let numbering = ThreadNumbering()

    /// The calling thread's context, created on first use.
    @inline(__always)
    static var current: ThreadContext {
        if let raw = pthread_getspecific(threadContextKey) {
            return Unmanaged<ThreadContext>.fromOpaque(raw).takeUnretainedValue()
        }
        let context = ThreadContext(threadNumber: numbering.next())
        pthread_setspecific(threadContextKey, Unmanaged.passRetained(context).toOpaque())
        return context
    }

    /// Runs `body` with the calling thread's context, without the retain and
    /// release `current` costs (two atomic operations): the thread holds it.
    @inline(__always)
    static func withCurrent<Result>(_ body: (ThreadContext) -> Result) -> Result {
        guard let raw = pthread_getspecific(threadContextKey) else { return body(current) }
        return Unmanaged<ThreadContext>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
    }
}

private final class ThreadNumbering: @unchecked Sendable {
    private let lock = Lock()
    private var counter: UInt16 = 0
    func next() -> UInt16 {
        lock.withLock {
            counter = counter == .max ? 1 : counter &+ 1
            return counter
        }
    }
}

private let threadContextKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { raw in
        #if canImport(Darwin)
            Unmanaged<ThreadContext>.fromOpaque(raw).release()
        #else
            if let raw { Unmanaged<ThreadContext>.fromOpaque(raw).release() }
        #endif
    }
    return key
}()

/// A file open for reading, through open(2), fstat(2), read(2) and close(2):
/// what ``InputFile`` needs to read an untrusted file a bounded amount.
struct ReadableFile {
    private let descriptor: Int32

    /// Opens `path`, or returns nil with ``lastError`` set.
    init?(path: String) {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
    }

    /// The size of a regular file; nil for a pipe, a device and the like.
    var regularFileSize: Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Reads into `buffer`: the count read, 0 at the end, nil on an error.
    func readSome(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { return nil }
        }
    }

    func closeFile() { close(descriptor) }

    /// What the last failed call says went wrong.
    static var lastError: String { String(cString: strerror(errno)) }
}

/// What Foundation's own registries do where the platforms differ, so the
/// drop-ins call whom Foundation calls on the platform they run on.
enum FoundationBehavior {
    /// Whether `NotificationCenter.post` still delivers to a registration a
    /// handler removed during that post. swift-corelibs-foundation collects
    /// the receivers before delivering and calls each one collected. On
    /// Darwin the drop-in keeps the rule README documents: a registration
    /// removed during a post receives nothing more.
    static let centerDeliversToRemovedDuringPost: Bool = {
        #if canImport(Darwin)
            false
        #else
            true
        #endif
    }()
}
