// Seed article 004 — "Objective-C结合RAC实现KVO广播功能" (CrespoXiao, 2015): `ONEObserverStore`
// observes `ONEUserStore.token` with RACObserve and broadcasts every change to
// blocks kept in `listenedObjArray`, keyed by the observer's address
// (`[NSString stringWithFormat:@"%p", observer]`), registered once per observer
// and removed by `rac_willDeallocSignal` when the observer deallocates.
//
// Golden scenarios: Golden/seeds/observer-store/.
//
// Not expressible, live or in scenarios: the address key itself. A new object
// allocated at a freed observer's address is taken as already registered
// (`if (alreadyAdd) { return; }`) when the old entry was not removed in time;
// instrumented registries and scenario objects identify observers by identity,
// never by address. See repeated-registration-fixed.scenario.json.

import Foundation
import Testing

@testable import ObserverHarness

@Suite struct SeedsObserverStoreTests {
    // MARK: The article's classes, in Swift, on the instrumented registries

    /// A page that reacts to token changes (`-viewWillAppear:` registers it).
    protocol TokenListener: AnyObject {
        func tokenDidChange(_ token: String?)
    }

    /// `ONEUserStore` (`[ONEUserStore sharedInstance].token`).
    final class UserStore {
        var token: ObservedProperty<String?>!
        static func make(_ harness: Harness) -> UserStore {
            let store = UserStore()
            harness.track(store, label: "userStore")
            store.token = harness.observedProperty("token", of: store, initialValue: nil)
            return store
        }
    }

    /// `ONEObserverStore`. `hold`: the article stores the address string and a
    /// `@weakify` block, so the entry does not retain the page (`.weak`); storing
    /// the page itself is the leak it warns about (`.strong`). `dedupe`: the
    /// once-only check of `-addObserver:responseBlock:`.
    final class ObserverStore {
        /// Typed `AnyObject`: `ObserverList` cannot take a protocol existential (see article 001's test).
        let listenedObjArray: ObserverList<AnyObject>
        let userStore: UserStore

        init(harness: Harness, userStore: UserStore, hold: Hold, dedupe: Bool) {
            self.userStore = userStore
            listenedObjArray = harness.observerList(
                "observerStore", of: AnyObject.self,
                hold: hold, dedupe: dedupe)
            harness.track(self, label: "observerStore")
            listenToken()
        }

        /// `-listenToken`: `[RACObserve([ONEUserStore sharedInstance], token) subscribeNext:^(NSString *token){
        /// for (id obj in self.listenedObjArray) { ... block(); } }]`.
        private func listenToken() {
            userStore.token.addObserver(self) { store, change in
                store.listenedObjArray.notify { ($0 as? any TokenListener)?.tokenDidChange(change.newValue) }
            }
        }

        /// `-addObserver:responseBlock:` (once-only check: the list's `dedupe`).
        func addObserver(_ observer: any TokenListener) { listenedObjArray.add(observer) }

        /// `-removeObserver:` (from `[observer rac_willDeallocSignal] subscribeCompleted:`).
        func removeObserver(_ observer: any TokenListener) { listenedObjArray.remove(observer) }
    }

    /// The usage example: registers in `-viewWillAppear:`; `rac_willDeallocSignal`
    /// removes it when it deallocates.
    final class OrderViewController: TokenListener {
        let store: ObserverStore
        let harness: Harness
        let name: String
        var submitRequests = 0
        /// What the block does besides `[self submitRequest]`: the login page pops itself.
        var onTokenChange: (() -> Void)?

        init(store: ObserverStore, harness: Harness, name: String) {
            self.store = store
            self.harness = harness
            self.name = name
            harness.track(self, label: name)
        }

        func viewWillAppear() { store.addObserver(self) }

        /// The response block: `@strongify(self); NSLog(token); if (self.isAutoOrderAfterLogin) { ... [self submitRequest]; }`.
        func tokenDidChange(_ token: String?) {
            submitRequests += 1
            harness.noteAction(.increment("\(name).submitRequests"))
            onTokenChange?()
        }

        deinit { store.removeObserver(self) }
    }

    // MARK: strong-observer-entries

    @Test(arguments: [Hold.strong, Hold.weak])
    func storeEntryHold(hold: Hold) {
        let harness = Harness(name: "strong-observer-entries")
        let userStore = UserStore.make(harness)
        let store = ObserverStore(harness: harness, userStore: userStore, hold: hold, dedupe: true)
        weak var weakVC: OrderViewController?
        do {
            let vc = OrderViewController(store: store, harness: harness, name: "orderVC")
            weakVC = vc
            vc.viewWillAppear()
            userStore.token.set("token-1")
            #expect(vc.submitRequests == 1)
            harness.noteReleased(vc)  // popped
        }
        userStore.token.set("token-2")

        let report = harness.analyze()
        if hold == .strong {
            // "even passing weakSelf, adding it to the array raises its retainCount, so the RAC removal
            // never executes, causing a memory leak" — and the block keeps firing.
            #expect(weakVC?.submitRequests == 2)
            #expect(report.errorsAndWarnings.map(\.rule) == ["registration-keeps-observer-alive"])
            #expect(report.findings.first { $0.rule == "registration-keeps-observer-alive" }?.objects == ["orderVC"])
            if let vc = weakVC { store.removeObserver(vc) }  // let it go after the assertions
        } else {
            #expect(weakVC == nil)
            do {  // fixed: a removal in deinit resolves the observer by address
                #expect(store.listenedObjArray.count == 0)
                #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
            }
        }
    }

