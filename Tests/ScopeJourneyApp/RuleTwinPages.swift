import Foundation
import Observation
import ObserverHarnessInterface

// More live twins (see RuleTwins.swift): the rules whose live form goes
// through the test (`broadcast-as-command`'s noted actions, the order check's
// `ordering-dependence` and `exploration-limit`), `escaped-test-scope`, and
// the second and third examples of pages that have several.

extension Notification.Name {
    static let twinProductAdded = Notification.Name("Twins.ProductAdded")
    static let twinLogin = Notification.Name("Twins.Login")
    static let twinSessionStarted = Notification.Name("Twins.SessionStarted")
    static let twinStockChanged = Notification.Name("Twins.StockChanged")
    static let twinStockDetail = Notification.Name("Twins.StockDetail")
    static let twinSale = Notification.Name("Twins.Sale")
    static let twinCartChanged = Notification.Name("Twins.CartChanged")
    static let twinLevelChanged = Notification.Name("Twins.LevelChanged")
    static let twinFirstLaunch = Notification.Name("Twins.FirstLaunch")
}

// MARK: broadcast-as-command

/// What a product list does with an add: the command itself, an idempotent
/// mark, or a count of its own.
enum TwinAddEffect: Sendable { case addsToCart, marksCartDirty, countsOwnTaps }

/// A product list on screen; `noteAction` is the test's window on what the
/// list's handler does to shared state (`harness.noteAction`, as
/// AdoptingInAnApp shows: the app calls a closure the test gives it).
final class TwinProductList: @unchecked Sendable {
    let name: String
    var token: (any NSObjectProtocol)?
    init(
        _ name: String, center: any NotificationCenterProtocol, effect: TwinAddEffect,
        noteAction: @escaping @Sendable (_ key: String, _ setTo: String?) -> Void
    ) {
        self.name = name
        token = center.addObserver(forName: .twinProductAdded, object: nil, queue: nil) { _ in
            Jitter.pause()
            switch effect {
            case .addsToCart: noteAction("cart.count", nil)
            case .marksCartDirty: noteAction("cart.dirty", "true")
            case .countsOwnTaps: noteAction("\(name).taps", nil)
            }
        }
    }
}

/// A product cell whose tap is announced to every list on screen.
final class TwinProductCell: Sendable {
    static let tapLine = #line + 2
    func tap(_ center: any NotificationCenterProtocol) {
        center.post(name: .twinProductAdded, object: self)
    }

    static func tapWithTwoLists(effect: TwinAddEffect, hooks: TwinHooks) async {
        let center = Observers.center
        let lists = ["bestSellers", "recommended"].map {
            TwinProductList($0, center: center, effect: effect, noteAction: hooks.noteAction)
        }
        let cell = TwinProductCell()
        await Jitter.onQueue { cell.tap(center) }
        for list in lists { if let token = list.token { center.removeObserver(token) } }
    }
}

// MARK: ordering-dependence, exploration-limit

/// A session that stores the logged-in user, and analytics that reads it:
/// on the login itself, or on the session's own announcement after it.
final class TwinSession: @unchecked Sendable {
    static let loginLine = #line + 4
    var userID = 0
    var token: (any NSObjectProtocol)?
    init(center: any NotificationCenterProtocol, announces: Bool) {
        token = center.addObserver(forName: .twinLogin, object: nil, queue: nil) { [unowned self] note in
            Jitter.pause()
            userID = note.userInfo?["id"] as? Int ?? 0
            if announces { center.post(name: .twinSessionStarted, object: nil) }
        }
    }
}

final class TwinLoginAnalytics: @unchecked Sendable {
    private(set) var seenUserID = -1
    var token: (any NSObjectProtocol)?
    init(center: any NotificationCenterProtocol, session: TwinSession, waitsForSession: Bool) {
        let name: Notification.Name = waitsForSession ? .twinSessionStarted : .twinLogin
        token = center.addObserver(forName: name, object: nil, queue: nil) { [unowned self, unowned session] _ in
            seenUserID = session.userID
        }
    }

    /// What analytics saw of one login.
    static func login(center: any NotificationCenterProtocol, waitsForSession: Bool) -> Int {
        let session = TwinSession(center: center, announces: waitsForSession)
        let analytics = TwinLoginAnalytics(center: center, session: session, waitsForSession: waitsForSession)
        center.post(name: .twinLogin, object: nil, userInfo: ["id": 42])
        for token in [session.token, analytics.token].compactMap({ $0 }) { center.removeObserver(token) }
        return analytics.seenUserID
    }
}

