/// A `Task` handle found in an app object's stored properties. A loop's own
/// task is what ties it to the object that started it: the object that keeps
/// the handle (`task = Task { for await … }`) is the loop's owner, with no
/// `owner:` argument.
protocol HeldTask: Sendable {
    /// The task's identity: equal to the `hashValue` of the
    /// `UnsafeCurrentTask` the same task sees (both hash the task's address).
    var taskIdentity: Int { get }
    var isTaskCancelled: Bool { get }
    func cancelTask()
    /// Returns when the task has finished; never cancels or escalates it
    /// beyond the caller's priority.
    func waitUntilFinished() async
}

extension Task: HeldTask {
    var taskIdentity: Int { hashValue }
    var isTaskCancelled: Bool { isCancelled }
    func cancelTask() { cancel() }
    func waitUntilFinished() async { _ = await result }
}

/// The identity of the task running the caller, if it runs in one.
func currentTaskIdentity() -> Int? {
    withUnsafeCurrentTask { $0?.hashValue }
}

/// The task handles an object keeps: in its stored properties, its
/// superclasses' included, directly or inside optionals, collections,
/// structs, enums and tuples. Other class instances are not entered: a task
/// a shared service keeps is the service's, not that of every screen
/// referencing the service.
enum HeldTasks {
    static let depthLimit = 4
    /// How many stored values one object's search reads at most.
    static let valueLimit = 2_000

    static func held(by object: AnyObject) -> [any HeldTask] {
        var found: [any HeldTask] = []
        var budget = valueLimit
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror, budget > 0 {
            for child in current.children { collect(child.value, depth: depthLimit, budget: &budget, into: &found) }
            mirror = current.superclassMirror
        }
        return found
    }

    private static func collect(_ value: Any, depth: Int, budget: inout Int, into found: inout [any HeldTask]) {
        budget -= 1
        guard budget > 0 else { return }
        if let task = value as? any HeldTask {
            found.append(task)
            return
        }
        guard depth > 0, !(type(of: value) is AnyClass) else { return }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle != .class else { return }
        for child in mirror.children { collect(child.value, depth: depth - 1, budget: &budget, into: &found) }
    }
}
