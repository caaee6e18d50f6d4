import ObserverHarnessInterface
import Testing

/// The plain list app code gets outside any harness scope.
@Suite struct ObserverListTests {
    protocol ThemeObserver: AnyObject {
        func themeDidChange(_ theme: String)
    }

    final class Screen: ThemeObserver {
        let name: String
        var themes: [String] = []
        init(_ name: String) { self.name = name }
        func themeDidChange(_ theme: String) { themes.append(theme) }
    }

    @Test func aProtocolTypedListNotifiesEveryObserverInOrder() {
        let list = ObserverList<any ThemeObserver>(hold: .weak)
        let first = Screen("first"), second = Screen("second")
        list.add(first)
        list.add(second)
        var order: [String] = []
        list.notify { observer in
            observer.themeDidChange("dark")
            order.append((observer as! Screen).name)
        }
        #expect(order == ["first", "second"])
        #expect(first.themes == ["dark"] && second.themes == ["dark"])
        #expect(list.count == 2)
    }

    @Test func weakHoldLetsTheObserverGoAndSkipsIt() {
        let list = ObserverList<any ThemeObserver>(hold: .weak)
        weak var gone: Screen?
        do {
            let screen = Screen("closed")
            gone = screen
            list.add(screen)
        }
        #expect(gone == nil)
        var calls = 0
        list.notify { _ in calls += 1 }
        #expect(calls == 0)
        #expect(list.count == 0)
    }

    @Test func strongHoldKeepsTheObserverAlive() {
        let list = ObserverList<any ThemeObserver>(hold: .strong)
        weak var kept: Screen?
        do {
            let screen = Screen("kept")
            kept = screen
            list.add(screen)
        }
        #expect(kept != nil)
        list.notify { $0.themeDidChange("light") }
        #expect(kept?.themes == ["light"])
        list.remove(kept!)
        #expect(kept == nil, "removing the only strong reference frees it")
    }

    @Test func removeEndsDeliveriesOnlyForThatObserverAndChannel() {
        let list = ObserverList<Screen>()
        let a = Screen("a"), b = Screen("b")
        list.add(a, channel: "theme")
        list.add(a, channel: "font")
        list.add(b, channel: "theme")
        list.remove(a, channel: "theme")
        var theme: [String] = [], font: [String] = []
        list.notify(channel: "theme") { theme.append($0.name) }
        list.notify(channel: "font") { font.append($0.name) }
        #expect(theme == ["b"] && font == ["a"])
        list.remove(a)
        #expect(list.count == 1)
    }

    @Test func dedupeIgnoresASecondIdenticalAddAndPlainListsDoNot() {
        let screen = Screen("twice")
        let plain = ObserverList<Screen>(), deduped = ObserverList<Screen>(dedupe: true)
        for list in [plain, deduped] {
            list.add(screen)
            list.add(screen)
        }
        #expect(plain.count == 2 && deduped.count == 1)
    }

    @Test func anObserverMayRemoveItselfWhileBeingNotified() {
        let list = ObserverList<Screen>()
        let a = Screen("a"), b = Screen("b")
        list.add(a)
        list.add(b)
        var seen: [String] = []
        list.notify { screen in
            seen.append(screen.name)
            list.remove(screen)
        }
        #expect(seen == ["a", "b"])
        #expect(list.count == 0)
    }

    @Test func anExistentialOfAProtocolThatIsNotClassBoundIsHeldWeaklyToo() {
        // `any Named` (40 bytes) is too large for the inline copy: the list casts instead.
        let list = ObserverList<any CustomStringConvertible>(hold: .weak)
        let box = Box()
        list.add(box)
        var names: [String] = []
        list.notify { names.append($0.description) }
        #expect(names == ["box"])
    }

    final class Box: CustomStringConvertible {
        var description: String { "box" }
    }
}