/// A stock screen whose widgets, on each change, follow the detail of the
/// stock they now show (a registration replaced on the center, so their
/// order conflicts), though the screen returns only how many widgets were
/// refreshed.
final class TwinStockScreen: @unchecked Sendable {
    static let secondRefreshLine = #line + 20
    private var refreshed = 0
    private var tokens: [any NSObjectProtocol] = []
    private var details: [Int: any NSObjectProtocol] = [:]

    init(center: any NotificationCenterProtocol, widgets: Int) {
        for widget in 0..<widgets {
            let token = center.addObserver(forName: .twinStockChanged, object: nil, queue: nil) { [unowned self] _ in
                if let detail = details[widget] { center.removeObserver(detail) }
                details[widget] = center.addObserver(forName: .twinStockDetail, object: nil, queue: nil) { _ in }
                refreshed += 1
            }
            tokens.append(token)
        }
    }

    /// Two refreshes; with six widgets, every order of both is more than the check's budget of runs.
    static func refreshTwice(center: any NotificationCenterProtocol, widgets: Int) -> Int {
        let screen = TwinStockScreen(center: center, widgets: widgets)
        center.post(name: .twinStockChanged, object: nil)
        center.post(name: .twinStockChanged, object: nil)
        for token in screen.tokens + screen.details.values { center.removeObserver(token) }
        return screen.refreshed
    }
}

// MARK: escaped-test-scope

/// A clock that ticks on a thread of its own, with nothing that ties the
/// tick to the test that started it, or carrying the test's scope across.
enum TwinClock {
    static let tickLine = #line + 14
    static func tick(carryingScope: Bool) async {
        // A name of this run's own: another run's tick reaches only its own observer.
        let name = Notification.Name("Twins.Tick.\(UUID().uuidString)")
        let center = Observers.center
        let heard = DispatchSemaphore(value: 0)
        let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in heard.signal() }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Observers.withEscapedScope { escaped in
                Thread {
                    Jitter.pause()
                    if carryingScope {
                        escaped.yield { Observers.center.post(name: name, object: nil) }
                    } else {
                        Observers.center.post(name: name, object: nil)
                    }
                    heard.wait()
                    done.resume()
                }.start()
            }
        }
        center.removeObserver(token)
    }
}

// MARK: wildcard-misses-foundation-posts

/// A debug log of every notification, or of the names it needs.
enum TwinDebugLog {
    static let everyNameLine = #line + 6
    static func listen(toEveryName: Bool) async {
        let center = Observers.center
        let names: [Notification.Name?] = toEveryName ? [nil] : [.twinLogout, .twinSale]
        let tokens = names.map { name in
            // `nil`: every name.
            center.addObserver(forName: name, object: nil, queue: nil) { _ in Jitter.pause() }
        }
        await Jitter.onQueue { center.post(name: .twinSale, object: nil) }
        for token in tokens { center.removeObserver(token) }
    }
}

// MARK: unbalanced-removal, value-object-filter, channel-name-typo

enum TwinRemovals {
    static let secondRemovalLine = #line + 6
    static func logoutScreenClosesTwice() async {
        let center = Observers.center
        let token = center.addObserver(forName: .twinLogout, object: nil, queue: nil) { _ in Jitter.pause() }
        await Jitter.onQueue { center.post(name: .twinLogout, object: nil) }
        center.removeObserver(token, name: .twinLogout, object: nil)
        center.removeObserver(token, name: .twinLogout, object: nil)  // already gone
    }
}

final class TwinShoppingCart: Sendable {}

enum TwinCartBadges {
    static let valueFilterLine = #line + 8
    /// A badge filtering on the cart's id (a value: never the same object
    /// as a post's), or on the cart itself with the id in `userInfo`.
    static func follow(filteringOnID: Bool) async {
        let center = Observers.center
        let cart = TwinShoppingCart()
        let token: any NSObjectProtocol
        if filteringOnID {
            token = center.addObserver(forName: .twinCartChanged, object: "cart-1", queue: nil) { _ in Jitter.pause() }
        } else {
            token = center.addObserver(forName: .twinCartChanged, object: cart, queue: nil) { _ in Jitter.pause() }
            await Jitter.onQueue { center.post(name: .twinCartChanged, object: cart, userInfo: ["id": "cart-1"]) }
        }
        await Jitter.onQueue {}
        center.removeObserver(token)
    }
}

// MARK: notify-after-dealloc, dangling-registration (delegates and lists)

