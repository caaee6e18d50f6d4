extension Harness {
    /// The harness whose registries are in place: the one of the innermost
    /// `withObserverHarness` scope the calling task is in, or nil outside any.
    ///
    /// A test run under the `.observerHarness` trait (or an
    /// `ObserverHarnessTestCase`) reaches its harness this way without passing
    /// it around:
    ///
    /// ```swift
    /// @Test(.observerHarness) func oneTapAddsOnce() {
    ///     let harness = Harness.current
    ///     let cart = Cart { harness?.noteAction(.increment("cart.count")) }
    ///     ProductList(cart: cart).tapAddToCart()
    /// }
    /// ```
    ///
    /// It follows the scope: a `Task {}` started inside sees it, work sent
    /// through `DispatchQueue.async` or `Task.detached` does not, nor does a
    /// handler run on another thread: capture it where the test runs.
    public static var current: Harness? {
        (RegistryScope.provider as? HarnessRegistries)?.owner
    }
}
