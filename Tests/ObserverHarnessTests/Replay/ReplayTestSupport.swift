import Testing

@testable import ObserverHarness

/// Replay, exploration and scenario-parser tests: what each step and each
/// documented delivery rule does to real objects, where invalid input is
/// reported, and that reports are deterministic.
@Suite enum ReplayTests {}

extension Replay.Result {
    /// The final shared state, each value as compact JSON.
    var state: [String: String] { outcome.state.mapValues { $0.serialized(.compact) } }

    /// Every value a `read` saw, as compact JSON (cut at 120 characters), sorted.
    var readValues: [String] { outcome.reads.values.map(\.preview).sorted() }

    /// The objects of every event of `kind`, by name, in recording order.
    func objects(of kind: EventKind) -> [String] {
        recording.events.filter { $0.kind == kind }.map { recording.objectName($0.object) }
    }

    /// How many events of `kind` were recorded.
    func count(of kind: EventKind) -> Int { recording.events.count { $0.kind == kind } }
}
