import ObserverHarness
import Podcast

/// A ratings sync confirmed by the server while the Settings screen shows
/// its "Synced" list.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@MainActor
public enum RatingsSyncScenes {
    static let shows = (1...5).map { Show(id: "show-\($0)", title: "Show \($0)") }

    /// The server confirms `count` ratings at once, then the screen refreshes;
    /// returns the shows the list says are synced.
    public static func confirmSync(of count: Int, in harness: Harness) async -> [String] {
        await withObserverHarness(harness) {
            let store = RatingsStore()
            let list = SyncStatusList(store: store)
            store.receiveConfirmations(for: Array(shows.prefix(count)))
            await harness.settle()
            await list.refresh(reading: min(count, 2))
            return list.synced
        }
    }
}
