import ObserverHarness
import Podcast

/// Pages that follow the theme with a `for await` loop, closed by the user.
/// Async, as the loops are: every wait is a bounded number of scheduler
/// turns, never a sleep.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor
public enum ThemeLoopScenes {
    /// Opens an episode page, changes the theme, closes the page. Returns the
    /// page's loop, which the buggy page never ends: cancel it when done.
    public static func closeEpisodePage(in harness: Harness) async -> Task<Void, Never>? {
        await withObserverHarness(harness) {
            let theme = ThemeStore()
            var page: EpisodeScreen? = EpisodeScreen()
            harness.track(page!, label: "episode page")
            await untilTheLoopListens(harness)
            theme.toggle()
            await harness.settle()
            let loop = page?.themeUpdates
            harness.noteReleased(page!)
            page = nil
            await harness.settle(maxTurns: 100)
            return loop
        }
    }

    /// The same with a show page, whose loop holds it weakly and is cancelled
    /// when the page goes.
    public static func closeShowPage(in harness: Harness) async -> Task<Void, Never>? {
        await withObserverHarness(harness) {
            let theme = ThemeStore()
            var page: ShowScreen? = ShowScreen()
            harness.track(page!, label: "show page")
            await untilTheLoopListens(harness)
            theme.toggle()
            await harness.settle()
            let loop = page?.themeUpdates
            harness.noteReleased(page!)
            page = nil
            await loop?.value
            await harness.settle()
            return loop
        }
    }

    /// A loop started in a task registers when the task first runs.
    private static func untilTheLoopListens(_ harness: Harness) async {
        for _ in 0..<10_000 where harness.defaultCenter.registrationCount == 0 {
            await Task.yield()
        }
    }
}
