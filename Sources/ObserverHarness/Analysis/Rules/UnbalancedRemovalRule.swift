/// A removal that matched no registration, or a second removal of the same one.
struct UnbalancedRemovalRule: Rule {
    let descriptor = RuleDescriptor(
        id: "unbalanced-removal", severity: .warning, category: .registration,
        summary: "A removal that matches no registration, or a second removal of the same one.",
        explanation: """
            A removal that matches nothing means the code's idea of what is registered is wrong: the observer it \
            meant to stop is still registered (a block registration is removed only by its token, never by the \
            object that made it), or it was already removed. KVO raises on removing an observer that is not \
            registered. Live, an object that keeps a block's token (in its stored properties) and removes itself by \
            observer (`removeObserver(self)`) is reported at that removal, on the harness's centers and through \
            `Observers.center` alike: the harness finds the token in the object when the removal matches nothing.
            """,
        fix: "Remove exactly what was added: keep block-registration tokens and remove those; remove once.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken",
                    "handler": [] },
                  ↓{ "op": "remove", "registry": "center", "observer": "screen", "site": "Screen.swift:60" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout", "handler": [] },
                  { "op": "remove", "registry": "center", "observer": "screen", "channel": "Logout" },
                  ↓{ "op": "remove", "registry": "center", "observer": "screen", "channel": "Logout" }
                ]
                """),
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout",
                    "token": "logoutToken",
                    "handler": [] },
                  { "op": "remove", "registry": "center", "token": "logoutToken" }
                ]
                """)
        ])

    private struct Key: Hashable { let registry: UInt32, observer: UInt32 }
    private struct HistoryKey: Hashable { let registry: UInt32, observer: UInt32, channel: UInt32? }

    /// The channel a removal names; nil for every channel (a removal by token
    /// names none unless one was given with it).
    private static func channel(of event: Event) -> UInt32? {
        let namesNoChannel =
            event.flags.contains(.allChannels) || (event.flags.contains(.byToken) && event.channel == 0)
        return namesNoChannel ? nil : event.channel
    }

    let firesOnlyWithFact: TraceFacts? = .unmatchedRemoval

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        // Removals that matched nothing are rare: index the registrations of
        // their observers only (indexing every registration cost more than
        // all the other rules together).
        // Walked in place, not copied: a trace may be mostly such removals.
        let removals = trace.removals
        func isUnmatched(_ sequence: Int) -> Bool { trace.events[sequence].registration == 0 }
        guard removals.contains(where: isUnmatched) else { return }
        // Positions in `registrationsInOrder`, not records: a trace of many
        // removals may have as many registrations of their observer.
        var byObserver = [Key: [Int32]]()
        var unmatchedObservers = Set<UInt32>()
        for sequence in removals where isUnmatched(sequence) {
            byObserver[Key(registry: trace.events[sequence].registry, observer: trace.events[sequence].object)] = []
            unmatchedObservers.insert(trace.events[sequence].object)
        }
        var tokenRegistry = [UInt32: UInt32]()
        let registrations = trace.registrationsInOrder
        for position in registrations.indices {
            let registration = registrations[position]
            guard !registration.isDelegate else { continue }
            byObserver[Key(registry: registration.registry, observer: registration.observer)]?.append(Int32(position))
            // A block registration is also its token's owner's: that object removing itself ends nothing.
            let registrant = trace.registrant(registration)
            if registrant != registration.observer {
                byObserver[Key(registry: registration.registry, observer: registrant)]?.append(Int32(position))
            }
            if registration.tokenForm, unmatchedObservers.contains(registration.observer) {
                tokenRegistry[registration.observer] = registration.registry
            }
        }
        // What each removal's observer had registered before it, asked of one
        // `RemovalHistory` per observer and channel, removals in sequence order:
        // filtering the whole history per removal was quadratic in a trace of
        // many removals of one observer.
        var histories = [HistoryKey: RemovalHistory]()
        for sequence in removals where isUnmatched(sequence) {
            let event = trace.events[sequence]
            let channel = Self.channel(of: event)
            let key = HistoryKey(registry: event.registry, observer: event.object, channel: channel)
            if histories[key] == nil {
                let all = byObserver[Key(registry: key.registry, observer: key.observer)] ?? []
                let positions =
                    channel.map { channel in all.filter { registrations[Int($0)].channel == channel } } ?? all
                histories[key] = RemovalHistory(positions, of: registrations)
            }
            let history = histories[key]!.answer(at: sequence)
            let observer = event.object
            let registryName = trace.registryName(event.registry)
            let what = channel.map { trace.string($0).isEmpty ? "" : " for \(trace.quoted($0))" } ?? ""
            let who = observer == 0 ? "an object that never registered" : trace.describe(observer)
            var reason = "it matched no registration"
            var fix: String?
            let isCenter = trace.registryKind(event.registry) == .notificationCenter
            if event.flags.contains(.byToken), let earlier = history.firstRemovedBefore {
                reason =
                    "the token was already removed at \(siteText(trace, trace.events[earlier.removeSequence!].site))"
                    + (isCenter
                        ? " (Foundation on Linux may remove a newer registration that reuses the token's internal key)"
                        : "")
                fix = "Remove a token once; set the stored token to nil after removing it."
            } else if event.flags.contains(.byToken), let block = history.firstActiveBlock {
                // The token itself, with a name or object its registration was not made for.
                reason =
                    "its registration at \(siteText(trace, block.site)) was made for another name or object than "
                    + "this removal gives, so it is still registered"
                fix =
                    "Remove the token alone (removeObserver(token)), or with the name and object it was registered for."
            } else if let block = history.firstActiveBlock {
                reason =
                    "its registration at \(siteText(trace, block.site)) is the block form, which only removing "
                    + "its token ends, so it is still registered"
                fix = "Keep the token that addObserver(forName:object:queue:using:) returned and remove that token."
            } else if let earlier = history.latestRemovedBefore {
                reason = "it was already removed at \(siteText(trace, trace.events[earlier.removeSequence!].site))"
                fix = "Remove once: track whether the observer is registered, or remove in exactly one place."
            } else if history.isEmpty, event.flags.contains(.byToken),
                let home = tokenRegistry[observer], home != event.registry
            {
                reason =
                    "the token belongs to \(trace.registryName(home)), another center (Foundation on Linux "
                    + "removes this center's registration that happens to share the token's internal key instead)"
                fix = "Remove a token from the center that returned it."
            } else if history.isEmpty {
                reason = "it was never registered here"
            }
            findings.append(
                finding(
                    "Removing \(who)\(what) from \(registryName) at \(siteText(trace, event.site)) did nothing: \(reason).",
                    registry: registryName, channel: channel.map { trace.string($0) },
                    objects: observer == 0 ? [] : [trace.name(observer)], step: trace.step(of: sequence),
                    site: trace.site(event.site), location: trace.location(event.site), events: [sequence], fix: fix))
        }
    }
}

