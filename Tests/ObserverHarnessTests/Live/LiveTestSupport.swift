import Foundation
import Testing

@testable import ObserverHarness

/// Rules fired from the Swift API, the way a team's own tests use it.
@Suite enum Live {}

extension Notification.Name {
    static let liveSettingsChanged = Notification.Name("SettingsChanged")
    static let liveFeedReloaded = Notification.Name("FeedReloaded")
}

/// An app-like object to observe, be observed, or be released.
final class LiveScreen {
    let title: String
    var tokens: [any NSObjectProtocol] = []
    var reloads = 0
    init(_ title: String) { self.title = title }
}

extension Report {
    /// Findings of `rule`.
    func live(_ rule: String) -> [Finding] { findings.filter { $0.rule == rule } }
}

/// The line a `#line` literal stood on, for comparing with findings.
func lineOf(_ location: CodeLocation?) -> UInt? { location?.line }

/// A value a `@Sendable` handler updates; the tests deliver synchronously on
/// one thread, so no lock is needed.
final class LiveBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
