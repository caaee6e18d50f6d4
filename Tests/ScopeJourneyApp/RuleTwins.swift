import Foundation
import Observation
import ObserverHarnessInterface

// Live twins of the rule pages' examples: app code on the interface product,
// one bug and its clean near miss per example, each doing its observer work
// with the timing disturbed (`Jitter`) before and after handlers, in tasks
// and on queues. A test runs each many times under a harness and expects
// the rule at the twin's marked line, or nothing, every run.
//
// Every rule page's examples have a twin here or in RuleTwinPages.swift.
// Three rules are met live through the test, as a user's test meets them:
// `broadcast-as-command` sees what handlers do through `harness.noteAction`,
// which the app calls through a closure the test gives it
// (`TwinHooks.noteAction`); `ordering-dependence` and `exploration-limit`
// are what the order check (`checkOrderIndependence`) finds and leaves
// unexplored, on a center the test makes for each of its runs
// (`TwinHooks.checkOrder`).
//
// Where a twin differs from its page, and why:
// - `wildcard-misses-foundation-posts` has no page examples (live only):
//   its twins are a debug log's (also `NotificationLogs.swift`, run by
//   `WildcardRegistrationTests`).
// - `escaped-test-scope` has no page examples (live only); its bug shows
//   only where tests may run beside each other: under XCTest, one test at
//   a time, the work is the running test's (`onlyBesideOthers`).
// - `ordering-dependence` is marked at the first receiver's registration,
//   where `assertOrderIndependent` reports it; `exploration-limit` live is
//   the order check's budget of runs, not replay's bounds.
// - `dangling-registration`'s first example registers an observer with a
//   selector, which the interface has no call for (a block freed with its
//   owner is `discarded-token`): it is twinned on a list.
// - No twin, for a reason the rule page gives: `duplicate-registration`'s
//   Observation example (live, the harness cannot tell what two
//   `withObservationTracking` calls at one line read) and
//   `registration-keeps-observer-alive`'s near miss where another object
//   retains the observer (live, another holder cannot be told from the
//   test's own reference).

/// Random short pauses where app code meets the scheduler.
public enum Jitter {
    /// Sleeps up to 200 µs, half of the time.
    public static func pause() {
        guard Bool.random() else { return }
        usleep(UInt32.random(in: 1...200))
    }

    /// Runs `body` on a global queue after a pause, and waits for it.
    public static func onQueue(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                pause()
                body()
                done.resume()
            }
        }
    }
}

/// What a twin asks of the test around it, as the rule pages say: to track
/// an object, to say the app let one go, to wait until async observers
/// have settled, to note what a handler did to shared state, and to run a
/// body under the delivery orders that could change what it returns.
public struct TwinHooks: Sendable {
    public let track: @Sendable (AnyObject) -> Void
    public let release: @Sendable (AnyObject) -> Void
    public let settle: @Sendable () async -> Void
    /// `harness.noteAction`: an increment of `key` (`setTo` nil), or a set.
    public let noteAction: @Sendable (_ key: String, _ setTo: String?) -> Void
    /// `checkOrderIndependence`, the body given a center made for each run.
    public let checkOrder: @Sendable (_ body: (any NotificationCenterProtocol) -> Int) -> Void

    public init(
        track: @escaping @Sendable (AnyObject) -> Void, release: @escaping @Sendable (AnyObject) -> Void,
        settle: @escaping @Sendable () async -> Void,
        noteAction: @escaping @Sendable (_ key: String, _ setTo: String?) -> Void,
        checkOrder: @escaping @Sendable (_ body: (any NotificationCenterProtocol) -> Int) -> Void
    ) {
        self.track = track
        self.release = release
        self.settle = settle
        self.noteAction = noteAction
        self.checkOrder = checkOrder
    }
}