protocol TwinDataSource: AnyObject { func numberOfRows() -> Int }
final class TwinRows: TwinDataSource { func numberOfRows() -> Int { 3 } }
final class TwinTable: @unchecked Sendable {
    let hold: Hold
    lazy var dataSource = DelegateSlot(of: self, as: (any TwinDataSource).self, hold: hold)
    init(hold: Hold) { self.hold = hold }
}

enum TwinTables {
    static let unownedSetLine = #line + 5
    /// A table whose data source goes while set: held unowned, the next call
    /// reaches freed memory; held weakly, it finds no data source.
    static func reloadAfterDataSourceGoes(unowned: Bool) async {
        let table = TwinTable(hold: unowned ? .unowned : .weak)
        await Task { table.dataSource.set(TwinRows()) }.value
        await Jitter.onQueue { table.dataSource.call { _ = $0.numberOfRows() } }
    }
}

/// A sale banner on the center, keeping its token and removing itself in
/// its deinit. (Its bug, freed still registered, is a block's: its token
/// goes with it, which is `discarded-token`; the interface has no
/// registration by observer and selector, so the page's first example is
/// twinned on a list, in RuleTwins.swift.)
final class TwinSaleBanner: @unchecked Sendable {
    let center: any NotificationCenterProtocol
    var token: (any NSObjectProtocol)?
    init(center: any NotificationCenterProtocol) {
        self.center = center
        token = center.addObserver(forName: .twinSale, object: nil, queue: nil) { _ in Jitter.pause() }
    }
    deinit { if let token { center.removeObserver(token) } }

    static func show(hooks: TwinHooks) async {
        var banner: TwinSaleBanner? = TwinSaleBanner(center: Observers.center)
        hooks.track(banner!)  // the object that keeps the token
        await Jitter.onQueue {}
        banner = nil
        await Jitter.onQueue {}
    }
}

protocol TwinScrollDelegate: AnyObject { func didScroll() }
final class TwinScrollController: TwinScrollDelegate { func didScroll() {} }

enum TwinWeakRegistries {
    /// A controller set as a (weak) scroll delegate goes: nothing dangles.
    static func scrollControllerGoes() async {
        let scrollView = NSObject()
        let slot = DelegateSlot(of: scrollView, as: (any TwinScrollDelegate).self)
        await Task { slot.set(TwinScrollController()) }.value
        await Jitter.onQueue {}
        withExtendedLifetime(scrollView) {}
    }

    /// A screen in a weak list goes; the next notify skips it.
    static func screenInAWeakStoreGoes() async {
        let store = ObserverList<TwinHUD>("store", hold: .weak)
        await Task { store.add(TwinHUD()) }.value
        await Jitter.onQueue { store.notify { _ in Jitter.pause() } }
    }
}

// MARK: duplicate-registration

/// A cart badge that registers on each appearance, or removes first.
final class TwinCartBadgeView: @unchecked Sendable {
    static let appearLine = #line + 5
    let center: any NotificationCenterProtocol
    var tokens: [any NSObjectProtocol] = []
    init(center: any NotificationCenterProtocol) { self.center = center }
    func appear() {
        tokens.append(center.addObserver(forName: .twinCartChanged, object: nil, queue: nil) { _ in Jitter.pause() })
    }
    func disappear() {
        for token in tokens { center.removeObserver(token) }
        tokens = []
    }
    deinit { disappear() }

    static func appearTwice(disappearingBetween: Bool, hooks: TwinHooks) async {
        let badge = TwinCartBadgeView(center: Observers.center)
        hooks.track(badge)  // a block's observer is the object that keeps its token
        badge.appear()
        if disappearingBetween { badge.disappear() }
        await Jitter.onQueue { badge.appear() }
        await Jitter.onQueue { badge.center.post(name: .twinCartChanged, object: nil) }
    }
}

final class TwinLevel: Sendable {}

enum TwinMixers {
    /// A mixer following two channels' levels: the same name, two senders.
    static func followBothChannels() async {
        let center = Observers.center
        let (left, right) = (TwinLevel(), TwinLevel())
        let tokens = [left, right].map {
            center.addObserver(forName: .twinLevelChanged, object: $0, queue: nil) { _ in Jitter.pause() }
        }
        await Jitter.onQueue { center.post(name: .twinLevelChanged, object: left) }
        for token in tokens { center.removeObserver(token) }
    }
}

// MARK: mutation-during-notify

final class TwinCoordinator: @unchecked Sendable {}

