/// Where a top-level step runs (`"isolation"`): the main actor, a background
/// thread, or a named actor. Without it a step is nonisolated code on the
/// main thread, as a test's body is. An `observe` or `set-delegate` made on
/// an actor captures it, as `#isolation` does; deliveries run where the step
/// that posts runs, and so do their handlers' effects.
enum StepIsolation: Sendable, Hashable {
    case mainActor
    case background
    case actor(String)

    static let mainActorName = "main-actor"
    static let backgroundName = "background"

    init(_ text: String) {
        switch text {
        case Self.mainActorName: self = .mainActor
        case Self.backgroundName: self = .background
        default: self = .actor(text)
        }
    }

    /// The ops that register or deliver, where isolation matters.
    static let ops: Set<StepKind> = [.observe, .remove, .post, .set, .setDelegate, .callDelegate, .invoke]
}
