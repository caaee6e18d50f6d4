extension Harness {
    /// Waits until the harness's async observers have nothing under way:
    /// every async-message delivery enqueued has run, the main actor has
    /// taken every job it was given before the call, every task an object
    /// the test tracks keeps in its stored properties has opened its loop,
    /// finished or been cancelled, and every async loop whose owner
    /// deallocated or was released has ended. Call it before checking
    /// findings in a test that uses async messages or `for await` loops. A
    /// loop started in a `Task` opens (registers) when the task first runs:
    /// a main-actor object's `Task { for await … }` made before the call has
    /// opened its loop when `settle()` returns, tracked or not (the main actor
    /// takes its jobs in order); a task kept by a tracked object is waited
    /// for without being named, wherever it runs; `loopsOpened` also waits
    /// until that many loops have opened in this harness, for loops in tasks
    /// off the main actor that no tracked object keeps.
    ///
    /// It never sleeps: it yields to the scheduler at most `maxTurns` times
    /// (tests running in parallel on the main actor share its turns, hence
    /// the generous default; a settled check returns at its first turn),
    /// checking after each turn. When the work has not settled by then (a
    /// loop that never ends, which is what `async-observer-outlives-owner`
    /// reports), it stops and says so: it returns false, and the recording
    /// notes the limit, which findings quote.
    ///
    /// ```swift
    /// var screen: ThemeScreen? = ThemeScreen(center: center)  // starts a `for await` loop in a Task
    /// await harness.settle(loopsOpened: 1)
    /// screen = nil                                            // its deinit cancels the loop's task
    /// await harness.settle()
    /// assertFindings(harness, .none())
    /// ```
    @discardableResult
    public func settle(
        loopsOpened: Int = 0, maxTurns: Int = 100_000,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> Bool {
        searchHeldTasks()
        let activity = recorder.asyncActivity
        activity.enqueueMainActorTurn()
        var turns = 0
        while !activity.isSettled(loopsOpened: loopsOpened), turns < maxTurns {
            await Task.yield()
            turns += 1
        }
        let settled = activity.isSettled(loopsOpened: loopsOpened)
        recorder.record(
            Event(
                kind: .settle, channel: recorder.intern(settled ? "settled" : "turn-limit"),
                registration: UInt32(clamping: turns)),
            at: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return settled
    }
}