enum TwinCoordinators {
    static let removalLine = #line + 11
    /// A coordinator that drops the logger when told, during the notify
    /// that has yet to reach the logger, or after it.
    static func notify(removingDuringNotify: Bool) async {
        let list = ObserverList<TwinCoordinator>("coordinators", hold: .strong)
        let (coordinator, logger) = (TwinCoordinator(), TwinCoordinator())
        list.add(coordinator)
        list.add(logger)
        await Jitter.onQueue {
            list.notify { receiver in
                Jitter.pause()
                if removingDuringNotify, receiver === coordinator { list.remove(logger) }
            }
        }
        if !removingDuringNotify { list.remove(logger) }
        list.remove(coordinator)
    }
}

enum TwinOnboarding {
    /// A one-shot observer of the first launch, removing itself by its token.
    static func firstLaunch() async {
        let center = Observers.center
        let tokens = TokenBox()
        tokens["once"] = center.addObserver(forName: .twinFirstLaunch, object: nil, queue: nil) { [tokens] _ in
            Jitter.pause()
            if let once = tokens["once"] { center.removeObserver(once) }
        }
        await Jitter.onQueue { center.post(name: .twinFirstLaunch, object: nil) }
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class TwinSearchModel: @unchecked Sendable {
    var query = ""
    var suggestions: [String] = []
}

/// A search field that trims the query in its onChange (written back into
/// what it tracks, lost to the change being delivered), or that clears the
/// suggestions and observes again.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class TwinSearchField: @unchecked Sendable {
    static let observeLine = #line + 6
    let model: TwinSearchModel
    let trimsQuery: Bool
    init(model: TwinSearchModel, trimsQuery: Bool) { (self.model, self.trimsQuery) = (model, trimsQuery) }

    func observe() {
        Observers.withObservationTracking(
            { self.model.query },
            onChange: { [self] in
                Jitter.pause()
                if trimsQuery {
                    model.query = "swift"  // " swift " tidied: lost, the change stores " swift " after this
                } else {
                    model.suggestions = []
                    observe()
                }
            }, owner: self)
    }

    static func type(trimsQuery: Bool) async {
        let model = TwinSearchModel()
        let field = TwinSearchField(model: model, trimsQuery: trimsQuery)
        field.observe()
        await Jitter.onQueue { model.query = " swift " }
        withExtendedLifetime(field) {}
    }
}

// MARK: registration-keeps-observer-alive

protocol TwinDownloadDelegate: AnyObject { func didFinish() }
final class TwinDownloadScreen: TwinDownloadDelegate { func didFinish() { Jitter.pause() } }

/// A downloader holding its delegate strongly: the screen that keeps it is
/// kept by it (a strong delegate cycle).
final class TwinDownloader: @unchecked Sendable {
    lazy var delegate = DelegateSlot(of: self, as: (any TwinDownloadDelegate).self, hold: .strong)
}

final class TwinCyclingScreen: TwinDownloadDelegate, @unchecked Sendable {
    let downloader = TwinDownloader()
    func didFinish() { Jitter.pause() }
}

enum TwinHolds {
    static let localDownloaderLine = #line + 6
    /// A downloader the test makes, holding its delegate strongly: the
    /// screen let go lives on until the downloader goes with the test.
    static func leaveScreenOfALocalDownloader(hooks: TwinHooks) async {
        let downloader = TwinDownloader()
        var screen: TwinDownloadScreen? = TwinDownloadScreen()
        downloader.delegate.set(screen)
        await Jitter.onQueue { downloader.delegate.call { $0.didFinish() } }
        hooks.release(screen!)
        screen = nil
    }

    static let strongDelegateLine = #line + 4
    /// The screen let go, its downloader holding it.
    static func leaveDownloadScreen(hooks: TwinHooks) async {
        var screen: TwinCyclingScreen? = TwinCyclingScreen()
        screen!.downloader.delegate.set(screen)
        await Jitter.onQueue { [downloader = screen!.downloader] in downloader.delegate.call { $0.didFinish() } }
        hooks.release(screen!)
        screen = nil
    }
}

/// A badge observing the cart's count through the Observation framework;
/// its onChange keeps it, or holds it weakly.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class TwinCountBadge: @unchecked Sendable {
    static let observeLine = #line + 9
    let cart: TwinObservableCart
    private(set) var refreshes = 0
    init(cart: TwinObservableCart) { self.cart = cart }
    func observe(capturingWeakly: Bool) {
        if capturingWeakly {
            Observers.withObservationTracking(
                { [cart] in cart.count }, onChange: { [weak self] in self?.refreshes += 1 }, owner: self)
        } else {
            Observers.withObservationTracking({ [cart] in cart.count }, onChange: { self.refreshes += 1 }, owner: self)
        }
    }