/// One observer's registrations in one registry (of one channel, or all),
/// asked at removals in increasing sequence order: which were removed before
/// the removal (the first in list order, and the one removed latest: the
/// removal an extra one repeats), which block registration
/// was still active, and whether any was added before it. Each registration
/// enters a table once, so a trace's removals cost O((n + m) log n) in all.
private struct RemovalHistory {
    struct Answer {
        var isEmpty = true
        var firstRemovedBefore: TraceIndex.RegistrationRecord?
        var latestRemovedBefore: TraceIndex.RegistrationRecord?
        var firstActiveBlock: TraceIndex.RegistrationRecord?
    }

    private let registrations: TraceIndex.RegistrationsInOrder
    /// Positions in `registrations`, in list order; the tables below index this list.
    private let positions: [Int32]
    /// List indices of the removed ones by when they were removed, and of all
    /// by add sequence (nil: the list is in add order already).
    private let byRemoval: [Int32]
    private let byAdd: [Int32]?
    private var nextRemoval = 0
    private var nextAdd = 0
    private var firstRemoved = Int.max
    /// Block registrations added so far, as a min-heap of list indices; one
    /// removed meanwhile leaves when it reaches the top. Only for a list out
    /// of add order: in add order the first that may still be active is
    /// `blockHead`, as one that ended stays ended.
    private var blocks: [Int32] = []
    private var blockHead = 0

    init(_ positions: [Int32], of registrations: TraceIndex.RegistrationsInOrder) {
        self.registrations = registrations
        self.positions = positions
        func record(_ index: Int32) -> TraceIndex.RegistrationRecord { registrations[Int(positions[Int(index)])] }
        let indices = (0..<Int32(positions.count))
        // Removed before a removal: added and removed before it (a hand-written
        // trace may remove an id before adding it).
        byRemoval = indices.filter { record($0).removeSequence != nil }
            .sorted { (Self.removedAt(record($0)), $0) < (Self.removedAt(record($1)), $1) }
        let inAddOrder = zip(positions, positions.dropFirst()).allSatisfy {
            registrations[Int($0)].addSequence <= registrations[Int($1)].addSequence
        }
        byAdd = inAddOrder ? nil : indices.sorted { (record($0).addSequence, $0) < (record($1).addSequence, $1) }
    }

    private static func removedAt(_ record: TraceIndex.RegistrationRecord) -> Int {
        max(record.addSequence, record.removeSequence ?? .max)
    }

    private func record(_ index: Int) -> TraceIndex.RegistrationRecord { registrations[Int(positions[index])] }

    /// Asked at increasing sequences (the trace's removals are in sequence order).
    mutating func answer(at sequence: Int) -> Answer {
        while nextRemoval < byRemoval.count, Self.removedAt(record(Int(byRemoval[nextRemoval]))) < sequence {
            firstRemoved = min(firstRemoved, Int(byRemoval[nextRemoval]))
            nextRemoval += 1
        }
        while nextAdd < positions.count {
            let index = byAdd.map { Int($0[nextAdd]) } ?? nextAdd
            let added = record(index)
            guard added.addSequence < sequence else { break }
            if byAdd != nil, added.tokenForm { push(Int32(index)) }
            nextAdd += 1
        }
        var answer = Answer()
        if byAdd == nil {
            while blockHead < nextAdd, !(record(blockHead).tokenForm && record(blockHead).isActive(at: sequence)) {
                blockHead += 1
            }
            if blockHead < nextAdd { answer.firstActiveBlock = record(blockHead) }
        } else {
            while let top = blocks.first, !record(Int(top)).isActive(at: sequence) { pop() }
            answer.firstActiveBlock = blocks.first.map { record(Int($0)) }
        }
        answer.isEmpty = nextAdd == 0
        if firstRemoved != Int.max { answer.firstRemovedBefore = record(firstRemoved) }
        if nextRemoval > 0 { answer.latestRemovedBefore = record(Int(byRemoval[nextRemoval - 1])) }
        return answer
    }

    private mutating func push(_ index: Int32) {
        blocks.append(index)
        var child = blocks.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard blocks[child] < blocks[parent] else { break }
            blocks.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() {
        blocks.swapAt(0, blocks.count - 1)
        blocks.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < blocks.count, blocks[left] < blocks[smallest] { smallest = left }
            if right < blocks.count, blocks[right] < blocks[smallest] { smallest = right }
            guard smallest != parent else { return }
            blocks.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
