import Foundation
import Podcast
import Testing

/// The same wirings with the production registries (no harness): each bug the
/// harness reports is one a user would see. Each test makes its own center, so
/// parallel tests never hear each other.
@MainActor
@Suite struct WhatUsersSee {
    let show = Show(id: "swift-talk", title: "Swift Talk")
    var pilot: Episode { Episode(id: "st-1", title: "Pilot", show: show) }

    @Test func badgeRegisteredOnEveryAppearanceCountsOneDownloadTwice() {
        let manager = DownloadManager(center: NotificationCenter())
        let badge = DownloadBadge(manager: manager)
        badge.viewWillAppear()
        badge.viewWillAppear()
        manager.start(pilot)
        manager.finish(pilot)
        #expect(badge.count == 2)
    }

    @Test func legacySubscribeRowSubscribesOncePerListShowingTheShow() {
        let center = NotificationCenter()
        let library = Library()
        let lists = [
            EpisodeListScreen(episodes: [pilot], library: library, center: center),
            EpisodeListScreen(episodes: [pilot], library: library, center: center),
        ]
        LegacyEpisodeRow(episode: pilot, center: center).tapSubscribe()
        #expect(library.shows == ["swift-talk", "swift-talk"])

        let fixed = Library()
        let fixedLists = [
            EpisodeListScreen(episodes: [pilot], library: fixed, center: center),
            EpisodeListScreen(episodes: [pilot], library: fixed, center: center),
        ]
        fixedLists[0].rows[0].tapSubscribe()
        #expect(fixed.shows == ["swift-talk"])
        withExtendedLifetime((lists, fixedLists)) {}
    }

    @Test func sleepTimerNeverSeesThePositionMove() {
        let player = Player(center: NotificationCenter())
        let timer = SleepTimer(player: player)
        let scrubber = Scrubber(player: player)
        player.seek(to: 60)
        #expect(timer.elapsed == 0)
        #expect(scrubber.seconds == 60)
    }

    @Test func downloadButtonFilteringByIDNeverTurnsDownloaded() {
        let center = NotificationCenter()
        let manager = DownloadManager(center: center)
        let byTask = EpisodeDownloadButton(task: manager.start(pilot), center: center)
        let byID = EpisodeDownloadButton(episode: pilot, center: center)
        manager.finish(pilot)
        #expect(byTask.isDownloaded)
        #expect(!byID.isDownloaded)
    }

    @Test func listeningStatsNeverCountAFinishedEpisode() {
        let center = NotificationCenter()
        let player = Player(center: center)
        let stats = ListeningStats(center: center)
        let reporter = PlaybackReporter(center: center)
        player.play(pilot)
        player.finish()
        #expect(stats.episodesFinished == 0)
        #expect(reporter.events == ["start st-1", "finish"])
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func topShowsWidgetNeverUpdates() {
        let center = NotificationCenter()
        let store = RatingsStore(center: center)
        let page = ShowRatingView(show: show, store: store, center: center)
        let widget = TopShowsWidget(store: store, center: center)
        store.rate(show, stars: 5)
        #expect(page.stars == 5)
        #expect(widget.updates == 0)
    }
}
