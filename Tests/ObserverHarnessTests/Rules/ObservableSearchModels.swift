// Kept apart from the harness's own module, as ObservableCartModels.swift is.
import Observation
import ObserverHarnessInterface

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class SearchQuery: @unchecked Sendable {
    var text = ""
    var suggestions: [String] = []
}

/// Observes the query once (no re-arm); its onChange either tidies the query
/// itself (writes what it tracks) or fills the suggestions (another property).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class SearchFieldObserver: @unchecked Sendable {
    let query: SearchQuery
    let writesWhatItTracks: Bool
    static let observeLine = #line + 7

    init(query: SearchQuery, writesWhatItTracks: Bool) {
        (self.query, self.writesWhatItTracks) = (query, writesWhatItTracks)
    }

    func observe() {
        Observers.withObservationTracking(
            { [query] in query.text },
            onChange: { [self] in
                if writesWhatItTracks {
                    query.text = "tidied"
                } else {
                    query.suggestions = ["swift"]
                }
            }, owner: self)
    }
}
