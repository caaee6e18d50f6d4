/// Who held a block registration's token, decided as the token goes, so a
/// test that analyses after releasing its screen still knows which screen
/// registered each block (``TokenOwners`` finds the holders still alive at
/// analysis).
///
/// A token goes with its holder: its last reference is released, or it is
/// removed, in the holder's deinit, and by then the holder's weak reference
/// is empty. So when a token goes, the tracked object found gone at that
/// moment is its holder. The ledger keeps what that takes and decides; the
/// recorder, which owns the weak references and the log, looks and records.
/// Its state is guarded by the recorder's lock.
///
/// A token's holder is
/// - the one tracked object the recorder found gone as the token went, when
///   no other was found gone since the token was made, by another thread
///   (which may have looked inside this holder's deinit, or the token's
///   holder may be an object the test does not track) or as an earlier
///   token went on this thread (that deinit may still be running); or
/// - with none found gone, the holder of the token that went just before on
///   the same thread with nothing recorded between, when that holder is the
///   one tracked object found gone since this token was made: the same
///   deinit's next token (not a deinit nested in it, which the release of a
///   reference the deinit held can run on the same thread). A removal passes its holder on only while the earlier token still
///   exists (still held, so still in the deinit's body), which a removal by a
///   live screen right after another screen's deinit is not; in that body,
///   only events on the same thread part two removals (other threads keep
///   recording while a deinit runs).
///
/// Two or more found gone (a screen and the view model it frees) name no
/// one; so do two screens let go in one statement, when the second's tokens
/// were made before the first died: a missed owner, never a wrong one.
/// A tracked object that died unnoticed (nothing made, dropped, removed or
/// tracked since) is taken for the holder of the next token an untracked
/// object lets go; AdoptingInAnApp documents the limit.
struct TokenHolderLedger {
    /// How many tracked objects are looked through at most; past it, holders
    /// are found only at analysis (a test tracking that many objects is a
    /// benchmark, not a screen's journey).
    static let trackedLimit = 1_024
    /// How many earlier deaths a decision reads before giving up.
    static let deathsReadLimit = 256

    enum Ending { case dropped, removed }

    /// Tracked objects alive when last looked at.
    private(set) var tracked = Set<UInt32>()
    /// Tracked objects found gone: when (the event count), on which thread,
    /// whether as a token went.
    private var deaths: [(sequence: Int, thread: UInt16, atTokenEnd: Bool, id: UInt32)] = []
    /// The event count when each block token still in existence was made,
    /// after every tracked object then gone was found gone.
    private var madeAt = [UInt32: Int]()
    /// The last token that went: its thread, the event count just after, how
    /// it went, and the holder it was given.
    private var last: (thread: UInt16, end: Int, token: UInt32, ending: Ending, holder: UInt32?)?

    /// Whether tokens' holders are decided as they go.
    var isLooking: Bool { tracked.count <= Self.trackedLimit }

    mutating func track(_ id: UInt32) { tracked.insert(id) }

    /// `ids` (sorted) were found gone at event count `sequence`, on `thread`,
    /// as a token went (`atTokenEnd`) or otherwise.
    mutating func noteGone(_ ids: [UInt32], at sequence: Int, thread: UInt16, atTokenEnd: Bool) {
        for id in ids {
            tracked.remove(id)
            deaths.append((sequence, thread, atTokenEnd, id))
        }
    }

    mutating func tokenMade(_ token: UInt32, at sequence: Int) { madeAt[token] = sequence }

    /// The token object was freed: it no longer exists.
    mutating func tokenFreed(_ token: UInt32) { madeAt.removeValue(forKey: token) }

    /// Decides who held `token`, which goes now (`ending`) on `thread`, with
    /// `gone` the tracked objects found gone just now and `end` the event
    /// count before the token's event. `quiet(since)` says whether nothing
    /// was recorded on `thread` from event count `since` up to `end`.
    func holder(
        of token: UInt32, ending: Ending, gone: [UInt32], thread: UInt16, end: Int, quiet: (_ since: Int) -> Bool
    ) -> UInt32? {
        guard isLooking, gone.count < 2 else { return nil }
        let since = madeAt[token] ?? 0
        var read = 0
        var diedSince: UInt32?
        var severalDiedSince = false
        for death in deaths.reversed() {
            guard death.sequence >= since else { break }
            read += 1
            // Too many to be sure, or another thread saw a death meanwhile.
            if read > Self.deathsReadLimit || death.thread != thread { return nil }
            // An earlier token's holder, found gone on this thread: with
            // another found gone now, either may be this token's.
            if death.atTokenEnd, let found = gone.first, death.id != found { return nil }
            if let other = diedSince, other != death.id { severalDiedSince = true }
            diedSince = death.id
        }
        if let found = gone.first { return found }
        guard let last, last.thread == thread else { return nil }
        if ending == .removed {
            // Still in the deinit's body: other threads' events may come between.
            guard madeAt[last.token] != nil, last.end == end || quiet(last.end) else { return nil }
        } else if last.end != end {
            return nil
        }
        // The same deinit's next token only if its holder is the one object
        // that died since this token was made: a deinit the last one's
        // release ran, nested in this one on the same thread, lets its own
        // tokens go between two of this holder's.
        guard !severalDiedSince, let holder = last.holder, diedSince == holder else { return nil }
        return holder
    }

    /// `token` went, as the event just before `end`, with `holder` decided.
    mutating func noteEnded(_ token: UInt32, ending: Ending, holder: UInt32?, thread: UInt16, end: Int) {
        last = isLooking ? (thread, end, token, ending, holder) : nil
    }

    /// The holder of the token removed last, while that token still exists:
    /// its deinit may still be running, about to remove its next token.
    var holderStillRemoving: UInt32? {
        guard let last, last.ending == .removed, madeAt[last.token] != nil else { return nil }
        return last.holder
    }

    /// Something else went in between (an overwritten token): nothing to pass on.
    mutating func forgetLast() { last = nil }
}
