import Foundation
import Observation
import Testing

@testable import ObserverHarness

/// Counts onChange firings from any thread.
private final class FiringCount: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = 0
    func add() { lock.withLock { storage += 1 } }
    var value: Int { lock.withLock { storage } }
}

/// A screen that shows a cart's count and observes it each time it appears.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
private final class CartScreen: @unchecked Sendable {
    let cart: ObservableCart
    let firings = FiringCount()
    init(cart: ObservableCart) { self.cart = cart }

    /// One call site: each call is one `withObservationTracking`.
    func appear() {
        _ = Observers.withObservationTracking(
            { self.cart.count }, onChange: { [self] in firings.add() }, owner: self)
    }

    /// The onChange captures the screen weakly.
    func appearWeakly() {
        let firings = firings
        _ = Observers.withObservationTracking(
            { [weak self] in self?.cart.count }, onChange: { firings.add() }, owner: self)
    }
}

extension Live {
    /// `Observers.withObservationTracking` as the framework runs it: each call
    /// a one-shot registration of its own, its onChange kept until it fires.
    @Suite struct ObservationTracking {
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func twoCallsFromOneSiteBothFireOnceAsWithoutAHarness() {
            let bare = CartScreen(cart: ObservableCart())
            bare.appear()
            bare.appear()
            bare.cart.count = 1
            bare.cart.count = 2
            #expect(bare.firings.value == 2, "the framework runs both onChanges, once each")

            let harness = Harness()
            let screen = CartScreen(cart: ObservableCart())
            withObserverHarness(harness) {
                screen.appear()
                screen.appear()
            }
            screen.cart.count = 1
            screen.cart.count = 2
            #expect(screen.firings.value == 2)
            let fires = harness.recorder.snapshot().events.filter { $0.kind == .observationFire }
            #expect(fires.count == 2)
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aScreenReleasedBeforeItsOnChangeFiredIsKeptAlive() throws {
            let harness = Harness()
            let cart = ObservableCart()
            var screen: CartScreen? = CartScreen(cart: cart)
            weak let released = screen
            withObserverHarness(harness) { screen?.appear() }
            harness.noteReleased(screen!)
            screen = nil
            #expect(released != nil, "the model's registrar keeps the onChange, which captures the screen")
            let finding = try #require(harness.analyze().live("registration-keeps-observer-alive").first)
            #expect(finding.message.contains("has not fired"), "\(finding.message)")
            cart.count = 1
            #expect(released == nil, "a fired onChange lets it go")
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aScreenCapturedWeaklyGoesAndIsClean() {
            let harness = Harness()
            let cart = ObservableCart()
            var screen: CartScreen? = CartScreen(cart: cart)
            weak let released = screen
            withObserverHarness(harness) { screen?.appearWeakly() }
            harness.noteReleased(screen!)
            screen = nil
            #expect(released == nil)
            #expect(harness.analyze().live("registration-keeps-observer-alive").isEmpty)
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test func aDiscardedTypedTokenBesideAKeptOneIsOnlyDiscardedToken() {
            let harness = Harness()
            let center = harness.notificationCenter()
            let cart = LiveCart()
            let counter = LiveCounter()
            var kept: [NotificationCenter.ObservationToken] = []
            for keep in [true, false] {
                let token = center.addObserver(of: cart, for: LiveCartDidChange.self) { counter.append($0.count) }
                if keep { kept.append(token) }
            }
            center.post(LiveCartDidChange(count: 1), subject: cart)
            #expect(counter.values == [1], "the discarded observer never fires")
            let rules = Set(harness.analyze().findings.filter { $0.severity != .note }.map(\.rule))
            #expect(rules == ["discarded-token"])
            withExtendedLifetime(kept) {}
        }
    }
}

/// The threads some code ran on.
private final class ThreadLog: @unchecked Sendable {
    private let lock = NSLock()
    private var threads: [pthread_t] = []
    func note() { lock.withLock { threads.append(pthread_self()) } }
    var count: Int { lock.withLock { threads.count } }
    func contains(_ other: ThreadLog) -> Bool {
        let mine = lock.withLock { threads }
        return other.lock.withLock { other.threads }.contains { theirs in
            mine.contains { pthread_equal($0, theirs) != 0 }
        }
    }
}

/// A main-actor label over a model changed from other threads, as the
/// `delivery-off-isolation` page shows it: the fix hops in onChange and
/// observes again on the main actor; the bug observes again right there,
/// off the main actor.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
@MainActor private final class CartLabel {
    let cart: ObservableCart
    let rearmed = FiringCount()
    var text = ""
    init(cart: ObservableCart) { self.cart = cart }

    /// The fix: onChange only hops onto the main actor, which observes again.
    func observeHopping() {
        text = Observers.withObservationTracking(
            { "\(self.cart.count) items" },
            onChange: { [weak self] in
                Task { @MainActor in
                    self?.observeHopping()
                    self?.rearmed.add()
                }
            })
    }

    /// The bug: onChange observes again on the changing thread.
    func observeInPlace() {
        let cart = cart
        text = Observers.withObservationTracking({ "\(cart.count) items" }, onChange: { CartLabel.observe(cart) })
    }

    /// The threads its `apply` ran on.
    let applyThreads = ThreadLog()
    func observeOnce() {
        text = Observers.withObservationTracking(
            {
                self.applyThreads.note()
                return "\(self.cart.count) items"
            }, onChange: {})
    }

    /// The bug `observation-not-rearmed` names: onChange never observes again.
    func observeOnlyOnce() {
        text = Observers.withObservationTracking({ "\(self.cart.count) items" }, onChange: {})
    }

    nonisolated static func observe(_ cart: ObservableCart) {
        _ = Observers.withObservationTracking({ cart.count }, onChange: {})
    }
}

extension Live.ObservationTracking {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test @MainActor func anOnChangeThatOnlyHopsToItsActorIsNotOffIsolation() async {
        let harness = Harness()
        let cart = ObservableCart()
        let label = withObserverHarness(harness) {
            let label = CartLabel(cart: cart)
            label.observeHopping()
            return label
        }
        await Task.detached { cart.count = 1 }.value
        while label.rearmed.value == 0 { await Task.yield() }
        harness.analyze().expectNone(of: "delivery-off-isolation")
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test @MainActor func anOnChangeThatObservesAgainOffItsActorIsReported() async {
        let harness = Harness()
        let cart = ObservableCart()
        let label = withObserverHarness(harness) {
            let label = CartLabel(cart: cart)
            label.observeInPlace()
            return label
        }
        await Task.detached { cart.count = 1 }.value
        #expect(harness.analyze().findings.map(\.rule).contains("delivery-off-isolation"))
        withExtendedLifetime(label) {}
    }
}

extension Live.ObservationTracking {
    /// To keep watching after a firing, the harness runs the app's `apply`
    /// again: only on the actor the app armed it on, never on the thread that
    /// made the change (a main-actor closure run there is a data race the
    /// app does not have).
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test @MainActor func theAppsApplyRunsOnlyOnTheActorItWasArmedOn() async {
        let harness = Harness()
        let cart = ObservableCart()
        let label = CartLabel(cart: cart)
        withObserverHarness(harness) { label.observeOnce() }
        let changers = ThreadLog()
        await Task.detached {
            changers.note()
            cart.count = 1
        }.value
        for _ in 0..<20 { await Task.yield() }
        #expect(label.applyThreads.count > 0)
        #expect(!label.applyThreads.contains(changers), "apply ran on the thread that made the change")
    }

    /// Changes made from other threads: the harness still watches (from the
    /// main queue, where the label armed), and sees the change it missed.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test @MainActor func aChangeMissedFromAnotherThreadIsStillSeen() async {
        let harness = Harness()
        let cart = ObservableCart()
        let label = CartLabel(cart: cart)
        withObserverHarness(harness) { label.observeOnlyOnce() }
        await Task.detached { cart.count = 1 }.value
        for _ in 0..<20 { await Task.yield() }
        await Task.detached { cart.count = 2 }.value
        #expect(harness.analyze().findings.map(\.rule).contains("observation-not-rearmed"))
    }
}

/// A label that renders in `apply` and arms again inside `onChange`, as the
/// framework's documentation says to: counts its renders.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
private final class RenderingLabel: @unchecked Sendable {
    let cart: ObservableCart
    let renders = FiringCount()
    let harnessed: Bool
    init(cart: ObservableCart, harnessed: Bool) { (self.cart, self.harnessed) = (cart, harnessed) }

    func observe() {
        let render = { [self] in
            renders.add()
            _ = cart.count
        }
        let onChange: @Sendable () -> Void = { [weak self] in self?.observe() }
        if harnessed {
            Observers.withObservationTracking(render, onChange: onChange, owner: self)
        } else {
            withObservationTracking(render, onChange: onChange)
        }
    }
}

extension Live.ObservationTracking {
    /// An app that arms again inside `onChange` is watching already: the
    /// harness runs its `apply` no more often than the framework does (it
    /// once ran it again at every firing, a render the app never made).
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: [false, true]) func anAppThatArmsAgainRendersAsOftenAsWithoutAHarness(fromAnotherThread: Bool)
        async
    {
        func renders(harnessed: Bool) async -> Int {
            let harness = Harness()
            let cart = ObservableCart()
            let label = RenderingLabel(cart: cart, harnessed: harnessed)
            withObserverHarness(harness) { label.observe() }
            for count in 1...3 {
                if fromAnotherThread {
                    await Task.detached { cart.count = count }.value
                } else {
                    cart.count = count
                }
            }
            for _ in 0..<20 { await Task.yield() }
            if harnessed { harness.analyze().expectNone(of: "observation-not-rearmed") }
            return label.renders.value
        }
        let bare = await renders(harnessed: false)
        #expect(bare == 4, "the first render and one each time it arms again")
        #expect(await renders(harnessed: true) == bare)
    }
}
