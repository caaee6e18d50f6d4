import ObserverHarness
import Podcast

/// The system hands over a downloaded file while the Downloads list shows.
@MainActor
public enum BackgroundDownloadScenes {
    nonisolated static let episode = Episode(
        id: "st-1", title: "Pilot",
        show: Show(id: "swift-talk", title: "Swift Talk"))

    /// The session tells the app from its own queue (1.x), or from the main
    /// actor (2.0). Returns the footer's text.
    public static func fileArrives(postedOnTheMainActor: Bool, in harness: Harness) async -> String {
        await withObserverHarness(harness) {
            let footer = DownloadsFooter()
            let session = BackgroundDownloadSession()
            if postedOnTheMainActor {
                await session.didFinishDownloadingOnMain(episode)
            } else {
                await Task.detached { session.didFinishDownloading(episode) }.value
            }
            return footer.footer.text.value
        }
    }
}
