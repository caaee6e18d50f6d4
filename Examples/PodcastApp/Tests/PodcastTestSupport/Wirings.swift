import ObserverHarness
import Podcast

private let show = Show(id: "swift-talk", title: "Swift Talk")
private let pilot = Episode(id: "st-1", title: "Pilot", show: show)
private let followUp = Episode(id: "st-2", title: "Follow-up", show: show)

/// Every wiring of the app the tests check, one per rule (two where a rule
/// has two causes). The buggy run of each leaves the app as a user would: the
/// screens it closed released, the others still on screen.
@MainActor
public enum Wirings {
    /// Every wiring, in catalogue order.
    public static var all: [Wiring] {
        var typed: [Wiring] = []
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) { typed = [discardedTypedToken] }
        var tracked: [Wiring] = []
        if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) { tracked = [observationNotRearmed] }
        return [
            notifyAfterDealloc, strongObserverList, strongDelegate, blockCapturingSelf,
            blockCapturingSelfInAWrapper, observedObjectDeallocated, discardedToken,
        ] + typed
            + [
                discardedPropertyObservation, duplicateObserver, duplicateBlock, unbalancedRemoval,
                mutationDuringNotify,
                notificationCycle, broadcastAsCommand, delegateAsBroadcast, delegateOverwritten,
                singleReceiverBroadcast,
                unobservedPost, channelNameTypo, valueObjectFilter,
            ] + tracked
    }

    // MARK: Lifetimes

    /// CarPlay's template observes the player KVO style and never removes
    /// itself; when it goes, the next episode is delivered to a dead object.
    public static var notifyAfterDealloc: Wiring {
        Wiring(
            "notify-after-dealloc", "Player.swift",
            buggy: { _ in
                let player = Player()
                let reporter = PlaybackReporter()
                var carPlay: CarPlayNowPlaying? = CarPlayNowPlaying(player: player)
                player.play(pilot)
                carPlay = nil
                player.finish()
                return [player, reporter] + [carPlay].compactMap { $0 }
            },
            clean: { _ in
                let player = Player()
                let reporter = PlaybackReporter()
                var bar: MiniPlayerBar? = MiniPlayerBar(player: player)
                player.play(pilot)
                bar = nil
                player.finish()
                return [player, reporter] + [bar].compactMap { $0 }
            })
    }

    /// The storage meter stays in the download manager's (weak) list after
    /// it is gone.
    public static var danglingRegistration: Wiring {
        Wiring(
            "dangling-registration", "Downloads.swift",
            buggy: { _ in
                let manager = DownloadManager()
                var meter: StorageMeter? = StorageMeter(manager: manager)
                meter = nil
                return [manager] + [meter].compactMap { $0 }
            },
            clean: { _ in
                let manager = DownloadManager()
                var screen: DownloadsScreen? = DownloadsScreen(manager: manager)
                screen?.viewDidLoad()
                screen?.close()
                screen = nil
                return [manager] + [screen].compactMap { $0 }
            })
    }

    /// The player's 1.0 observer array holds the Up Next screen after the
    /// user closed it.
    public static var strongObserverList: Wiring {
        Wiring(
            "registration-keeps-observer-alive", "Player.swift",
            marker: "registration-keeps-observer-alive (strong list)", leaks: true,
            buggy: { harness in
                let player = Player()
                var queue: QueueScreen? = QueueScreen(player: player)
                player.enqueue(pilot)
                harness.noteReleased(queue!)
                queue = nil
                return [player]
            },
            clean: { harness in
                let player = Player()
                var queue: QueueScreen? = QueueScreen(player: player)
                player.enqueue(pilot)
                queue?.close()
                harness.noteReleased(queue!)
                queue = nil
                return [player]
            })
    }

    /// The playback controls hold their screen strongly, and the screen owns
    /// its controls.
    public static var strongDelegate: Wiring {
        Wiring(
            "registration-keeps-observer-alive", "NowPlaying.swift",
            marker: "registration-keeps-observer-alive (strong delegate)", leaks: true,
            buggy: { harness in
                let player = Player()
                var screen: NowPlayingScreen? = NowPlayingScreen(player: player)
                screen?.controls.tapSkip()
                harness.noteReleased(screen!)
                screen = nil
                return [player]
            },
            clean: { harness in
                let player = Player()
                var screen: NowPlayingScreen? = NowPlayingScreen(player: player)
                screen?.controls.tapSkip()
                screen?.close()
                harness.noteReleased(screen!)
                screen = nil
                return [player]
            })
    }

    /// The charts screen's block captures `self` and the screen keeps the
    /// block's token: released without `close()`, it is never freed.
    public static var blockCapturingSelf: Wiring {
        Wiring(
            "registration-keeps-observer-alive", "Feed.swift",
            marker: "registration-keeps-observer-alive (block)", leaks: true,
            buggy: { harness in
                var charts: ChartsScreen? = ChartsScreen()
                harness.noteReleased(charts!)
                charts = nil
                return []
            },
            clean: { harness in
                var charts: ChartsScreen? = ChartsScreen()
                charts?.close()
                harness.noteReleased(charts!)
                charts = nil
                return []
            })
    }

    /// The trending screen's block captures `self`, and the screen keeps the
    /// token inside a `Subscription`.
    public static var blockCapturingSelfInAWrapper: Wiring {
        Wiring(
            "registration-keeps-observer-alive", "Feed.swift",
            marker: "registration-keeps-observer-alive (block in a wrapper)", leaks: true,
            buggy: { harness in
                var trending: TrendingScreen? = TrendingScreen()
                harness.noteReleased(trending!)
                trending = nil
                return []
            },
            clean: { harness in
                let cache = AccountCache()
                var feed: FeedScreen? = FeedScreen(cache: cache)
                feed?.viewDidLoad()
                harness.noteReleased(feed!)
                feed = nil
                return [cache]
            })
    }

    /// The progress ring still observes the task the manager freed.
    public static var observedObjectDeallocated: Wiring {
        Wiring(
            "observed-object-deallocated", "DownloadRows.swift",
            buggy: { _ in
                let manager = DownloadManager()
                let toast = DownloadToast()
                let ring = ProgressRing(task: manager.start(pilot))
                manager.receive(0.5, for: pilot)
                manager.finish(pilot)
                return [manager, toast, ring]
            },
            clean: { _ in
                let manager = DownloadManager()
                let toast = DownloadToast()
                let row = DownloadRow(task: manager.start(pilot), manager: manager)
                manager.receive(0.5, for: pilot)
                manager.finish(pilot)
                return [manager, toast, row]
            })
    }

    /// The profile badge drops its token.
    public static var discardedToken: Wiring {
        Wiring(
            "discarded-token", "Session.swift",
            buggy: { _ in
                let session = SessionStore()
                let cache = AccountCache()
                let badge = ProfileBadge(cache: cache)
                session.logIn(as: "ada")
                return [session, cache, badge]
            },
            clean: { _ in
                let session = SessionStore()
                let cache = AccountCache()
                let feed = FeedScreen(cache: cache)
                session.logIn(as: "ada")
                return [session, cache, feed]
            })
    }

    /// The top-shows widget drops its typed-message token, which ends its
    /// observation at once: it never updates.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    public static var discardedTypedToken: Wiring {
        Wiring(
            "discarded-token", "Ratings.swift", marker: "discarded-token (typed)",
            buggy: { _ in
                let store = RatingsStore()
                let page = ShowRatingView(show: show, store: store)
                let widget = TopShowsWidget(store: store)
                store.rate(show, stars: 5)
                return [store, page, widget]
            },
            clean: { _ in
                let store = RatingsStore()
                let page = ShowRatingView(show: show, store: store)
                store.rate(show, stars: 5)
                return [store, page]
            })
    }

    /// The sleep timer drops its property observation, which ends it at once.
    public static var discardedPropertyObservation: Wiring {
        Wiring(
            "discarded-token", "Player.swift", marker: "discarded-token (property)",
            buggy: { _ in
                let player = Player()
                let timer = SleepTimer(player: player)
                player.seek(to: 60)
                return [player, timer]
            },
            clean: { _ in
                let player = Player()
                let scrubber = Scrubber(player: player)
                player.seek(to: 60)
                return [player, scrubber]
            })
    }

    // MARK: Registrations

    /// The downloads badge registers on every appearance.
    public static var duplicateObserver: Wiring {
        Wiring(
            "duplicate-registration", "Downloads.swift", marker: "duplicate-registration (observer)",
            buggy: { _ in
                let manager = DownloadManager()
                let toast = DownloadToast()
                let badge = DownloadBadge(manager: manager)
                badge.viewWillAppear()
                manager.start(pilot)
                badge.viewWillAppear()
                manager.finish(pilot)
                return [manager, toast, badge]
            },
            clean: { _ in
                // Two badges (two windows), each registering once.
                let manager = DownloadManager()
                let toast = DownloadToast()
                let badges = [DownloadBadge(manager: manager), DownloadBadge(manager: manager)]
                for badge in badges { badge.viewWillAppear() }
                manager.start(pilot)
                manager.finish(pilot)
                return [manager, toast] + badges
            })
    }

    /// The inbox registers a block on every appearance, keeping the tokens.
    public static var duplicateBlock: Wiring {
        Wiring(
            "duplicate-registration", "Feed.swift", marker: "duplicate-registration (block)",
            buggy: { harness in
                let cache = AccountCache()
                let inbox = InboxScreen()
                harness.track(inbox, label: "inbox")
                let feed = FeedScreen(cache: cache)
                feed.viewDidLoad()
                inbox.viewWillAppear()
                inbox.viewWillAppear()
                PullToRefresh().pull()
                return [cache, inbox, feed]
            },
            clean: { harness in
                // Two inboxes (two windows), each registering once.
                let inboxes = [InboxScreen(), InboxScreen()]
                for (index, inbox) in inboxes.enumerated() {
                    harness.track(inbox, label: "inbox \(index + 1)")
                    inbox.viewWillAppear()
                }
                PullToRefresh().pull()
                return inboxes
            })
    }

    /// The downloads screen removes itself on close even when it never loaded.
    public static var unbalancedRemoval: Wiring {
        Wiring(
            "unbalanced-removal", "Downloads.swift",
            buggy: { _ in
                let manager = DownloadManager()
                DownloadsScreen(manager: manager).close()
                return [manager]
            },
            clean: { _ in
                let manager = DownloadManager()
                let screen = DownloadsScreen(manager: manager)
                screen.viewDidLoad()
                screen.close()
                return [manager]
            })
    }

    // MARK: Deliveries

    /// Auto-download removes itself from the manager's list while the list
    /// is delivering; the toast removes its center registration in its
    /// handler, which a notification center allows.
    public static var mutationDuringNotify: Wiring {
        Wiring(
            "mutation-during-notify", "Downloads.swift",
            buggy: { _ in
                let manager = DownloadManager()
                let toast = DownloadToast()
                let auto = AutoDownloadNext(manager: manager, next: followUp)
                let screen = DownloadsScreen(manager: manager)
                screen.viewDidLoad()
                manager.start(pilot)
                manager.finish(pilot)
                return [manager, toast, auto, screen]
            },
            clean: { _ in
                let manager = DownloadManager()
                let toast = DownloadToast()
                let screen = DownloadsScreen(manager: manager)
                screen.viewDidLoad()
                manager.start(pilot)
                manager.finish(pilot)
                return [manager, toast, screen]
            })
    }

    /// Settings sync (1.3) announces its merge with the name it observes:
    /// an endless re-post loop, which the harness cuts.
    public static var notificationCycle: Wiring {
        Wiring(
            "notification-cycle", "Settings.swift",
            buggy: { _ in
                let store = SettingsStore()
                let sync = SettingsSync(store: store, announcement: .settingsDidChange)
                store.setPlaybackSpeed(1.5)
                return [store, sync]
            },
            clean: { _ in
                let store = SettingsStore()
                let sync = SettingsSync(store: store)
                let button = SpeedButton(store: store)
                store.setPlaybackSpeed(1.5)
                return [store, sync, button]
            })
    }

    // MARK: Design

    /// A 1.x row's "Subscribe" reaches both lists showing the show, and each subscribes.
    public static var broadcastAsCommand: Wiring {
        Wiring(
            "broadcast-as-command", "Library.swift",
            buggy: { harness in
                let library = Library { harness.noteAction(.append("library.shows", value: $0.id)) }
                let lists = [
                    EpisodeListScreen(episodes: [pilot], library: library),
                    EpisodeListScreen(episodes: [followUp], library: library),
                ]
                LegacyEpisodeRow(episode: pilot).tapSubscribe()
                return [library] + lists
            },
            clean: { harness in
                let library = Library { harness.noteAction(.append("library.shows", value: $0.id)) }
                let lists = [
                    EpisodeListScreen(episodes: [pilot], library: library),
                    EpisodeListScreen(episodes: [followUp], library: library),
                ]
                lists[0].rows[0].tapSubscribe()
                return [library] + lists
            })
    }

    /// The 1.x keyboard router forwards one callback by hand to two screens.
    public static var delegateAsBroadcast: Wiring {
        Wiring(
            "delegate-as-broadcast", "Keyboard.swift",
            buggy: { _ in
                let watcher = KeyboardWatcher()
                let router = KeyboardRouter()
                let search = SearchScreen(field: SearchField())
                let comments = CommentsScreen()
                watcher.delegate.set(router)
                router.search.set(search)
                router.comments.set(comments)
                watcher.systemKeyboardWillShow(height: 300)
                return [watcher, router, search, comments]
            },
            clean: { _ in
                let watcher = KeyboardWatcher()
                let router = FocusedKeyboardRouter()
                let search = SearchScreen(field: SearchField())
                watcher.delegate.set(router)
                router.focused.set(search)
                watcher.systemKeyboardWillShow(height: 300)
                return [watcher, router, search]
            })
    }

    /// The suggestions panel takes the search field's delegate from the live
    /// search screen; the clean version hands it over first.
    public static var delegateOverwritten: Wiring {
        Wiring(
            "delegate-overwritten", "Search.swift",
            buggy: { _ in
                let field = SearchField()
                let screen = SearchScreen(field: field)
                let panel = SuggestionsPanel()
                field.type("swift")
                panel.attach(to: field)
                field.type("swift talk")
                return [field, screen, panel]
            },
            clean: { _ in
                let field = SearchField()
                let screen = SearchScreen(field: field)
                let panel = SuggestionsPanel()
                field.type("swift")
                screen.endEditing()
                panel.attach(to: field)
                field.type("swift talk")
                return [field, screen, panel]
            })
    }

    /// Pull to refresh is only ever heard by the feed: a call dressed as a
    /// broadcast. Clean: the inbox listens too.
    public static var singleReceiverBroadcast: Wiring {
        Wiring(
            "single-receiver-broadcast", "Feed.swift",
            buggy: { _ in
                let cache = AccountCache()
                let feed = FeedScreen(cache: cache)
                feed.viewDidLoad()
                let control = PullToRefresh()
                control.pull()
                control.pull()
                return [cache, feed]
            },
            clean: { _ in
                let cache = AccountCache()
                let feed = FeedScreen(cache: cache)
                let inbox = InboxScreen()
                feed.viewDidLoad()
                inbox.viewWillAppear()
                let control = PullToRefresh()
                control.pull()
                control.pull()
                return [cache, feed, inbox]
            })
    }

    /// Playback starts, and nobody listens (the reporter was removed).
    public static var unobservedPost: Wiring {
        Wiring(
            "unobserved-post", "Player.swift",
            buggy: { _ in
                let player = Player()
                player.play(pilot)
                return [player]
            },
            clean: { _ in
                let player = Player()
                let reporter = PlaybackReporter()
                player.play(pilot)
                return [player, reporter]
            })
    }

    /// Listening stats wait for "EpisodeDidFinsh"; the player posts "EpisodeDidFinish".
    public static var channelNameTypo: Wiring {
        Wiring(
            "channel-name-typo", "Analytics.swift",
            buggy: { _ in
                let player = Player()
                let reporter = PlaybackReporter()
                let stats = ListeningStats()
                player.play(pilot)
                player.finish()
                return [player, reporter, stats]
            },
            clean: { _ in
                let player = Player()
                let reporter = PlaybackReporter()
                player.play(pilot)
                player.finish()
                return [player, reporter]
            })
    }

    /// The download button filters by the episode's id, a string.
    public static var valueObjectFilter: Wiring {
        Wiring(
            "value-object-filter", "DownloadRows.swift",
            buggy: { _ in
                let manager = DownloadManager()
                let toast = DownloadToast()
                manager.start(pilot)
                let button = EpisodeDownloadButton(episode: pilot)
                manager.finish(pilot)
                return [manager, toast, button]
            },
            clean: { _ in
                let manager = DownloadManager()
                let toast = DownloadToast()
                let button = EpisodeDownloadButton(task: manager.start(pilot))
                manager.finish(pilot)
                return [manager, toast, button]
            })
    }
}
