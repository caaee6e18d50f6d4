import Foundation
import ObserverHarness
import ObserverHarnessTesting
import Testing

private let sessionChanged = Notification.Name("SessionChanged")

/// A login seen by two observers of one notification: a cache that stores
/// the user, and a banner that shows it. Each handler notes what it touches,
/// so the check sees their footprints.
enum LoginScene {
    final class Cache: @unchecked Sendable { var user: String? }
    final class Banner: @unchecked Sendable { var text = "" }

    /// Runs one login under `order` and returns the banner's text.
    /// `bannerReadsCache`: the bug (the banner reads what the cache writes on
    /// the same post); otherwise the near miss (it reads the notification).
    static func bannerText(_ order: DeliveryOrder, bannerReadsCache: Bool) -> String {
        let harness = Harness()
        let center = harness.notificationCenter(order: order)
        let cache = Cache(), banner = Banner()
        let tokens = [
            observeAsCache(center, cache, harness),
            observeAsBanner(center, banner, cache, harness, readsCache: bannerReadsCache),
        ]
        center.post(name: sessionChanged, object: nil, userInfo: ["user": "ada"])
        for token in tokens { center.removeObserver(token) }
        return banner.text
    }

    /// Where each observer registers: failures are reported at these lines.
    static let cacheRegistration = CodeLocation()
    static let bannerRegistration = CodeLocation()
    static var cacheLine: Int { Int(cacheRegistration.line) }
    static var bannerLine: Int { Int(bannerRegistration.line) }

    static func observeAsCache(_ center: InstrumentedNotificationCenter, _ cache: Cache, _ harness: Harness)
        -> any NSObjectProtocol
    {
        center.addObserver(forName: sessionChanged, object: nil, queue: nil, location: cacheRegistration) { note in
            cache.user = note.userInfo?["user"] as? String
            harness.noteAction(.set("cache.user", value: cache.user ?? ""))
        }
    }

    static func observeAsBanner(
        _ center: InstrumentedNotificationCenter, _ banner: Banner, _ cache: Cache,
        _ harness: Harness, readsCache: Bool
    ) -> any NSObjectProtocol {
        center.addObserver(forName: sessionChanged, object: nil, queue: nil, location: bannerRegistration) { note in
            let user = readsCache ? cache.user : note.userInfo?["user"] as? String
            if readsCache { harness.noteAction(.read("cache.user")) }
            banner.text = user.map { "Welcome back, \($0)" } ?? "Welcome"
        }
    }

    /// Three screens that each only read the cache: their order cannot matter.
    static func screensReadingTheCache(_ order: DeliveryOrder) -> [String] {
        let harness = Harness()
        let center = harness.notificationCenter(order: order)
        let cache = Cache()
        cache.user = "ada"
        let titles = ["feed", "inbox", "player"]
        let shown = Shown()
        let tokens = titles.map { title in
            center.addObserver(forName: sessionChanged, object: nil, queue: nil) { _ in
                harness.noteAction(.read("cache.user"))
                shown.record(title, "\(title): \(cache.user ?? "")")
            }
        }
        center.post(name: sessionChanged, object: nil)
        for token in tokens { center.removeObserver(token) }
        return shown.sorted
    }

    /// Three screens that each append their name to one log; only the middle
    /// entry is returned, so reversing the whole order cannot show the
    /// dependence: only another order of the three can.
    static func middleOfTheLog(_ order: DeliveryOrder) -> String {
        let harness = Harness()
        let center = harness.notificationCenter(order: order)
        let shown = Shown()
        let tokens = ["feed", "inbox", "player"].map { title in
            center.addObserver(forName: sessionChanged, object: nil, queue: nil) { _ in
                harness.noteAction(.append("log", value: title))
                shown.record(title, title)
            }
        }
        center.post(name: sessionChanged, object: nil)
        for token in tokens { center.removeObserver(token) }
        return shown.inOrder[1]
    }

    /// What handlers showed, in the order they ran.
    final class Shown: @unchecked Sendable {
        private(set) var inOrder: [String] = []
        func record(_ key: String, _ value: String) { inOrder.append(value) }
        var sorted: [String] { inOrder.sorted() }
    }
}

