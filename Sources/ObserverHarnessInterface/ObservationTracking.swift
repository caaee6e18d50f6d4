import Observation

extension Observers {
    /// The Observation framework's `withObservationTracking(_:onChange:)`,
    /// recorded when a harness is in scope.
    ///
    /// In the app it is the framework's function: `apply` runs once, and
    /// `onChange` runs **once**, on the thread that makes the first change to
    /// a value `apply` read, before the value changes. Re-arm it inside
    /// `onChange`, synchronously, to keep observing (re-arming later, from a
    /// `Task`, misses the changes made meanwhile, and is reported):
    ///
    /// ```swift
    /// @MainActor func observeCart() {  // the cart changes on the main actor
    ///     badge.count = Observers.withObservationTracking {
    ///         cart.items.count
    ///     } onChange: { [weak self] in
    ///         MainActor.assumeIsolated { self?.observeCart() }
    ///     }
    /// }
    /// ```
    ///
    /// Inside `withObserverHarness` the harness also watches what `apply` read,
    /// so it records every change (when, on which thread) and whether this
    /// registration was armed to see it: a change after `onChange` fired and
    /// before the next registration is `observation-not-rearmed`, and an
    /// `onChange` run off the registering code's actor is
    /// `delivery-off-isolation`. To keep watching between a firing and the
    /// next registration the harness runs `apply` again, on the actor the app
    /// armed it on: after an `onChange` that ran on another thread, from the
    /// main queue, so a change made before the main queue runs is not seen
    /// (make a test's changes on that actor, or let it run between them).
    /// So `apply` should
    /// only read (as the framework expects it to), and it keeps what `apply`
    /// captures while this registration is armed, at most as long as the
    /// harness itself. `owner` is the object that observes:
    /// once it has deallocated, later changes are nobody's loss.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @discardableResult
    public static func withObservationTracking<T>(
        _ apply: @escaping () -> T, onChange: @autoclosure () -> @Sendable () -> Void, owner: AnyObject? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: (any Actor)? = #isolation
    ) -> T {
        guard let tracker = (RegistryScope.provider as? any ObservationTrackingProvider)?.observationTracker else {
            return Observation.withObservationTracking(apply, onChange: onChange())
        }
        return tracker.track(
            apply, onChange: onChange(), owner: owner,
            location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column, isolation: isolation)
        )
    }
}

/// A registry provider that also records Observation tracking (the harness's).
package protocol ObservationTrackingProvider: RegistryProvider {
    /// Nil where the provider records no tracking.
    var observationTracker: (any ObservationTrackingBackend)? { get }
}

/// The harness's side of ``Observers/withObservationTracking(_:onChange:owner:fileID:filePath:line:column:isolation:)``.
package protocol ObservationTrackingBackend: AnyObject, Sendable {
    func track<T>(
        _ apply: @escaping () -> T, onChange: @escaping @Sendable () -> Void, owner: AnyObject?,
        location: CodeLocation
    ) -> T
}