    static func leave(capturingWeakly: Bool, hooks: TwinHooks) async {
        let cart = TwinObservableCart()
        var badge: TwinCountBadge? = TwinCountBadge(cart: cart)
        badge!.observe(capturingWeakly: capturingWeakly)
        await Jitter.onQueue {}
        hooks.release(badge!)
        badge = nil
        withExtendedLifetime(cart) {}
    }
}

// MARK: delivery-off-isolation

/// An image store (an actor) that is a downloader's delegate: the
/// downloader calls it from the main actor.
/// What it does is noted (`noteAction`): live, the rule judges a delegate
/// call off the delegate's actor by what the harness sees it do.
actor TwinImageStore: TwinDownloadDelegate {
    static let attachLine = #line + 7
    let noteAction: @Sendable (_ key: String, _ setTo: String?) -> Void
    init(noteAction: @escaping @Sendable (_ key: String, _ setTo: String?) -> Void) { self.noteAction = noteAction }
    nonisolated func didFinish() {
        Jitter.pause()
        noteAction("store.downloads", nil)  // the actor's state, touched off the actor
    }
    func attach(to slot: DelegateSlot<any TwinDownloadDelegate>) { slot.set(self) }
}

enum TwinDownloads {
    static func finishIntoImageStore(hooks: TwinHooks) async {
        let downloader = NSObject()
        let slot = DelegateSlot(of: downloader, as: (any TwinDownloadDelegate).self)
        let store = TwinImageStore(noteAction: hooks.noteAction)
        await store.attach(to: slot)
        await MainActor.run { slot.call { $0.didFinish() } }
        withExtendedLifetime((downloader, store)) {}
    }
}

/// A cart badge whose count is an observed property: a handler with no
/// actor of its own, or a main-actor one that hops back onto it.
final class TwinCountedBadge: @unchecked Sendable {
    lazy var count = ObservedProperty("count", of: self, initialValue: 0)
    var token: (any NSObjectProtocol)?

    static func syncFromBackground(mainActorHop: Bool) async {
        let center = Observers.center
        let badge = TwinCountedBadge()
        if mainActorHop {
            await MainActor.run {
                badge.token = center.addObserver(forName: .twinCartChanged, object: nil, queue: nil) { _ in
                    Jitter.pause()
                    Task { @MainActor in badge.count.set(badge.count.value + 1) }
                }
            }
        } else {
            badge.token = center.addObserver(forName: .twinCartChanged, object: nil, queue: nil) { _ in
                badge.count.set(badge.count.value + 1)
            }
        }
        await Jitter.onQueue { center.post(name: .twinCartChanged, object: nil) }
        await MainActor.run {}  // the hop has run
        if let token = badge.token { center.removeObserver(token) }
    }
}

/// An energy meter (an actor) whose handler hands the reading to a task of
/// no actor, which adds it up there: off the meter's actor.
actor TwinOffActorMeter {
    static let registrationLine = #line + 6
    private var token: (any NSObjectProtocol)?
    func start(
        _ center: any NotificationCenterProtocol,
        noteAction: @escaping @Sendable (_ key: String, _ setTo: String?) -> Void
    ) {
        token = center.addObserver(forName: .twinMeterReading, object: nil, queue: nil) { _ in
            Task {
                Jitter.pause()
                noteAction("meter.total", nil)  // the meter's total, added up off the meter
            }
        }
    }
    func stop(_ center: any NotificationCenterProtocol) { if let token { center.removeObserver(token) } }

    static func read(hooks: TwinHooks) async {
        let center = Observers.center
        let (added, adding) = AsyncStream<Void>.makeStream()
        let meter = TwinOffActorMeter()
        await meter.start(center) { key, value in
            hooks.noteAction(key, value)
            adding.yield()
        }
        await MainActor.run { center.post(name: .twinMeterReading, object: nil, userInfo: ["watts": 40]) }
        for await _ in added { break }
        await meter.stop(center)
    }
}

// MARK: discarded-token (typed messages)

/// A badge following a cart's typed revisions: its token dropped at once,
/// or kept while the badge lives.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
final class TwinRevisionBadge: @unchecked Sendable {
    static let observeLine = #line + 8
    var token: NotificationCenter.ObservationToken?

    init(cart: TwinCart, keepsToken: Bool) {
        let center = Observers.center
        if keepsToken {
            token = center.addObserver(of: cart, for: TwinCartRevised.self) { _ in Jitter.pause() }
        } else {
            _ = center.addObserver(of: cart, for: TwinCartRevised.self) { _ in Jitter.pause() }
        }
    }

