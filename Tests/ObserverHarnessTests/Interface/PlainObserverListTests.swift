import Testing

@testable import ObserverHarnessInterface

/// The plain list's bookkeeping: identity chains, lazy pruning, compaction.
@Suite struct PlainObserverListTests {
    protocol Listener: AnyObject { func heard(_ value: Int) }
    protocol AnyListener { func heard(_ value: Int) }

    final class Screen: Listener, AnyListener {
        var values: [Int] = []
        func heard(_ value: Int) { values.append(value) }
    }

    @Test func anIdentityReusedAfterItsObjectDiedIsNoDuplicate() {
        let list = ObserverList<any Listener>(hold: .weak, dedupe: true)
        var first: Screen? = Screen()
        let firstIdentity = ObjectIdentifier(first!)
        list.add(first!)
        first = nil
        // Find a new object at the dead one's address (the allocator reuses it readily).
        var kept: [Screen] = []
        var reused: Screen?
        for _ in 0..<1_000 {
            let candidate = Screen()
            if ObjectIdentifier(candidate) == firstIdentity {
                reused = candidate
                break
            }
            kept.append(candidate)
        }
        let screen = reused ?? Screen()
        list.add(screen)
        list.notify { $0.heard(1) }
        #expect(screen.values == [1])
        #expect(list.count == 1)
        withExtendedLifetime(kept) {}
    }

    @Test(arguments: [Hold.strong, .weak, .unowned])
    func thousandsOfAddsAndRemovesKeepOrderAndCount(hold: Hold) {
        let list = ObserverList<any Listener>(hold: hold, dedupe: true)
        let screens = (0..<5_000).map { _ in Screen() }
        for _ in 0..<3 {
            for screen in screens { list.add(screen) }
        }
        #expect(list.count == 5_000)
        // Every other one removed, then added again at the end: the order follows.
        for (index, screen) in screens.enumerated() where index.isMultiple(of: 2) { list.remove(screen) }
        #expect(list.count == 2_500)
        for (index, screen) in screens.enumerated() where index.isMultiple(of: 2) { list.add(screen) }
        var order: [ObjectIdentifier] = []
        list.notify { order.append(ObjectIdentifier($0)) }
        let odd = screens.enumerated().filter { !$0.offset.isMultiple(of: 2) }.map { ObjectIdentifier($0.element) }
        let even = screens.enumerated().filter { $0.offset.isMultiple(of: 2) }.map { ObjectIdentifier($0.element) }
        #expect(order == odd + even)
    }

    @Test func deadWeakEntriesArePrunedAsTheListGrows() {
        let list = ObserverList<any Listener>(hold: .weak)
        for _ in 0..<10_000 { list.add(Screen()) }  // each dies at once
        let screen = Screen()
        list.add(screen)
        #expect(list.count == 1)
        #expect(list.lock.locked { list.entries.count } < 10_000, "dead entries were dropped")
        list.notify { $0.heard(2) }
        #expect(screen.values == [2])
    }

    @Test func aStrongListLetsARemovedObserverGo() {
        let list = ObserverList<any Listener>()
        weak var gone: Screen?
        do {
            let screen = Screen()
            gone = screen
            list.add(screen)
            list.remove(screen)
        }
        #expect(gone == nil)
    }

    @Test(arguments: [Hold.strong, .weak])
    func aProtocolThatIsNotClassBoundIsCalledThroughACast(hold: Hold) {
        let list = ObserverList<any AnyListener>(hold: hold, dedupe: true)
        let screen = Screen()
        list.add(screen)
        list.add(screen)
        list.notify { $0.heard(3) }
        #expect(screen.values == [3])
        list.remove(screen)
        list.notify { $0.heard(4) }
        #expect(screen.values == [3])
    }
}
