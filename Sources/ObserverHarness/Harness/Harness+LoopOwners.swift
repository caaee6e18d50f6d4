/// Which object an async loop works for when the app gave no `owner:`: the
/// one object the test tracks (or notes released) that keeps the loop's task
/// in its stored properties, as `task = Task { for await … }` does. The
/// harness searches those objects when the test tracks or releases them,
/// when it settles, and when it analyses.
extension Harness {
    /// Searches `object`'s stored properties for tasks, from now on and now.
    func watchHeldTasks(of object: AnyObject, id: UInt32) {
        recorder.asyncActivity.noteHolder(object, id: id)
        searchHeldTasks(of: object, id: id)
    }

    /// Searches every tracked object still alive.
    func searchHeldTasks() {
        for (id, object) in recorder.asyncActivity.liveHolders() { searchHeldTasks(of: object, id: id) }
    }

    private func searchHeldTasks(of object: AnyObject, id: UInt32) {
        let tasks = HeldTasks.held(by: object)
        guard !tasks.isEmpty else { return }
        for (loop, owner) in recorder.asyncActivity.noteHeldTasks(tasks, holder: object, holderID: id) {
            recorder.recordLoopOwner(owner, of: loop)
        }
    }

    /// Waits, without recording anything, until every task the test's
    /// objects keep has opened its loop, finished or been cancelled, so that
    /// a check at the end of a test sees loops whose task had not run yet.
    /// At most `maxTurns` scheduler turns; false when that was not enough.
    @discardableResult
    package func awaitHeldTasksStarted(maxTurns: Int = 10_000) async -> Bool {
        searchHeldTasks()
        let activity = recorder.asyncActivity
        var turns = 0
        while !activity.heldTasksStarted, turns < maxTurns {
            await Task.yield()
            turns += 1
        }
        return activity.heldTasksStarted
    }
}

extension Harness {
    /// Cancels every task found in the objects the test tracked: how a test
    /// that shows a loop left running stops it once its findings are checked.
    package func cancelHeldTasks() {
        for task in recorder.asyncActivity.allHeldTasks() { task.cancelTask() }
    }
}

extension Recorder {
    /// Records that `owner` keeps the task of the async loop `loop` (a
    /// `retain` flagged ``EventFlags/loopOwner``).
    func recordLoopOwner(_ owner: UInt32, of loop: UInt32) {
        record(Event(kind: .retain, flags: .loopOwner, object: loop, subject: owner))
    }
}