/// One example of a rule page, live.
public struct RuleTwin: Sendable, CustomStringConvertible {
    public let rule: String
    public let name: String
    /// The app line the finding is reported at; nil for a clean near miss.
    public let line: Int?
    /// The file of `line`, as a finding names it.
    public let file: String
    /// Whether the bug needs tests running beside each other: under XCTest,
    /// which runs one test at a time, the work is the running test's and
    /// the twin is clean.
    public let onlyBesideOthers: Bool
    /// At most this many runs in a table: for a twin whose verdict no timing
    /// enters and whose one run is costly.
    public let runsAtMost: Int
    public let run: @Sendable (TwinHooks) async -> Void

    init(
        rule: String, name: String, line: Int?, file: String = #fileID, onlyBesideOthers: Bool = false,
        runsAtMost: Int = .max, run: @escaping @Sendable (TwinHooks) async -> Void
    ) {
        (self.rule, self.name, self.line, self.file) = (rule, name, line, file)
        (self.onlyBesideOthers, self.runsAtMost) = (onlyBesideOthers, runsAtMost)
        self.run = run
    }

    public var isBug: Bool { line != nil }
    public var description: String { "\(rule): \(name) (\(isBug ? "bug" : "near miss"))" }
}

extension Notification.Name {
    static let twinCartSynced = Notification.Name("Twins.CartSynced")
    static let twinBannerDidShow = Notification.Name("Twins.BannerDidShow")
    static let twinMeterReading = Notification.Name("Twins.MeterReading")
    static let twinUploadProgress = Notification.Name("Twins.UploadProgress")
    static let twinUploadFinished = Notification.Name("Twins.UploadFinished")
    static let twinLogout = Notification.Name("Twins.Logout")
    static let twinAddToCart = Notification.Name("Twins.AddToCart")
    static let twinAddToCard = Notification.Name("Twins.AddToCard")
    static let twinTextChanged = Notification.Name("Twins.TextChanged")
    static let twinPreviewChanged = Notification.Name("Twins.PreviewChanged")
}

/// An upload: the sender of its progress.
final class TwinUpload: Sendable {}

/// A box for tokens a handler reads.
final class TokenBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: any NSObjectProtocol] = [:]
    subscript(key: String) -> (any NSObjectProtocol)? {
        get { lock.withLock { stored[key] } }
        set { lock.withLock { stored[key] = newValue } }
    }
}

// MARK: delivery-off-isolation

/// A banner set up on the main actor that announces itself when a sync ends.
@MainActor final class TwinSyncBanner {
    static let registrationLine = #line + 4
    var token: (any NSObjectProtocol)?
    var announcer: (any NSObjectProtocol)?
    init(center: any NotificationCenterProtocol) {
        token = center.addObserver(forName: .twinCartSynced, object: nil, queue: nil) { _ in
            Jitter.pause()
            center.post(name: .twinBannerDidShow, object: nil)  // main-actor work, off the main actor
        }
        // The screen reader's: it only hops to the main actor.
        announcer = center.addObserver(forName: .twinBannerDidShow, object: nil, queue: nil) { _ in
            Task { @MainActor in Jitter.pause() }
        }
    }
    func close(_ center: any NotificationCenterProtocol) {
        for token in [token, announcer].compactMap({ $0 }) { center.removeObserver(token) }
    }
}

/// An actor whose handler only hops onto it (the rule's own fix).
actor TwinEnergyMeter {
    private var token: (any NSObjectProtocol)?
    private var total = 0
    func start(_ center: any NotificationCenterProtocol) {
        token = center.addObserver(forName: .twinMeterReading, object: nil, queue: nil) { [weak self] note in
            let watts = note.userInfo?["watts"] as? Int ?? 0
            Task {
                Jitter.pause()
                await self?.ingest(watts)
            }
            Jitter.pause()
        }
    }
    func ingest(_ watts: Int) { total += watts }
    func stop(_ center: any NotificationCenterProtocol) { if let token { center.removeObserver(token) } }
}

// MARK: mutation-during-notify

