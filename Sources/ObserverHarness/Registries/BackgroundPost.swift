import Dispatch

/// Makes a post on a background thread and waits until its delivery ends,
/// for ``Harness/PostThread/background``.
enum BackgroundPost {
    /// A global queue's worker is never the main thread, nor the main
    /// actor's executor, whatever the caller's thread.
    static func run(_ post: @escaping @Sendable () -> Void) {
        let delivered = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            post()
            delivered.signal()
        }
        delivered.wait()
    }
}
