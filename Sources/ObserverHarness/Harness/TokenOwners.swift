import Foundation

/// Finds which tracked object owns each live registration token, by
/// reflection when the harness checks: the object whose stored properties
/// hold it, directly or inside optionals, arrays, sets, dictionaries, tuples,
/// structs and enums, and inside class instances the harness does not know
/// (a `Subscription` wrapper, a bag of them), up to ``classDepthLimit`` of
/// them deep. An object the harness knows (tracked, an observer, a sender) is
/// its own owner, so the search stops there: a shared service's tokens are
/// the service's, not every screen's that references it. The harness's own
/// registries and recorder hold no user's tokens and are not entered.
///
/// A token held by exactly one known object is recorded as owned by it; a
/// token held by none (dropped, or kept where the harness cannot see) or by
/// several (a wrapper two screens share) keeps no owner, and rules treat it
/// as its own observer. Tokens that went before the check had their owner
/// noted as they went (see `Recorder.appendTokenDropLocked`); a search
/// never overrides an owner already recorded.
enum TokenOwners {
    /// How deep into nested containers a search goes.
    static let depthLimit = 6
    /// How many unknown class instances deep a search goes (a bag of wrappers: 2).
    static let classDepthLimit = 2
    /// How many stored values one object's search reads at most.
    static let valueLimit = 10_000

    /// How long a check waits, in all, for tracked objects dying on other threads.
    struct Deadline {
        let uptime = DispatchTime.now().uptimeNanoseconds + 50_000_000
        var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= uptime }
    }

    /// Gives a tracked object whose deinit is running on another thread
    /// (its weak references empty, its tokens not yet let go) a moment to
    /// finish, until `deadline`: a test that checks while a
    /// queue lets its screen go gets the holders it would get a moment
    /// later, so its findings do not depend on when it checks. Only that
    /// state waits, and it is rare; past the deadline, the recorder stops
    /// waiting for the holders that were dying then.
    static func waitForDyingHolders(in recorder: Recorder, until deadline: Deadline) {
        while recorder.mayHaveTokenHolderDying() {
            guard !deadline.hasPassed else {
                recorder.stopWaitingForDyingHolders()
                return
            }
            Thread.sleep(forTimeInterval: 0.000_5)
        }
    }

    static func record(in recorder: Recorder) {
        // Most tests' tokens are gone by the check, or their owners known: no search.
        guard let input = recorder.tokenOwnerSearch() else { return }
        var tokenIDs = [ObjectIdentifier: UInt32]()
        var index = 0
        while index < input.unownedTokenKeys.count {
            tokenIDs[input.unownedTokenKeys[index]] = input.unownedTokenIDs[index]
            index += 1
        }
        // The holders each token was found in, by token id.
        var owners = [UInt32: [UInt32]]()
        index = 0
        while index < input.holders.count {
            let object = input.holders[index]
            let id = input.holderIDs[index]
            index += 1
            // A block's queue is tracked too; it holds no user's token.
            if object is OperationQueue { continue }
            // No `visited` entry for the object itself: it is known, so a path back to it stops there.
            var search = Search(known: input.known) { tokenIDs[ObjectIdentifier($0)] }
            search.enter(object, classDepth: classDepthLimit)
            for token in search.found { owners[token, default: []].append(id) }
        }
        for token in owners.keys.sorted() {
            guard let holders = owners[token], holders.count == 1 else { continue }
            recorder.recordTokenOwner(holders[0], of: token)
        }
        withExtendedLifetime(input.tokens) {}
    }

    /// The tokens `object` keeps now in its own stored values (optionals,
    /// collections, structs; `tokenID` says which instances are tokens, and
    /// their id). Unlike ``record(in:)``, which runs when the test checks,
    /// this runs while the app runs: other objects it references may be
    /// changing on other threads, so none is entered.
    static func tokens(keptBy object: AnyObject, tokenID: @escaping (AnyObject) -> UInt32?) -> Set<UInt32> {
        var search = Search(known: [], tokenID: tokenID)
        search.visited.insert(ObjectIdentifier(object))
        search.enter(object, classDepth: 0)
        return search.found
    }

    /// One known object's search for the tokens it holds.
    private struct Search {
        let known: Set<ObjectIdentifier>
        /// The id of an instance that is a registration token.
        let tokenID: (AnyObject) -> UInt32?
        var budget = TokenOwners.valueLimit
        var visited = Set<ObjectIdentifier>()
        var found = Set<UInt32>()

        /// Reads the stored properties of `object`, its superclasses' included.
        mutating func enter(_ object: AnyObject, classDepth: Int) {
            var mirror: Mirror? = Mirror(reflecting: object)
            while let current = mirror {
                for child in current.children {
                    collect(child.value, depth: TokenOwners.depthLimit, classDepth: classDepth)
                    if budget <= 0 { return }
                }
                mirror = current.superclassMirror
            }
        }

        private mutating func collect(_ value: Any, depth: Int, classDepth: Int) {
            budget -= 1
            guard budget > 0 else { return }
            if let object = classInstance(value) {
                let key = ObjectIdentifier(object)
                if let token = tokenID(object) {
                    found.insert(token)
                    return
                }
                // An operation queue links its operations through `Unmanaged`
                // references, which may already be freed: never read into one.
                guard classDepth > 0, !known.contains(key), !(object is Recorder),
                    !(object is any DetachableRegistry), !(object is OperationQueue), !(object is Operation),
                    visited.insert(key).inserted
                else { return }
                enter(object, classDepth: classDepth - 1)
                return
            }
            guard depth > 0 else { return }
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional, .collection, .set, .dictionary, .tuple, .struct, .enum:
                for child in mirror.children {
                    collect(child.value, depth: depth - 1, classDepth: classDepth)
                    if budget <= 0 { return }
                }
            default:
                return
            }
        }
    }
}