/// An upload row: when its upload finishes it stops observing.
final class TwinUploadRow: @unchecked Sendable {
    static let laterRemovalLine = #line + 11
    let tokens = TokenBox()
    init(center: any NotificationCenterProtocol, task: AnyObject, alsoLogsFinish: Bool) {
        tokens["progress"] = center.addObserver(forName: .twinUploadProgress, object: task, queue: nil) { _ in }
        tokens["finished"] = center.addObserver(forName: .twinUploadFinished, object: nil, queue: nil) {
            [tokens] _ in
            Jitter.pause()
            if let progress = tokens["progress"] { center.removeObserver(progress) }  // another channel's
            if let finished = tokens["finished"] { center.removeObserver(finished) }  // its own
            if alsoLogsFinish, let log = tokens["log"] {
                // The log's registration, on this channel, not reached yet.
                center.removeObserver(log)
            }
        }
        if alsoLogsFinish {
            tokens["log"] = center.addObserver(forName: .twinUploadFinished, object: nil, queue: nil) { _ in }
        }
    }
}

// MARK: unbalanced-removal

/// A screen that registers a block and keeps its token.
final class TwinLogoutScreen: @unchecked Sendable {
    static let removalLine = #line + 11
    let center: any NotificationCenterProtocol
    var token: (any NSObjectProtocol)?
    init(center: any NotificationCenterProtocol) {
        self.center = center
        token = center.addObserver(forName: .twinLogout, object: nil, queue: nil) { _ in Jitter.pause() }
    }
    func close(removingToken: Bool) {
        if removingToken, let token {
            center.removeObserver(token)
        } else {
            center.removeObserver(self)  // ends nothing: the registration is the token's
        }
    }
}

// MARK: registration-keeps-observer-alive, duplicate-registration

final class TwinHUD {}

enum TwinLists {
    static let strongAddLine = #line + 5
    /// A list that holds its observers strongly, made and dropped in one go.
    static func showHUD(hooks: TwinHooks, removesBeforeRelease: Bool) async {
        let list = ObserverList<TwinHUD>("huds", hold: .strong)
        var hud: TwinHUD? = TwinHUD()
        list.add(hud!)
        await Task { Jitter.pause() }.value
        list.notify { _ in Jitter.pause() }
        if removesBeforeRelease { list.remove(hud!) }
        hooks.release(hud!)
        hud = nil
    }

    static let duplicateAddLine = #line + 6
    /// A screen that registers again each time it appears.
    static func appear(times: Int) async {
        let list = ObserverList<TwinHUD>("screens", hold: .weak)
        let screen = TwinHUD()
        for _ in 0..<times {
            list.add(screen)
            await Jitter.onQueue { list.notify { _ in Jitter.pause() } }
        }
        list.remove(screen)
    }
}

// MARK: message-dropped

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
public final class TwinCart: Sendable {}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
struct TwinCartRevised: NotificationCenter.AsyncMessage {
    typealias Subject = TwinCart
    let revision: Int
}

/// A main-actor history the test does not track; its loop keeps one message.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@MainActor final class TwinSyncHistory {
    nonisolated static let loopLine = #line + 7
    var revisions: [Int] = []
    var task: Task<Void, Never>?
    init(cart: TwinCart) {
        // Main-actor work queued first: the loop's task waits behind it.
        Task { @MainActor in Jitter.pause() }
        task = Task { [weak self] in
            for await message in Observers.center.messages(of: cart, for: TwinCartRevised.self, bufferSize: 1) {
                self?.revisions.append(message.revision)
            }
        }
    }
    deinit { task?.cancel() }
}

// MARK: value-object-filter, channel-name-typo, notification-cycle

/// A cell announcing an add to its cart.
enum TwinCartPosts {
    static let valuePostLine = #line + 5
    static func announce(sendingValue: Bool, typo: Bool) async {
        let center = Observers.center
        let token = center.addObserver(forName: .twinAddToCart, object: nil, queue: nil) { _ in Jitter.pause() }
        if sendingValue {
            center.post(name: .twinAddToCart, object: 42)
        } else if typo {
            await Jitter.onQueue { center.post(name: .twinAddToCard, object: nil) }  // one letter off
        } else {
            await Jitter.onQueue { center.post(name: .twinAddToCart, object: nil) }
        }
        center.removeObserver(token)
    }
    static let typoPostLine = valuePostLine + 2
}