    static func follow(keepsToken: Bool, hooks: TwinHooks) async {
        let cart = TwinCart()
        var badge: TwinRevisionBadge? = TwinRevisionBadge(cart: cart, keepsToken: keepsToken)
        await Jitter.onQueue { Observers.center.post(TwinCartRevised(revision: 1), subject: cart) }
        await hooks.settle()  // the async message delivered
        badge = nil
        withExtendedLifetime(badge) {}
    }
}

// MARK: async-observer-outlives-owner, message-dropped, observed-object-deallocated

/// A theme screen whose loop holds it weakly but is never cancelled: it
/// keeps running, and taking posts, after the screen goes.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class TwinWeakThemeScreen: @unchecked Sendable {
    static let loopLine = #line + 6
    var task: Task<Void, Never>?
    private(set) var reloads = 0
    init() {
        let center = Observers.center
        task = Task { [weak self] in
            for await _ in center.postedNotifications(named: .twinThemeChanged) { self?.reloads += 1 }
        }
    }
}

/// A history whose loop keeps two messages: two syncs, a pause, a third.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@MainActor final class TwinRoomyHistory {
    var revisions: [Int] = []
    var task: Task<Void, Never>?
    init(cart: TwinCart) {
        task = Task { [weak self] in
            for await message in Observers.center.messages(of: cart, for: TwinCartRevised.self, bufferSize: 2) {
                self?.revisions.append(message.revision)
            }
        }
    }
    deinit { task?.cancel() }
}

/// A download row observing its task's progress, told by the manager when
/// the task is done (after the manager let the task go), and stopping then.
final class TwinDownloadRow: @unchecked Sendable {
    let center: any NotificationCenterProtocol
    var token: (any NSObjectProtocol)?
    init(center: any NotificationCenterProtocol, task: TwinUpload) {
        self.center = center
        token = center.addObserver(forName: .twinUploadProgress, object: task, queue: nil) { _ in Jitter.pause() }
    }
    func downloadFinished() { if let token { center.removeObserver(token) } }

    static func finishThroughManager() async {
        var task: TwinUpload? = TwinUpload()
        let row = TwinDownloadRow(center: Observers.center, task: task!)
        await Jitter.onQueue {}
        task = nil
        row.downloadFinished()
    }
}

// MARK: The table

extension RuleTwins {
    static var pageTwins: [RuleTwin] {
        commands + orders + escapes + wildcards + removalsAndFilters + deadDelegates + danglings
            + duplicateRegistrations
            + mutations + holds + isolations + outlivedLoops + typedTokens
    }

    static let commands = [
        RuleTwin(
            rule: "broadcast-as-command", name: "two product lists each adding the tapped product to the cart",
            line: TwinProductCell.tapLine
        ) { hooks in await TwinProductCell.tapWithTwoLists(effect: .addsToCart, hooks: hooks) },
        RuleTwin(rule: "broadcast-as-command", name: "two product lists marking the cart dirty", line: nil) {
            hooks in await TwinProductCell.tapWithTwoLists(effect: .marksCartDirty, hooks: hooks)
        },
        RuleTwin(rule: "broadcast-as-command", name: "two product lists counting their own taps", line: nil) {
            hooks in await TwinProductCell.tapWithTwoLists(effect: .countsOwnTaps, hooks: hooks)
        },
    ]

    static let orders = [
        RuleTwin(
            rule: "ordering-dependence", name: "analytics reading the user the session stores, on the same login",
            line: TwinSession.loginLine
        ) { hooks in hooks.checkOrder { TwinLoginAnalytics.login(center: $0, waitsForSession: false) } },
        RuleTwin(rule: "ordering-dependence", name: "analytics waiting for the session's announcement", line: nil) {
            hooks in hooks.checkOrder { TwinLoginAnalytics.login(center: $0, waitsForSession: true) }
        },
        // The check runs the body 1 000 times, one after another on one
        // thread, in orders it chooses: no timing enters, so a few runs do.
        RuleTwin(
            rule: "exploration-limit", name: "six widgets refreshed twice: more orders than the check's budget",
            line: TwinStockScreen.secondRefreshLine, runsAtMost: 3
        ) { hooks in hooks.checkOrder { TwinStockScreen.refreshTwice(center: $0, widgets: 6) } },
        RuleTwin(rule: "exploration-limit", name: "two widgets refreshed twice: every order tried", line: nil) {
            hooks in hooks.checkOrder { TwinStockScreen.refreshTwice(center: $0, widgets: 2) }
        },
    ]

