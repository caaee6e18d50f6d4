import Testing

@testable import ObserverHarness

/// The flat tables the analysis indexes by id (`Analysis/DenseTables.swift`).
@Suite struct DenseTablesTests {
    @Test func denseIndexFindsSmallAndHugeIDsAndNothingElse() {
        var index = DenseIndex()
        index.insert(0, for: 1)
        index.insert(1, for: 2)
        index.insert(2, for: 4_000_000_000)  // a hand-written trace: no 16 GB table
        #expect(index[1] == 0)
        #expect(index[2] == 1)
        #expect(index[4_000_000_000] == 2)
        #expect(index[3] == nil)
        #expect(index[0] == nil)
        #expect(index[3_999_999_999] == nil)
    }

    @Test func denseIndexKeepsIDsInOrderWithoutATableAndAnOutOfOrderIDMovesThemIntoOne() {
        var index = DenseIndex()
        for id in 1...5 { index.insert(id - 1, for: UInt32(id)) }
        #expect((1...5).map { index[UInt32($0)] } == [0, 1, 2, 3, 4])
        #expect(index[0] == nil)
        #expect(index[6] == nil)
        index.insert(5, for: 9)  // out of order: a hand-written trace
        index.insert(6, for: 0)
        #expect((1...5).map { index[UInt32($0)] } == [0, 1, 2, 3, 4])
        #expect(index[9] == 5)
        #expect(index[0] == 6)
        #expect(index[6] == nil)
        #expect(index[8] == nil)
    }

    @Test func pairNumberingNumbersPairsInFirstSeenOrderInsideAndOutsideTheFlatTable() {
        var pairs = PairNumbering(firstCount: 3, secondCount: 10)
        #expect(pairs.number(2, 7) == 0)
        #expect(pairs.number(1, 7) == 1)
        #expect(pairs.number(2, 7) == 0)
        #expect(pairs.number(9, 99) == 2, "outside the table: numbered all the same")
        #expect(pairs.number(9, 99) == 2)
        #expect(pairs.number(0, 0) == 3)
        #expect(pairs.count == 4)
    }

    @Test func pairNumberingFallsBackWhenTheTableWouldBeHuge() {
        var pairs = PairNumbering(firstCount: 1 << 40, secondCount: 1 << 40)
        #expect(pairs.number(5, 6) == 0)
        #expect(pairs.number(6, 5) == 1)
        #expect(pairs.number(5, 6) == 0)
    }

    @Test func deliveryListKeepsOrderPastItsInlineCapacity() {
        var list = DeliveryList()
        #expect(list.isEmpty)
        for sequence in [3, 9, 27, 81, 243] { list.append(sequence) }
        #expect(Array(list) == [3, 9, 27, 81, 243])
        #expect(list.count == 5)
        #expect(list.last == 243)
        #expect(list.filter { $0 > 10 } == [27, 81, 243])
        let literal: DeliveryList = [1, 2]
        #expect(Array(literal) == [1, 2])
    }
}
