// Seed article 001 — "DesignMode、Observer" (2014): `UserInfoManager`, a singleton
// that keeps `UserInfoManagerProtocol` observers in a strong `NSMutableArray`,
// adds and removes them with `dispatch_async` on a serial queue, and notifies
// synchronously with `makeObjectsPerformSelector:`.
//
// Golden scenarios: Golden/seeds/user-info-manager/.

import Foundation
import Testing

@testable import ObserverHarness

@Suite struct SeedsUserInfoManagerTests {
    // MARK: The article's classes, in Swift, on the instrumented registries

    /// `@protocol UserInfoManagerProtocol <NSObject> - (void)userInfoDidChanged:(UserInfoManager *)manager;`
    protocol UserInfoManagerProtocol: AnyObject {
        func userInfoDidChanged(_ manager: UserInfoManager)
    }

    /// `UserInfoManager`: `observerArray` is an instrumented observer list.
    /// The article's list is strong (`@property (nonatomic, strong) NSMutableArray *observerArray`);
    /// the fix is a weak one (`[NSHashTable weakObjectsHashTable]`).
    ///
    /// The list is typed `AnyObject`: `ObserverList<Observer: AnyObject>` does not accept a protocol
    /// existential (`any UserInfoManagerProtocol` is not a class type to the generic constraint), so
    /// an `id<UserInfoManagerProtocol>` array cannot be typed as such; `notify` casts instead.
    final class UserInfoManager {
        let observerArray: ObserverList<AnyObject>
        private(set) var repayNumber = 0
        private(set) var recieveNumber = 0

        init(harness: Harness, hold: Hold) {
            observerArray = harness.observerList("observerArray", of: AnyObject.self, hold: hold)
        }

        // `-addObserver:` / `-removeObserver:`. The article wraps both in
        // `dispatch_async(self.serialQueue, ...)`; here they run at once (see
        // `asyncAddRacesNotify` below for why that part is scenario-only).
        func addObserver(_ observer: any UserInfoManagerProtocol) { observerArray.add(observer) }
        func removeObserver(_ observer: any UserInfoManagerProtocol) { observerArray.remove(observer) }

        /// `-synchronServerData`: "1. request the latest server data", "2. notify all observers".
        func synchronServerData(repay: Int, recieve: Int) {
            repayNumber = repay
            recieveNumber = recieve
            notifyAllObservers()
        }

        /// `-_notifyAllObservers`: `[self.observerArray makeObjectsPerformSelector:@selector(userInfoDidChanged:) withObject:self]`.
        private func notifyAllObservers() {
            observerArray.notify { ($0 as? any UserInfoManagerProtocol)?.userInfoDidChanged(self) }
        }
    }

    /// The test `ViewController`: registers in `-viewDidLoad`, unregisters in `-dealloc`.
    final class ViewController: UserInfoManagerProtocol {
        let manager: UserInfoManager
        var repayLabel: Int?
        var recieveLabel: Int?

        init(manager: UserInfoManager) { self.manager = manager }

        func viewDidLoad() {
            manager.addObserver(self)  // 1. add the observer
        }

        func userInfoDidChanged(_ manager: UserInfoManager) {
            repayLabel = manager.repayNumber  // 3. read the latest data
            recieveLabel = manager.recieveNumber
        }

        deinit {
            manager.removeObserver(self)  // 4. (never runs while the list holds self strongly)
        }
    }

    // MARK: strong-observer-array

    @Test func strongObserverArrayKeepsThePoppedViewControllerAlive() throws {
        let harness = Harness(name: "strong-observer-array")
        let manager = UserInfoManager(harness: harness, hold: .strong)
        weak var weakVC: ViewController?
        do {
            let vc = ViewController(manager: manager)
            harness.track(vc, label: "vc")
            weakVC = vc
            vc.viewDidLoad()
            manager.synchronServerData(repay: 2, recieve: 1)
            #expect(vc.repayLabel == 2)
            harness.noteReleased(vc)  // the navigation controller pops it
        }
        // Its -dealloc (the only removal) never ran: it is alive and still updated.
        #expect(weakVC != nil)
        manager.synchronServerData(repay: 0, recieve: 3)
        #expect(weakVC?.recieveLabel == 3)

        let report = harness.analyze()
        let leaks = report.findings.filter { $0.rule == "registration-keeps-observer-alive" }
        #expect(leaks.count == 1)
        #expect(leaks.first?.objects == ["vc"])
        #expect(leaks.first?.severity == .error)
        #expect(report.errorsAndWarnings.map(\.rule) == ["registration-keeps-observer-alive"])
    }

    @Test func weakObserverTableLetsDeallocRemoveTheEntry() throws {
        let harness = Harness(name: "strong-observer-array-fixed")
        let manager = UserInfoManager(harness: harness, hold: .weak)
        weak var weakVC: ViewController?
        do {
            let vc = ViewController(manager: manager)
            harness.track(vc, label: "vc")
            weakVC = vc
            vc.viewDidLoad()
            manager.synchronServerData(repay: 2, recieve: 1)
            #expect(vc.repayLabel == 2)
            harness.noteReleased(vc)
        }
        #expect(weakVC == nil)
        manager.synchronServerData(repay: 0, recieve: 3)

        let report = harness.analyze()
        #expect(report.errorsAndWarnings.allSatisfy { $0.rule == "unbalanced-removal" })
        do {  // fixed: a removal in deinit resolves the observer by address
            #expect(manager.observerArray.count == 0)
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }
    }

    // MARK: async-add-races-notify

    /// `-addObserver:` does `dispatch_async(self.serialQueue, ^{ [self.observerArray addObject:observer]; })`
    /// while `_notifyAllObservers` runs synchronously on the caller's thread. Whether the add lands before
    /// the notify is an interleaving of concurrent steps: only scenario replay explores those
    /// (`concurrently`, Golden/seeds/user-info-manager/async-add-races-notify.scenario.json). Live code
    /// would have to race a real queue, and no trace rule judges a missed first update, so the live
    /// API cannot express this misuse.
    @Test(
        .disabled("ordering exploration of concurrent steps is scenario-only; see async-add-races-notify.scenario.json")
    )
    func asyncAddRacesNotify() {}

    // MARK: The golden scenarios of this article

    @Test(arguments: [
        ("strong-observer-array", ["registration-keeps-observer-alive"]),
        ("strong-observer-array-fixed", []),
        ("async-add-races-notify", ["ordering-dependence"]),
        ("async-add-races-notify-fixed", []),
    ])
    func goldenScenario(name: String, expected: [String]) throws {
        let report = try SeedScenarios.report(seed: "user-info-manager", name: name)
        #expect(report.errorsAndWarnings.map(\.rule) == expected)
    }
}