    static let wildcards = [
        RuleTwin(
            rule: "wildcard-misses-foundation-posts", name: "a debug log registered for every name",
            line: TwinDebugLog.everyNameLine
        ) { _ in await TwinDebugLog.listen(toEveryName: true) },
        RuleTwin(rule: "wildcard-misses-foundation-posts", name: "a debug log of the names it needs", line: nil) {
            _ in await TwinDebugLog.listen(toEveryName: false)
        },
    ]

    static let escapes = [
        RuleTwin(
            rule: "escaped-test-scope", name: "a clock ticking on its own thread, tied to no test",
            line: TwinClock.tickLine, onlyBesideOthers: true
        ) { _ in await TwinClock.tick(carryingScope: false) },
        RuleTwin(rule: "escaped-test-scope", name: "the clock's thread carrying the test's scope", line: nil) { _ in
            await TwinClock.tick(carryingScope: true)
        },
    ]

    static let removalsAndFilters = [
        RuleTwin(
            rule: "unbalanced-removal", name: "a screen removing its registration twice",
            line: TwinRemovals.secondRemovalLine
        ) { _ in await TwinRemovals.logoutScreenClosesTwice() },
        RuleTwin(
            rule: "value-object-filter", name: "a badge filtering on the cart's id",
            line: TwinCartBadges.valueFilterLine
        ) { _ in await TwinCartBadges.follow(filteringOnID: true) },
        RuleTwin(rule: "value-object-filter", name: "a badge filtering on the cart, its id in userInfo", line: nil) {
            _ in await TwinCartBadges.follow(filteringOnID: false)
        },
        RuleTwin(rule: "channel-name-typo", name: "a post of the observed name", line: nil) { _ in
            await TwinCartPosts.announce(sendingValue: false, typo: false)
        },
        RuleTwin(rule: "observed-object-deallocated", name: "a row removed once its task is let go", line: nil) {
            _ in await TwinDownloadRow.finishThroughManager()
        },
    ]

    static let deadDelegates = [
        RuleTwin(
            rule: "notify-after-dealloc", name: "a table calling its freed unowned data source",
            line: TwinTables.unownedSetLine
        ) { _ in await TwinTables.reloadAfterDataSourceGoes(unowned: true) },
        RuleTwin(rule: "notify-after-dealloc", name: "a table whose weak data source went", line: nil) { _ in
            await TwinTables.reloadAfterDataSourceGoes(unowned: false)
        },
    ]

    static let danglings = [
        RuleTwin(rule: "dangling-registration", name: "a sale banner removing itself in deinit", line: nil) {
            hooks in await TwinSaleBanner.show(hooks: hooks)
        },
        RuleTwin(rule: "dangling-registration", name: "a weak scroll delegate that goes", line: nil) { _ in
            await TwinWeakRegistries.scrollControllerGoes()
        },
        RuleTwin(rule: "dangling-registration", name: "a screen gone from a weak store, then notified", line: nil) {
            _ in await TwinWeakRegistries.screenInAWeakStoreGoes()
        },
    ]

    static var duplicateRegistrations: [RuleTwin] {
        let twins = [
            RuleTwin(
                rule: "duplicate-registration", name: "a cart badge registering on each appearance",
                line: TwinCartBadgeView.appearLine
            ) { hooks in await TwinCartBadgeView.appearTwice(disappearingBetween: false, hooks: hooks) },
            RuleTwin(rule: "duplicate-registration", name: "a cart badge removing before it appears again", line: nil) {
                hooks in await TwinCartBadgeView.appearTwice(disappearingBetween: true, hooks: hooks)
            },
            RuleTwin(rule: "duplicate-registration", name: "a mixer following two channels' levels", line: nil) { _ in
                await TwinMixers.followBothChannels()
            },
        ]
        return twins
    }

