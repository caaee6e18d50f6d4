#if compiler(>=6.2)
    import Foundation
    import Observation

    extension Observers {
        /// The Observation framework's `Observations` sequence, recorded when a
        /// harness is in scope.
        ///
        /// In the app it is `Observations(emit)`: iterating it yields `emit()`'s
        /// value now, then again after each transaction that changed what `emit`
        /// read (changes made in one turn arrive merged), until the iterating task
        /// is cancelled. Keep the task, cancel it when its owner goes, and let
        /// neither the task nor `emit` hold the owner strongly:
        ///
        /// ```swift
        /// task = Task { [weak self, cart] in
        ///     for await count in Observers.observations(owner: self, { cart.items.count }) {
        ///         self?.badge.count = count
        ///     }
        /// }
        /// // in deinit (or when the screen closes)
        /// task?.cancel()
        /// ```
        ///
        /// Inside `withObserverHarness` (or a `Task` started in it) the harness
        /// records the loop as it records a `for await` over notifications: where
        /// it began, for which `owner`, each value it took and how it ended. A
        /// loop still running after the app released its owner is
        /// `async-observer-outlives-owner`.
        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        public static func observations<Element: Sendable>(
            owner: AnyObject? = nil,
            fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
            column: UInt = #column,
            @_inheritActorContext _ emit: @escaping @isolated(any) @Sendable () -> Element
        ) -> TrackedObservations<Element> {
            let base = Observations<Element, Never>(emit)
            guard let provider = RegistryScope.provider as? any ObservationsProvider else {
                return TrackedObservations(base: base, recording: nil)
            }
            let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            return TrackedObservations(
                base: base,
                recording: ObservationsLoopStart(
                    provider: provider, owner: owner,
                    location: location))
        }
    }

    /// What ``Observers/observations(owner:fileID:filePath:line:column:_:)``
    /// returns: the framework's `Observations`, and in a test the harness's
    /// record of the loop iterating it.
    ///
    /// ```swift
    /// for await count in Observers.observations(owner: self, { cart.items.count }) {
    ///     badge.count = count
    /// }
    /// ```
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    public struct TrackedObservations<Element: Sendable>: AsyncSequence, Sendable {
        public typealias Failure = Never

        private let base: Observations<Element, Never>
        private let recording: ObservationsLoopStart?

        init(base: Observations<Element, Never>, recording: ObservationsLoopStart?) {
            self.base = base
            self.recording = recording
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: base.makeAsyncIterator(), loop: recording.map { ObservationsLoop($0.start()) })
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            public typealias Failure = Never

            private var base: Observations<Element, Never>.Iterator
            private let loop: ObservationsLoop?

            init(base: Observations<Element, Never>.Iterator, loop: ObservationsLoop?) {
                self.base = base
                self.loop = loop
            }

            public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
                guard let loop else { return await base.next(isolation: actor) }
                // Cancelling the task ends the sequence: recorded then, on the
                // cancelling thread (an owner's deinit), not when the task next
                // runs, so a check right after the release sees the loop ended.
                let value = await withTaskCancellationHandler {
                    await base.next(isolation: actor)
                } onCancel: {
                    loop.cancelled()
                }
                loop.took(value != nil)
                return value
            }

            public mutating func next() async -> Element? {
                await next(isolation: nil)
            }
        }
    }

    /// The harness's side of ``Observers/observations(owner:fileID:filePath:line:column:_:)``.
    package protocol ObservationsProvider: RegistryProvider {
        /// A loop began iterating an `Observations` made at `location`.
        func observationsLoopStarted(owner: AnyObject?, location: CodeLocation) -> any AsyncObservationEvents
    }

    /// Starts the record of a loop when iteration starts. The owner is held
    /// weakly: the sequence must not keep alive what it reports on.
    final class ObservationsLoopStart: @unchecked Sendable {
        private let provider: any ObservationsProvider
        private let location: CodeLocation
        // Written once, in init; a weak load is thread-safe.
        private weak var owner: AnyObject?

        init(provider: any ObservationsProvider, owner: AnyObject?, location: CodeLocation) {
            self.provider = provider
            self.owner = owner
            self.location = location
        }

        func start() -> any AsyncObservationEvents {
            provider.observationsLoopStarted(owner: owner, location: location)
        }
    }

    /// One iteration's record: each value taken, and how it ended (once).
    final class ObservationsLoop: Sendable {
        private let events: any AsyncObservationEvents
        private let isEnded = LockedFlag()

        init(_ events: any AsyncObservationEvents) {
            self.events = events
        }

        /// `next()` returned: a value, or nil because the task was cancelled or
        /// the sequence finished.
        func took(_ gotValue: Bool) {
            if gotValue {
                // A value the framework hands on after the cancel is not recorded past the end.
                if !isEnded.isSet { events.consumed(tag: 0) }
            } else {
                end(Task.isCancelled ? .cancelled : .finished)
            }
        }

        /// The iterating task was cancelled: the sequence ends.
        func cancelled() {
            end(.cancelled)
        }

        private func end(_ how: AsyncObservationEnd) {
            if isEnded.setOnce() { events.ended(how) }
        }

        deinit {
            end(.iteratorGone)
        }
    }

    /// A flag set at most once, from any thread.
    private final class LockedFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var storedIsSet = false  // guarded by `lock`

        var isSet: Bool { lock.locked { storedIsSet } }

        /// Sets the flag; true only for the call that set it.
        func setOnce() -> Bool {
            lock.locked {
                defer { storedIsSet = true }
                return !storedIsSet
            }
        }
    }
#endif
