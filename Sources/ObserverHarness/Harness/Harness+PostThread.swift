extension Harness {
    /// Which thread the harness's notification centers make a post on.
    ///
    /// Foundation delivers a `queue: nil` observer on the posting thread, so an
    /// observer that only works on the main actor (it calls
    /// `MainActor.assumeIsolated`, or touches main-thread state) breaks the day
    /// something posts from a background thread. Run the same test body with
    /// both values to find it in a test:
    ///
    /// ```swift
    /// @Test(arguments: [Harness.PostThread.caller, .background])
    /// func footerFollowsDownloads(posts: Harness.PostThread) {
    ///     let harness = Harness(posts: posts)
    ///     withObserverHarness(harness) {
    ///         let footer = DownloadsFooter()
    ///         DownloadManager().finish(episode)  // posts .downloadDidFinish
    ///         _ = footer
    ///     }
    ///     assertFindings(harness, .none())  // `delivery-off-isolation` when `.background` reaches a main-actor observer
    /// }
    /// ```
    ///
    /// An observer that traps off the main actor takes the test process down
    /// with it: run that body as an exit test, in a child process (see
    /// <doc:BackgroundPosts>).
    public enum PostThread: Sendable, Hashable, CustomStringConvertible {
        /// On the thread that calls `post`, as Foundation does.
        case caller
        /// On a background thread: `post` hands the post to another thread
        /// and waits until every observer has run, so the test reads as
        /// before. A post made by an observer during delivery stays on its
        /// thread.
        case background

        public var description: String {
            switch self {
            case .caller: "posts on the caller's thread"
            case .background: "posts from a background thread"
            }
        }
    }
}
