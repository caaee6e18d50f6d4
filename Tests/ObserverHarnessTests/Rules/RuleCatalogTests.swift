import Testing

@testable import ObserverHarness

extension Rules {
    /// The catalogue this folder tests, one file per rule.
    @Suite struct Catalogue {
        static let specified: [(id: String, severity: Severity)] = [
            ("notify-after-dealloc", .error), ("dangling-registration", .note),
            ("registration-keeps-observer-alive", .error), ("observed-object-deallocated", .error),
            ("discarded-token", .warning), ("duplicate-registration", .error), ("unbalanced-removal", .warning),
            ("mutation-during-notify", .warning), ("ordering-dependence", .error), ("notification-cycle", .error),
            ("exploration-limit", .note),
            ("broadcast-as-command", .error), ("delegate-as-broadcast", .warning), ("delegate-overwritten", .warning),
            ("single-receiver-broadcast", .note), ("unobserved-post", .note), ("channel-name-typo", .warning),
            ("async-observer-outlives-owner", .error), ("message-dropped", .warning),
            ("value-object-filter", .warning), ("delivery-off-isolation", .error),
            ("observation-not-rearmed", .warning),
            ("escaped-test-scope", .note),
            ("wildcard-misses-foundation-posts", .note),
        ]

        @Test func catalogueListsTheSpecifiedRulesInOrderWithTheirSeverities() {
            #expect(RuleCatalog.all.map(\.id) == Self.specified.map(\.id))
            #expect(RuleCatalog.all.map(\.severity) == Self.specified.map(\.severity))
        }
    }
}