/// A form and its preview, each following the other.
enum TwinPreviewForm {
    static let previewLine = #line + 8
    static func edit(previewReposts: Bool) async {
        let center = Observers.center
        let form = center.addObserver(forName: .twinTextChanged, object: nil, queue: nil) { _ in
            Jitter.pause()
            center.post(name: .twinPreviewChanged, object: nil)
        }
        let preview = center.addObserver(forName: .twinPreviewChanged, object: nil, queue: nil) { _ in
            if previewReposts { center.post(name: .twinTextChanged, object: nil) }
        }
        await Jitter.onQueue { center.post(name: .twinTextChanged, object: nil) }
        center.removeObserver(form)
        center.removeObserver(preview)
    }
}

// MARK: delegate-overwritten, discarded-token, notify-after-dealloc, dangling-registration

protocol TwinLocationDelegate: AnyObject { func didMove() }
final class TwinMapScreen: TwinLocationDelegate { func didMove() { Jitter.pause() } }
final class TwinLocationManager: @unchecked Sendable {
    lazy var delegate = DelegateSlot(of: self, as: (any TwinLocationDelegate).self)
}

enum TwinDelegates {
    static let secondSetLine = #line + 7
    static func handOver(clearingFirst: Bool) async {
        let manager = TwinLocationManager()
        let map = TwinMapScreen(), weather = TwinMapScreen()
        manager.delegate.set(map)
        await Jitter.onQueue { manager.delegate.call { $0.didMove() } }
        if clearingFirst { manager.delegate.set(nil) }
        manager.delegate.set(weather)
        await Jitter.onQueue { manager.delegate.call { $0.didMove() } }
        withExtendedLifetime((map, weather)) {}
    }
}

enum TwinTokens {
    static let droppedLine = #line + 3
    static func observeLogout(keepingToken: Bool) async {
        let center = Observers.center
        var token: (any NSObjectProtocol)? = center.addObserver(forName: .twinLogout, object: nil, queue: nil) {
            _ in Jitter.pause()
        }
        await Jitter.onQueue { center.post(name: .twinLogout, object: nil) }
        if keepingToken, let kept = token { center.removeObserver(kept) }
        token = nil  // dropped: without its token the registration can never be removed
    }

    static let playerAddLine = #line + 8
    /// A player added and freed in a task, then the list notified. Held
    /// unowned, the notify reaches a dead player; held weakly by a list that
    /// holds strongly, the player goes registered and the notify skips it.
    static func notifyPlayers(unowned: Bool, removingFirst: Bool) async {
        let list = ObserverList<TwinHUD>("players", hold: unowned ? .unowned : .strong)
        await Task {
            var player: TwinHUD? = TwinHUD()
            list.add(player!, hold: unowned ? nil : .weak)
            if removingFirst { list.remove(player!) }
            player = nil
        }.value
        await Jitter.onQueue { list.notify { _ in } }
    }
}

// MARK: unobserved-post, observed-object-deallocated, async-observer-outlives-owner

enum TwinUploads {
    static let postLine = #line + 5
    static func finish(observed: Bool) async {
        let center = Observers.center
        let uploader = TwinUpload()
        let gallery = observed ? center.addObserver(forName: .twinUploadDone, object: nil, queue: nil) { _ in } : nil
        await Jitter.onQueue { center.post(name: .twinUploadDone, object: uploader) }
        if let gallery { center.removeObserver(gallery) }
    }
}

final class TwinPlayer {
    lazy var currentTime = ObservedProperty("currentTime", of: self, initialValue: 0)
}

final class TwinProgressView {}

enum TwinPlayback {
    static let observeLine = #line + 5
    static func play(removingFirst: Bool) async {
        let view = TwinProgressView()
        do {
            let player = TwinPlayer()
            player.currentTime.addObserver(view) { _, _ in Jitter.pause() }
            player.currentTime.set(1)
            if removingFirst { player.currentTime.removeObserver(view) }
        }
        await Jitter.onQueue {}
        withExtendedLifetime(view) {}
    }
}

