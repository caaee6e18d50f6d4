import Testing

@testable import ObserverHarness

/// The decisions the ledger makes as a block token goes, one rule per test.
@Suite struct TokenHolderLedgerTests {
    /// Holders 1 and 2 tracked; tokens 10 and 11 made at event 5.
    private func ledger() -> TokenHolderLedger {
        var ledger = TokenHolderLedger()
        ledger.track(1)
        ledger.track(2)
        ledger.tokenMade(10, at: 5)
        ledger.tokenMade(11, at: 5)
        return ledger
    }

    @Test func theOneHolderFoundGoneAsTheTokenGoesHeldIt() {
        var ledger = ledger()
        ledger.noteGone([1], at: 8, thread: 1, atTokenEnd: true)
        #expect(ledger.holder(of: 10, ending: .dropped, gone: [1], thread: 1, end: 9) == 1)
    }

    @Test func twoFoundGoneNameNoOne() {
        var ledger = ledger()
        ledger.noteGone([1, 2], at: 8, thread: 1, atTokenEnd: true)
        #expect(ledger.holder(of: 10, ending: .dropped, gone: [1, 2], thread: 1, end: 10) == nil)
    }

    @Test func aDeathAnotherThreadSawSinceTheTokenWasMadeNamesNoOne() {
        var ledger = ledger()
        ledger.noteGone([2], at: 6, thread: 2, atTokenEnd: false)
        ledger.noteGone([1], at: 8, thread: 1, atTokenEnd: true)
        #expect(ledger.holder(of: 10, ending: .dropped, gone: [1], thread: 1, end: 9) == nil)
    }

    @Test func aDeathSeenBeforeTheTokenWasMadeDoesNotCount() {
        var ledger = ledger()
        ledger.noteGone([2], at: 3, thread: 2, atTokenEnd: false)
        ledger.noteGone([1], at: 8, thread: 1, atTokenEnd: true)
        #expect(ledger.holder(of: 10, ending: .dropped, gone: [1], thread: 1, end: 9) == 1)
    }

    /// An earlier token's holder on this thread may still be in its deinit.
    @Test func anEarlierTokensHolderAndAnotherFoundGoneNowNameNoOne() {
        var ledger = ledger()
        ledger.noteGone([1], at: 8, thread: 1, atTokenEnd: true)
        ledger.noteEnded(10, ending: .dropped, holder: 1, thread: 1, end: 10)
        ledger.noteGone([2], at: 10, thread: 1, atTokenEnd: true)
        #expect(ledger.holder(of: 11, ending: .dropped, gone: [2], thread: 1, end: 11) == nil)
    }

    @Test func theNextDropRightAfterOnTheSameThreadHasTheSameHolder() {
        var ledger = ledger()
        ledger.noteGone([1], at: 8, thread: 1, atTokenEnd: true)
        ledger.noteEnded(10, ending: .dropped, holder: 1, thread: 1, end: 10)
        ledger.tokenFreed(10)
        #expect(ledger.holder(of: 11, ending: .dropped, gone: [], thread: 1, end: 10) == 1)
        #expect(ledger.holder(of: 11, ending: .dropped, gone: [], thread: 2, end: 10) == nil)
        #expect(ledger.holder(of: 11, ending: .dropped, gone: [], thread: 1, end: 12) == nil)
    }

    /// Other threads keep recording while a deinit's body removes its
    /// tokens: their events between two removals do not part them; one on
    /// the same thread does. Drops, which come at once as the holder's
    /// storage goes, stay parted by any event.
    @Test func eventsOfOtherThreadsBetweenTwoRemovalsInADeinitDoNotPartThem() {
        var ledger = ledger()
        ledger.noteGone([1], at: 8, thread: 1, atTokenEnd: true)
        ledger.noteEnded(10, ending: .removed, holder: 1, thread: 1, end: 10)
        #expect(ledger.holder(of: 11, ending: .removed, gone: [], thread: 1, end: 12, quiet: { $0 == 10 }) == 1)
        #expect(ledger.holder(of: 11, ending: .removed, gone: [], thread: 1, end: 12, quiet: { _ in false }) == nil)
        #expect(ledger.holder(of: 11, ending: .dropped, gone: [], thread: 1, end: 12, quiet: { $0 == 10 }) == nil)
    }

    /// Holder 1's deinit lets token 10 go; releasing what that held runs
    /// holder 2's deinit on the same thread, nested, which lets its token 12
    /// go right before holder 1's next token, 11: 11 is not 2's.
    @Test func aDeinitNestedInAnotherDoesNotPassItsHolderOn() {
        var ledger = ledger()
        ledger.tokenMade(12, at: 5)
        ledger.noteGone([1], at: 8, thread: 1, atTokenEnd: true)
        ledger.noteEnded(10, ending: .dropped, holder: 1, thread: 1, end: 9)
        ledger.noteGone([2], at: 9, thread: 1, atTokenEnd: true)
        ledger.noteEnded(12, ending: .dropped, holder: 2, thread: 1, end: 11)
        #expect(ledger.holder(of: 11, ending: .dropped, gone: [], thread: 1, end: 11) == nil)
    }

    /// A token's last holder that has not died since the token was made is
    /// no deinit's: nothing is passed on.
    @Test func aLastHolderStillAliveIsNotPassedOn() {
        var ledger = ledger()
        ledger.noteEnded(10, ending: .dropped, holder: 1, thread: 1, end: 10)
        #expect(ledger.holder(of: 11, ending: .dropped, gone: [], thread: 1, end: 10) == nil)
    }

    /// In a deinit's body the removed tokens are still held; a live
    /// screen's removal after another's deinit follows a freed token.
    @Test func aRemovalPassesItsHolderOnOnlyWhileTheEarlierTokenExists() {
        var ledger = ledger()
        ledger.noteGone([1], at: 8, thread: 1, atTokenEnd: true)
        ledger.noteEnded(10, ending: .removed, holder: 1, thread: 1, end: 10)
        #expect(ledger.holder(of: 11, ending: .removed, gone: [], thread: 1, end: 10) == 1)
        ledger.tokenFreed(10)
        #expect(ledger.holder(of: 11, ending: .removed, gone: [], thread: 1, end: 10) == nil)
    }

    @Test func pastTheLimitNothingIsDecided() {
        var ledger = TokenHolderLedger()
        for id in 0...UInt32(TokenHolderLedger.trackedLimit) { ledger.track(id + 1) }
        #expect(!ledger.isLooking)
        #expect(ledger.holder(of: 10, ending: .dropped, gone: [1], thread: 1, end: 1) == nil)
    }
}

extension TokenHolderLedger {
    /// A decision where something was recorded on the thread since the last token went, unless at `end`.
    fileprivate func holder(of token: UInt32, ending: Ending, gone: [UInt32], thread: UInt16, end: Int) -> UInt32? {
        holder(of: token, ending: ending, gone: gone, thread: thread, end: end, quiet: { _ in false })
    }
}