@Suite struct OrderIndependence {
    /// The banner reads what the cache writes on the same post: the failure
    /// is reported at both registrations, naming them and quoting both texts.
    @Test func conflictingReceiversAreReversedAndReportedAtTheirRegistrations() {
        let lines = [LoginScene.cacheLine, LoginScene.bannerLine]
        withKnownIssue {
            assertOrderIndependent { LoginScene.bannerText($0, bannerReadsCache: true) }
        } matching: { issue in
            let text = String(describing: issue)
            return issue.sourceLocation?.fileName == "OrderIndependenceTests.swift"
                && lines.contains(issue.sourceLocation?.line ?? 0)
                && text.contains(#"it returns "Welcome back, ada" when block#1"#)
                && text.contains(#", "Welcome" when block#2"#)
                && text.contains("OrderIndependenceTests.swift:\(LoginScene.cacheLine)")
                && text.contains("OrderIndependenceTests.swift:\(LoginScene.bannerLine)")
                && issue.comments.contains { $0.rawValue.hasSuffix("[ordering-dependence]") }
        }
    }

    @Test func theFootprintsFindTheDependenceInOneReorderedRun() {
        let check = checkOrderIndependence { LoginScene.bannerText($0, bannerReadsCache: true) }
        #expect(check.conflictingDecisions == 1)
        #expect(check.runs == 2)
        let dependence = check.dependences.first
        #expect(check.dependences.count == 1)
        #expect(dependence?.receivers.map { $0.site?.line } == [LoginScene.cacheLine, LoginScene.bannerLine])
        #expect(dependence?.post.hasPrefix(#""SessionChanged" posted at"#) == true)
        #expect(check.baseline == "Welcome back, ada")
        #expect(dependence?.value == "Welcome")
    }

    /// The near miss: the banner reads the notification, so nothing conflicts
    /// and the one reversed run (kept for effects the harness cannot see) agrees.
    @Test func receiversReadingTheNotificationAreQuiet() {
        assertOrderIndependent { LoginScene.bannerText($0, bannerReadsCache: false) }
        let check = checkOrderIndependence { LoginScene.bannerText($0, bannerReadsCache: false) }
        #expect(check.conflictingDecisions == 0)
        #expect(check.runs == 2)
    }

    /// Receivers that only read commute: no blind shuffles, one reversed run.
    @Test func commutingReceiversNeedOneReversedRun() {
        assertOrderIndependent(LoginScene.screensReadingTheCache)
        let check = checkOrderIndependence(LoginScene.screensReadingTheCache)
        #expect(check.decisions == 1)
        #expect(check.conflictingDecisions == 0)
        #expect(check.runs == 2)
    }

    /// A dependence that reversing all three receivers hides is found among
    /// every order of the conflicting ones, and narrowed down to a pair.
    @Test func everyOrderOfFewConflictingReceiversIsTried() {
        let check = checkOrderIndependence(LoginScene.middleOfTheLog)
        #expect(check.conflictingDecisions == 1)
        #expect(check.baseline == "inbox")
        #expect(check.dependences.count == 1)
        #expect(check.dependences.first?.receivers.count == 2)
        #expect(check.dependences.first?.value != "inbox")
    }

    /// A receiver whose effects leave no footprint is still reversed once.
    @Test func invisibleEffectsAreStillReversedOnce() {
        let check = checkOrderIndependence { order -> String in
            let harness = Harness()
            let center = harness.notificationCenter(order: order)
            let shown = LoginScene.Shown()
            let tokens = ["first", "last"].map { title in
                center.addObserver(forName: sessionChanged, object: nil, queue: nil) { _ in shown.record(title, title) }
            }
            center.post(name: sessionChanged, object: nil)
            for token in tokens { center.removeObserver(token) }
            return shown.inOrder.last ?? ""
        }
        #expect(check.conflictingDecisions == 0)
        #expect(check.dependences.map { $0.value } == ["first"])
        #expect(check.runs == 2)
    }

    @Test func aThrowingBodyRethrows() {
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try assertOrderIndependent { (_: DeliveryOrder) throws(Stop) -> Int in throw Stop() }
        }
    }
}

/// App code on `Observers.center`, run inside `withObserverHarness` in the
/// body, names no order: the scope's center takes the check's, so the
/// banner that reads what the cache writes is caught, and the one that reads
/// the notification is not.
@Test(arguments: [true, false])
func aBodyOnObserversCenterIsExploredToo(bannerReadsCache: Bool) {
    let check = checkOrderIndependence { _ -> String in
        withObserverHarness(Harness()) {
            let center = Observers.center
            let cache = LoginScene.Cache(), banner = LoginScene.Banner()
            let tokens = [
                center.addObserver(forName: sessionChanged, object: nil, queue: nil) { note in
                    cache.user = note.userInfo?["user"] as? String
                    Harness.current?.noteAction(.set("cache.user", value: cache.user ?? ""))
                },
                center.addObserver(forName: sessionChanged, object: nil, queue: nil) { note in
                    let user = bannerReadsCache ? cache.user : note.userInfo?["user"] as? String
                    if bannerReadsCache { Harness.current?.noteAction(.read("cache.user")) }
                    banner.text = user.map { "Welcome back, \($0)" } ?? "Welcome"
                },
            ]
            center.post(name: sessionChanged, object: nil, userInfo: ["user": "ada"])
            for token in tokens { center.removeObserver(token) }
            return banner.text
        }
    }
    #expect(check.decisions == 1, "the post with two receivers was met")
    #expect(check.isIndependent == !bannerReadsCache)
    // Named and sited as on an injected center: a failure goes to the registration lines.
    for receiver in check.dependences.flatMap(\.receivers) {
        #expect(receiver.site?.file == "ObserverHarnessTestingTests/OrderIndependenceTests.swift", "\(receiver)")
        #expect(receiver.name.hasPrefix("block"), "\(receiver)")
    }
    for dependence in check.dependences {
        #expect(dependence.post.contains(" posted at ObserverHarnessTestingTests/OrderIndependenceTests.swift:"))
    }
}