extension Notification.Name {
    static let twinUploadDone = Notification.Name("Twins.UploadDone")
    static let twinThemePicked = Notification.Name("Twins.ThemePicked")
    static let twinThemeChanged = Notification.Name("Twins.ThemeChanged")
}

/// A screen whose theme loop runs in a task it keeps.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class TwinThemeScreen: @unchecked Sendable {
    static let loopLine = #line + 9
    var task: Task<Void, Never>?
    let cancelsInDeinit: Bool
    private(set) var reloads = 0

    init(capturesStrongly: Bool) {
        cancelsInDeinit = !capturesStrongly
        let center = Observers.center
        if capturesStrongly {
            task = Task { for await _ in center.postedNotifications(named: .twinThemeChanged) { self.reload() } }
        } else {
            task = Task { [weak self] in
                for await _ in center.postedNotifications(named: .twinThemeChanged) { self?.reload() }
            }
        }
    }

    func reload() {
        Jitter.pause()
        reloads += 1
    }

    deinit { if cancelsInDeinit { task?.cancel() } }
}

// MARK: single-receiver-broadcast

/// A theme picker whose change only the settings screen observes.
enum TwinThemePicker {
    static let postLine = #line + 8
    static func pick(navigationBarObserves: Bool) async {
        let center = Observers.center
        let settings = center.addObserver(forName: .twinThemePicked, object: nil, queue: nil) { _ in Jitter.pause() }
        let navigationBar =
            navigationBarObserves
            ? center.addObserver(forName: .twinThemePicked, object: nil, queue: nil) { _ in Jitter.pause() } : nil
        for _ in 0..<2 {
            await Jitter.onQueue { center.post(name: .twinThemePicked, object: nil) }
        }
        center.removeObserver(settings)
        if let navigationBar { center.removeObserver(navigationBar) }
    }
}

// MARK: delegate-as-broadcast

protocol TwinKeyboardDelegate: AnyObject { func keyboardWillShow() }
protocol TwinRouting: AnyObject { func open() }
protocol TwinAnalytics: AnyObject { func track() }

final class TwinScreen: TwinKeyboardDelegate, TwinRouting, TwinAnalytics {
    func keyboardWillShow() { Jitter.pause() }
    func open() {}
    func track() {}
}

final class TwinKeyboard: @unchecked Sendable {
    lazy var delegate = DelegateSlot(of: self, as: (any TwinKeyboardDelegate).self)
    func show() { delegate.call { $0.keyboardWillShow() } }
}

/// The app delegate: it forwards the keyboard to every screen by hand, or
/// tells a router and an analytics object, one each.
final class TwinAppDelegate: TwinKeyboardDelegate, @unchecked Sendable {
    static let forwardLine = #line + 16
    let forwardsToScreens: Bool
    lazy var home = DelegateSlot(of: self, as: (any TwinKeyboardDelegate).self, name: "home")
    lazy var search = DelegateSlot(of: self, as: (any TwinKeyboardDelegate).self, name: "search")
    lazy var router = DelegateSlot(of: self, as: (any TwinRouting).self, name: "router")
    lazy var analytics = DelegateSlot(of: self, as: (any TwinAnalytics).self, name: "analytics")

    init(forwardsToScreens: Bool) { self.forwardsToScreens = forwardsToScreens }

    func keyboardWillShow() {
        Jitter.pause()
        guard forwardsToScreens else {
            router.call { $0.open() }
            analytics.call { $0.track() }
            return
        }
        for screen in [home, search] { screen.call { $0.keyboardWillShow() } }
    }

    static func showKeyboard(forwardsToScreens: Bool) async {
        let keyboard = TwinKeyboard()
        let app = TwinAppDelegate(forwardsToScreens: forwardsToScreens)
        let screens = (TwinScreen(), TwinScreen())
        keyboard.delegate.set(app)
        app.home.set(screens.0)
        app.search.set(screens.1)
        app.router.set(screens.0)
        app.analytics.set(screens.1)
        await Jitter.onQueue { keyboard.show() }
        withExtendedLifetime((app, screens)) {}
    }
}

