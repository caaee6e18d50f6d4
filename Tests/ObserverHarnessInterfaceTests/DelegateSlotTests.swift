import ObserverHarnessInterface
import Testing

@Suite struct DelegateSlotTests {
    protocol RowDelegate: AnyObject {
        func shouldSelect(_ row: Int) -> Bool
    }

    final class Table {
        private(set) lazy var delegate = DelegateSlot<any RowDelegate>(of: self)
        func tap(_ row: Int) -> Bool { delegate.call { $0.shouldSelect(row) } ?? true }
    }

    final class Screen: RowDelegate {
        var asked: [Int] = []
        func shouldSelect(_ row: Int) -> Bool {
            asked.append(row)
            return row.isMultiple(of: 2)
        }
    }

    @Test func aTypedCallReachesTheDelegateAndReturnsItsAnswer() {
        let table = Table(), screen = Screen()
        table.delegate.set(screen)
        #expect(table.tap(1) == false)
        #expect(table.tap(2) == true)
        #expect(screen.asked == [1, 2])
        #expect(table.delegate.delegate === screen)
    }

    @Test func withNoDelegateTheCallReturnsNil() {
        let table = Table()
        #expect(table.delegate.call { $0.shouldSelect(0) } == nil)
        #expect(table.tap(1), "the table's default answer")
    }

    @Test func aWeakDelegateThatWentAwayIsNotCalled() {
        let table = Table()
        do {
            let screen = Screen()
            table.delegate.set(screen)
        }
        #expect(table.delegate.delegate == nil)
        #expect(table.delegate.call { $0.shouldSelect(0) } == nil)
    }

    @Test func aStrongSlotKeepsItsDelegateUntilCleared() {
        let owner = Table()
        let slot = DelegateSlot<any RowDelegate>(of: owner, hold: .strong)
        weak var weakScreen: Screen?
        do {
            let screen = Screen()
            weakScreen = screen
            slot.set(screen)
        }
        #expect(weakScreen != nil)
        slot.set(nil)
        #expect(weakScreen == nil)
    }
}