    // MARK: repeated-registration

    @Test(arguments: [false, true])
    func viewWillAppearRegistersEveryTime(onceOnlyCheck: Bool) {
        let harness = Harness(name: "repeated-registration")
        let userStore = UserStore.make(harness)
        let store = ObserverStore(harness: harness, userStore: userStore, hold: .weak, dedupe: onceOnlyCheck)
        let vc = OrderViewController(store: store, harness: harness, name: "orderVC")
        vc.viewWillAppear()
        vc.viewWillAppear()  // the page appears again
        userStore.token.set("token-1")

        let report = harness.analyze()
        if onceOnlyCheck {
            #expect(vc.submitRequests == 1)
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        } else {
            #expect(vc.submitRequests == 2)  // the order is submitted twice
            #expect(report.errorsAndWarnings.map(\.rule) == ["duplicate-registration"])
            #expect(report.findings.first?.objects == ["orderVC"])
        }
    }

    // MARK: removal-during-broadcast

    /// The login page's block pops the page, which deallocates inside `-listenToken`'s fast enumeration;
    /// its `rac_willDeallocSignal` removal then mutates `listenedObjArray` mid-enumeration
    /// (NSGenericException). The page deallocates when the delivery loop drops its last reference:
    /// after the page's own delivery, before `orderVC`'s, so the removal runs between two deliveries.
    ///
    /// That crash is the Objective-C array's, enumerated in place: the scenario form
    /// (`Golden/seeds/observer-store/removal-during-broadcast`) models it as a `subject` and reports
    /// it. Ported to `ObserverList`, which delivers from a copy as Foundation's center does, the page
    /// removing its own entry is safe, and the harness says nothing.
    @Test func loginPagePoppingItselfDuringTheBroadcast() {
        let harness = Harness(name: "removal-during-broadcast")
        let userStore = UserStore.make(harness)
        let store = ObserverStore(harness: harness, userStore: userStore, hold: .weak, dedupe: true)
        var navigationStack: [OrderViewController] = []
        weak var weakLogin: OrderViewController?
        do {
            let login = OrderViewController(store: store, harness: harness, name: "loginVC")
            login.onTokenChange = { [unowned login] in navigationStack.removeAll { $0 === login } }  // pop
            weakLogin = login
            navigationStack.append(login)
            login.viewWillAppear()
        }
        let order = OrderViewController(store: store, harness: harness, name: "orderVC")
        order.viewWillAppear()
        userStore.token.set("token-1")

        #expect(weakLogin == nil)
        #expect(order.submitRequests == 1)
        let report = harness.analyze()
        #expect(report.errorsAndWarnings.isEmpty, "\(report.errorsAndWarnings.map(\.message))")
    }

    @Test func loginPagePoppingAfterTheBroadcastIsClean() {
        let harness = Harness(name: "removal-during-broadcast-fixed")
        let userStore = UserStore.make(harness)
        let store = ObserverStore(harness: harness, userStore: userStore, hold: .weak, dedupe: true)
        var navigationStack: [OrderViewController] = []
        weak var weakLogin: OrderViewController?
        do {
            let login = OrderViewController(store: store, harness: harness, name: "loginVC")
            weakLogin = login
            navigationStack.append(login)
            login.viewWillAppear()
        }
        let order = OrderViewController(store: store, harness: harness, name: "orderVC")
        order.viewWillAppear()
        userStore.token.set("token-1")
        navigationStack.removeAll()  // dispatch_async(main, ^{ pop })

        #expect(weakLogin == nil)
        let report = harness.analyze()
        do {  // fixed: a removal in deinit resolves the observer by address
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }
    }

    // MARK: The golden scenarios of this article

    @Test(arguments: [
        ("strong-observer-entries", ["registration-keeps-observer-alive"]),
        ("strong-observer-entries-fixed", []),
        ("repeated-registration", ["duplicate-registration"]),
        ("repeated-registration-fixed", []),
        ("removal-during-broadcast", ["mutation-during-notify"]),
        ("removal-during-broadcast-fixed", []),
    ])
    func goldenScenario(name: String, expected: [String]) throws {
        let report = try SeedScenarios.report(seed: "observer-store", name: name)
        #expect(report.errorsAndWarnings.map(\.rule) == expected)
        #expect(report.findings.allSatisfy { $0.severity != .note })
    }
}