// MARK: observation-not-rearmed

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class TwinObservableCart: @unchecked Sendable {
    var count = 0
}

/// A badge showing the cart's count; `rearms` says whether its onChange
/// observes again, synchronously, as the rule's fix says.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class TwinCartBadge: @unchecked Sendable {
    static let observeLine = #line + 8
    let cart: TwinObservableCart
    let rearms: Bool
    private(set) var shown = -1

    init(cart: TwinObservableCart, rearms: Bool) { (self.cart, self.rearms) = (cart, rearms) }

    func observe() {
        shown = Observers.withObservationTracking(
            { self.cart.count },
            onChange: { [self] in
                Jitter.pause()
                if rearms { observe() }
            }, owner: self)
    }

    static func addTwice(rearms: Bool) async {
        let cart = TwinObservableCart()
        let badge = TwinCartBadge(cart: cart, rearms: rearms)
        badge.observe()
        for count in 1...2 { await Jitter.onQueue { cart.count = count } }
        withExtendedLifetime(badge) {}
    }
}

// MARK: The table

public enum RuleTwins {
    /// Every twin, bug and near miss.
    public static let all: [RuleTwin] =
        isolation + mutation + removal + lifetime + duplicates + messages + posts + delegates + tokens + lifetimes
        + loops + registrations + forwarding + observation + pageTwins

    static let lifetimes = [
        RuleTwin(rule: "unobserved-post", name: "an upload's end nobody observes", line: TwinUploads.postLine) { _ in
            await TwinUploads.finish(observed: false)
        },
        RuleTwin(rule: "unobserved-post", name: "an upload's end the gallery observes", line: nil) { _ in
            await TwinUploads.finish(observed: true)
        },
        RuleTwin(
            rule: "observed-object-deallocated", name: "a player freed while its time is observed",
            line: TwinPlayback.observeLine
        ) { _ in await TwinPlayback.play(removingFirst: false) },
        RuleTwin(
            rule: "observed-object-deallocated", name: "the observation removed before the player goes",
            line: nil
        ) { _ in await TwinPlayback.play(removingFirst: true) },
    ]

    /// A loop that never ends is known by `settle()` spending its whole
    /// budget of scheduler turns (each settle after the release, and the
    /// trait's at the end of the test): 0.6–0.8 s a run. Its near miss, whose
    /// timing matters as much and costs nothing, runs every time.
    static let loopBugRuns = 10