    static var mutations: [RuleTwin] {
        var twins = [
            RuleTwin(
                rule: "mutation-during-notify", name: "a coordinator dropping the logger the notify has not reached",
                line: TwinCoordinators.removalLine
            ) { _ in await TwinCoordinators.notify(removingDuringNotify: true) },
            RuleTwin(rule: "mutation-during-notify", name: "the logger dropped after the notify", line: nil) { _ in
                await TwinCoordinators.notify(removingDuringNotify: false)
            },
            RuleTwin(rule: "mutation-during-notify", name: "a one-shot first-launch observer", line: nil) { _ in
                await TwinOnboarding.firstLaunch()
            },
        ]
        if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
            twins += [
                RuleTwin(
                    rule: "mutation-during-notify", name: "a search field trimming the query it tracks",
                    line: TwinSearchField.observeLine
                ) { _ in await TwinSearchField.type(trimsQuery: true) },
                RuleTwin(
                    rule: "mutation-during-notify", name: "a search field clearing suggestions, observing again",
                    line: nil
                ) { _ in await TwinSearchField.type(trimsQuery: false) },
            ]
        }
        return twins
    }

    static var holds: [RuleTwin] {
        var twins = [
            RuleTwin(
                rule: "registration-keeps-observer-alive", name: "a downloader holding its delegate strongly",
                line: TwinHolds.strongDelegateLine
            ) { hooks in await TwinHolds.leaveDownloadScreen(hooks: hooks) },
            RuleTwin(
                rule: "registration-keeps-observer-alive", name: "a downloader made in the test holding its delegate",
                line: TwinHolds.localDownloaderLine
            ) { hooks in await TwinHolds.leaveScreenOfALocalDownloader(hooks: hooks) },
        ]
        if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
            twins += [
                RuleTwin(
                    rule: "registration-keeps-observer-alive", name: "a badge its onChange captures",
                    line: TwinCountBadge.observeLine
                ) { hooks in await TwinCountBadge.leave(capturingWeakly: false, hooks: hooks) },
                RuleTwin(
                    rule: "registration-keeps-observer-alive", name: "a badge its onChange holds weakly", line: nil
                ) { hooks in await TwinCountBadge.leave(capturingWeakly: true, hooks: hooks) },
            ]
        }
        return twins
    }

    static var typedTokens: [RuleTwin] {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return [] }
        return [
            RuleTwin(
                rule: "discarded-token", name: "a badge dropping its typed observer's token at once",
                line: TwinRevisionBadge.observeLine
            ) { hooks in await TwinRevisionBadge.follow(keepsToken: false, hooks: hooks) },
            RuleTwin(rule: "discarded-token", name: "a badge keeping its typed token while it lives", line: nil) {
                hooks in await TwinRevisionBadge.follow(keepsToken: true, hooks: hooks)
            },
        ]
    }

    static let isolations = [
        RuleTwin(
            rule: "delivery-off-isolation", name: "a meter adding up a reading in a task of no actor",
            line: TwinOffActorMeter.registrationLine
        ) { hooks in await TwinOffActorMeter.read(hooks: hooks) },
        RuleTwin(
            rule: "delivery-off-isolation", name: "an image store delegate called from the main actor",
            line: TwinImageStore.attachLine
        ) { hooks in await TwinDownloads.finishIntoImageStore(hooks: hooks) },
        RuleTwin(rule: "delivery-off-isolation", name: "a badge with no actor, synced from a queue", line: nil) {
            _ in await TwinCountedBadge.syncFromBackground(mainActorHop: false)
        },
        RuleTwin(rule: "delivery-off-isolation", name: "a main-actor badge hopping back onto it", line: nil) { _ in
            await TwinCountedBadge.syncFromBackground(mainActorHop: true)
        },
    ]

    static var outlivedLoops: [RuleTwin] {
        var twins: [RuleTwin] = []
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            twins.append(
                RuleTwin(
                    rule: "async-observer-outlives-owner", name: "a weak theme loop never cancelled, posted to after",
                    line: TwinWeakThemeScreen.loopLine, runsAtMost: loopBugRuns
                ) { hooks in
                    var screen: TwinWeakThemeScreen? = TwinWeakThemeScreen()
                    hooks.track(screen!)
                    await hooks.settle()
                    hooks.release(screen!)
                    screen = nil
                    let center = Observers.center  // the test's: its post is checked
                    await Jitter.onQueue { center.post(name: .twinThemeChanged, object: nil) }
                    await hooks.settle()
                })
        }
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            twins.append(
                RuleTwin(rule: "message-dropped", name: "two syncs, the loop catching up, a third", line: nil) {
                    hooks in
                    let cart = TwinCart()
                    let history = await TwinRoomyHistory(cart: cart)
                    await hooks.settle()
                    let center = Observers.center
                    await MainActor.run {
                        for revision in 1...2 { center.post(TwinCartRevised(revision: revision), subject: cart) }
                    }
                    await hooks.settle()
                    await MainActor.run { center.post(TwinCartRevised(revision: 3), subject: cart) }
                    await hooks.settle()
                    await history.task?.cancel()
                    await hooks.settle()
                })
        }
        return twins
    }
}