    static var loops: [RuleTwin] {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return [] }
        return [true, false].map { strong in
            RuleTwin(
                rule: "async-observer-outlives-owner",
                name: strong ? "a theme loop capturing its screen" : "a theme loop cancelled as its screen goes",
                line: strong ? TwinThemeScreen.loopLine : nil, runsAtMost: strong ? loopBugRuns : .max
            ) { hooks in
                let center = Observers.center
                var screen: TwinThemeScreen? = TwinThemeScreen(capturesStrongly: strong)
                hooks.track(screen!)  // the object that keeps the loop's task
                await hooks.settle()
                await Jitter.onQueue { center.post(name: .twinThemeChanged, object: nil) }
                hooks.release(screen!)
                screen = nil
                await hooks.settle()
            }
        }
    }

    static let posts = [
        RuleTwin(
            rule: "value-object-filter", name: "a post with a number as its object",
            line: TwinCartPosts.valuePostLine
        ) { _ in await TwinCartPosts.announce(sendingValue: true, typo: false) },
        RuleTwin(rule: "value-object-filter", name: "a post with no object", line: nil) { _ in
            await TwinCartPosts.announce(sendingValue: false, typo: false)
        },
        RuleTwin(
            rule: "channel-name-typo", name: "a post one letter off the observed name",
            line: TwinCartPosts.typoPostLine
        ) { _ in await TwinCartPosts.announce(sendingValue: false, typo: true) },
        RuleTwin(
            rule: "notification-cycle", name: "a preview that posts the form's change back",
            line: TwinPreviewForm.previewLine
        ) { _ in await TwinPreviewForm.edit(previewReposts: true) },
        RuleTwin(rule: "notification-cycle", name: "a preview that only shows the change", line: nil) { _ in
            await TwinPreviewForm.edit(previewReposts: false)
        },
    ]

    static let delegates = [
        RuleTwin(
            rule: "delegate-overwritten", name: "a second screen taking the live delegate",
            line: TwinDelegates.secondSetLine
        ) { _ in await TwinDelegates.handOver(clearingFirst: false) },
        RuleTwin(rule: "delegate-overwritten", name: "the delegate cleared before the next", line: nil) { _ in
            await TwinDelegates.handOver(clearingFirst: true)
        },
    ]

    static let tokens = [
        RuleTwin(rule: "discarded-token", name: "a block whose token is dropped", line: TwinTokens.droppedLine) {
            _ in await TwinTokens.observeLogout(keepingToken: false)
        },
        RuleTwin(rule: "discarded-token", name: "a block removed by its token", line: nil) { _ in
            await TwinTokens.observeLogout(keepingToken: true)
        },
        RuleTwin(
            rule: "notify-after-dealloc", name: "an unowned player freed, then notified",
            line: TwinTokens.playerAddLine
        ) { _ in await TwinTokens.notifyPlayers(unowned: true, removingFirst: false) },
        RuleTwin(rule: "notify-after-dealloc", name: "an unowned player removed, then freed", line: nil) { _ in
            await TwinTokens.notifyPlayers(unowned: true, removingFirst: true)
        },
    ]

    static let isolation = [
        RuleTwin(
            rule: "delivery-off-isolation", name: "a banner posting from a background sync's handler",
            line: TwinSyncBanner.registrationLine
        ) { _ in
            let center = Observers.center
            let banner = await TwinSyncBanner(center: center)
            await Jitter.onQueue { center.post(name: .twinCartSynced, object: nil) }
            await banner.close(center)
        },
        RuleTwin(rule: "delivery-off-isolation", name: "a banner synced on the main actor", line: nil) { _ in
            let center = Observers.center
            let banner = await TwinSyncBanner(center: center)
            await MainActor.run { center.post(name: .twinCartSynced, object: nil) }
            await banner.close(center)
        },
        RuleTwin(rule: "delivery-off-isolation", name: "a meter whose handler only hops onto its actor", line: nil) {
            _ in
            let center = Observers.center
            let meter = TwinEnergyMeter()
            await meter.start(center)
            await MainActor.run { center.post(name: .twinMeterReading, object: nil, userInfo: ["watts": 40]) }
            await Task { Jitter.pause() }.value
            await meter.stop(center)
        },
    ]

    static let mutation = [
        RuleTwin(
            rule: "mutation-during-notify", name: "a finished handler removing a registration not reached yet",
            line: TwinUploadRow.laterRemovalLine
        ) { _ in
            let center = Observers.center
            let task = TwinUpload()
            let row = TwinUploadRow(center: center, task: task, alsoLogsFinish: true)
            await Jitter.onQueue { center.post(name: .twinUploadFinished, object: task) }
            withExtendedLifetime(row) {}
        },
        RuleTwin(
            rule: "mutation-during-notify", name: "a finished handler removing another channel's token",
            line: nil
        ) { _ in
            let center = Observers.center
            let task = TwinUpload()
            let row = TwinUploadRow(center: center, task: task, alsoLogsFinish: false)
            await Jitter.onQueue { center.post(name: .twinUploadFinished, object: task) }
            withExtendedLifetime(row) {}
        },
    ]

    static let removal = [
        RuleTwin(
            rule: "unbalanced-removal", name: "a screen removing itself while it keeps its block's token",
            line: TwinLogoutScreen.removalLine
        ) { _ in
            let screen = TwinLogoutScreen(center: Observers.center)
            await Jitter.onQueue { screen.center.post(name: .twinLogout, object: nil) }
            screen.close(removingToken: false)
            if let token = screen.token { screen.center.removeObserver(token) }
        },
        RuleTwin(rule: "unbalanced-removal", name: "a screen removing its token", line: nil) { _ in
            let screen = TwinLogoutScreen(center: Observers.center)
            await Jitter.onQueue { screen.center.post(name: .twinLogout, object: nil) }
            screen.close(removingToken: true)
        },
    ]

    static let lifetime = [
        RuleTwin(
            rule: "registration-keeps-observer-alive", name: "a strong list made and dropped in the test",
            line: TwinLists.strongAddLine
        ) { hooks in
            await TwinLists.showHUD(hooks: hooks, removesBeforeRelease: false)
        },
        RuleTwin(
            rule: "registration-keeps-observer-alive", name: "a strong list, its HUD removed before release",
            line: nil
        ) { hooks in
            await TwinLists.showHUD(hooks: hooks, removesBeforeRelease: true)
        },
    ]

    static let duplicates = [
        RuleTwin(
            rule: "duplicate-registration", name: "a screen added on each appearance",
            line: TwinLists.duplicateAddLine
        ) { _ in await TwinLists.appear(times: 2) },
        RuleTwin(rule: "duplicate-registration", name: "a screen that appears once", line: nil) { _ in
            await TwinLists.appear(times: 1)
        },
    ]

    static var messages: [RuleTwin] {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return [] }
        return [true, false].map { burst in
            RuleTwin(
                rule: "message-dropped",
                name: burst ? "an untracked history's loop, three syncs at once" : "one sync at a time",
                line: burst ? TwinSyncHistory.loopLine : nil
            ) { hooks in
                let cart = TwinCart()
                let history = await TwinSyncHistory(cart: cart)
                await hooks.settle()  // its loop listens
                let center = Observers.center
                // From the main actor, which the loop needs to take a message: a burst outruns it.
                await MainActor.run {
                    for revision in 1...(burst ? 3 : 1) {
                        center.post(TwinCartRevised(revision: revision), subject: cart)
                        Jitter.pause()
                    }
                }
                await hooks.settle()
                await history.task?.cancel()
                await hooks.settle()
            }
        }
    }
    static let registrations = [
        RuleTwin(
            rule: "dangling-registration", name: "a player a strong list holds weakly, freed registered",
            line: TwinTokens.playerAddLine
        ) { _ in await TwinTokens.notifyPlayers(unowned: false, removingFirst: false) },
        RuleTwin(rule: "dangling-registration", name: "a weakly held player removed, then freed", line: nil) { _ in
            await TwinTokens.notifyPlayers(unowned: false, removingFirst: true)
        },
        RuleTwin(
            rule: "single-receiver-broadcast", name: "a theme change only the settings observe, posted twice",
            line: TwinThemePicker.postLine
        ) { _ in await TwinThemePicker.pick(navigationBarObserves: false) },
        RuleTwin(
            rule: "single-receiver-broadcast", name: "a theme change the settings and the bar observe", line: nil
        ) { _ in await TwinThemePicker.pick(navigationBarObserves: true) },
    ]

    static let forwarding = [
        RuleTwin(
            rule: "delegate-as-broadcast", name: "an app delegate forwarding the keyboard to two screens",
            line: TwinAppDelegate.forwardLine
        ) { _ in await TwinAppDelegate.showKeyboard(forwardsToScreens: true) },
        RuleTwin(
            rule: "delegate-as-broadcast", name: "an app delegate telling a router and analytics", line: nil
        ) { _ in await TwinAppDelegate.showKeyboard(forwardsToScreens: false) },
    ]

    static var observation: [RuleTwin] {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return [] }
        return [false, true].map { rearms in
            RuleTwin(
                rule: "observation-not-rearmed",
                name: rearms ? "a badge that observes again in onChange" : "a badge observing once, changed twice",
                line: rearms ? nil : TwinCartBadge.observeLine
            ) { _ in await TwinCartBadge.addTwice(rearms: rearms) }
        }
    }
}
