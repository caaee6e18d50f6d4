/// The same observer registered twice for the same channel and sender, so
/// one post reaches it twice.
struct DuplicateRegistrationRule: Rule {
    let descriptor = RuleDescriptor(
        id: "duplicate-registration", severity: .error, category: .registration,
        summary: "The same observer registered twice for the same channel and sender, so one post reaches it twice.",
        explanation: """
            Notification centers and most observer lists do not de-duplicate: a second registration of the same \
            observer for the same name and sender is a second entry, and every post runs its handler twice. The \
            classic cause is registering in viewWillAppear (or any method that runs more than once) and removing \
            only in deinit. A block registration has no observer; in live tests it counts as its token's owner's \
            (the tracked object whose stored properties, arrays or dictionaries hold the token, directly or \
            inside wrapper objects the harness does not track, such as a bag of subscriptions; or the one tracked \
            object whose deinit let the tokens go; or, for a token overwritten by the next one, that token's owner) \
            when the owner added two blocks for the same name and sender at the same line. Each `withObservationTracking` is a \
            registration of its own, and all of them fire: one observer tracking the same object and property \
            twice before the first fired gets the next change twice (in scenarios' `observable` registries; live, \
            the harness cannot tell what two calls at one line read). A typed observer whose token is dropped at \
            once never fires (`discarded-token`), so it duplicates nothing.
            """,
        fix: "Register once (in init or viewDidLoad, not in a method that runs repeatedly), remove before "
            + "registering again, or de-duplicate in the registry.",
        triggering: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "cartBadge" },
                  { "op": "observe", "registry": "center", "observer": "cartBadge", "channel": "CartChanged",
                    "handler": [ { "increment": "badge.refreshes" } ], "site": "CartBadge.swift:30" },
                  ↓{ "op": "observe", "registry": "center", "observer": "cartBadge", "channel": "CartChanged",
                    "handler": [ { "increment": "badge.refreshes" } ], "site": "CartBadge.swift:30" },
                  { "op": "post", "registry": "center", "channel": "CartChanged" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                    "handler": [ { "increment": "badge.refreshes" } ], "site": "CartBadge.swift:18" },
                  ↓{ "op": "observe", "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                    "handler": [ { "increment": "badge.refreshes" } ], "site": "CartBadge.swift:18" },
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 1 }
                ]
                """, registries: #"{ "model": { "kind": "observable" } }"#),
        ],
        clean: [
            RuleExample(
                """
                [
                  { "op": "create", "object": "cartBadge" },
                  { "op": "observe", "registry": "center", "observer": "cartBadge", "channel": "CartChanged",
                    "handler": [ { "increment": "badge.refreshes" } ] },
                  { "op": "remove", "registry": "center", "observer": "cartBadge", "channel": "CartChanged" },
                  { "op": "observe", "registry": "center", "observer": "cartBadge", "channel": "CartChanged",
                    "handler": [ { "increment": "badge.refreshes" } ] },
                  { "op": "post", "registry": "center", "channel": "CartChanged" }
                ]
                """),
            RuleExample(
                """
                [
                  { "op": "create", "object": "left" },
                  { "op": "create", "object": "right" },
                  { "op": "create", "object": "mixer" },
                  { "op": "observe", "registry": "center", "observer": "mixer", "channel": "LevelChanged",
                    "sender": "left",
                    "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "mixer", "channel": "LevelChanged",
                    "sender": "right",
                    "handler": [] }
                ]
                """),
        ])

    /// What makes two registrations of one observer duplicates.
    fileprivate struct Key: Hashable {
        let registry: UInt32, channel: UInt32, anyChannel: Bool, sender: UInt32
        /// For block registrations counted by their token's owner, the line
        /// that registered: one object's two blocks for one name added at two
        /// lines are two purposes; at one line, the same code ran twice.
        let site: UInt32
    }

    /// One key's registrations that may still be active, oldest first.
    private struct Queue {
        private var entries: [(id: UInt32, removeSequence: UInt32)] = []
        private var head = 0

        /// The oldest registration active at `now`, after dropping those removed before it.
        mutating func earliestActive(at now: UInt32) -> UInt32? {
            while head < entries.count, entries[head].removeSequence < now { head += 1 }
            if head == entries.count, head > 0 {
                entries.removeAll(keepingCapacity: true)
                head = 0
            }
            return head < entries.count ? entries[head].id : nil
        }

        /// Queues a registration added after every one queued. One removed no
        /// later than an older one still queued is never the oldest active:
        /// the older one outlives it. So removals only increase along the
        /// queue, and an observer added a million times, never removed,
        /// keeps one entry.
        mutating func append(_ registration: TraceIndex.RegistrationRecord) {
            // Sequences in 32 bits, as the index keeps them (`UInt32.max`: never removed).
            let removeSequence = registration.removeSequence.map { UInt32($0) } ?? .max
            if head < entries.count, entries[entries.count - 1].removeSequence >= removeSequence { return }
            entries.append((registration.id, removeSequence))
        }
    }

    /// Past this many links in one observer's chain, the observer moves to a
    /// table by key: one observer registered 10^5 times (a hostile trace, or a
    /// scenario whose handlers register in a loop) would otherwise make every
    /// add walk all the others.
    private static var longChain: Int { 64 }

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        // Per observer, a chain of its registrations not yet removed, newest
        // first, linked by position in add order (`next`: 4 bytes a
        // registration, however many stay live). One removed before this add
        // is removed for every later add too, so the walk unlinks it: chains
        // stay as short as what is live. (A hash table keyed by the whole
        // registration missed the cache on every add and took a third of all
        // analysis time at 10^7 events.)
        let registrations = trace.registrationsInOrder
        var newest = [Int32](repeating: -1, count: trace.lifetimes.count)
        var next = [Int32](repeating: -1, count: registrations.endIndex)
        var tables = [Int: [Key: Queue]]()
        for position in 0..<registrations.endIndex {
            let registration = registrations[position]
            guard !registration.isDelegate, registration.observer != 0 else { continue }
            let registrant = trace.registrant(registration)
            let observer = Int(registrant)
            if observer >= newest.count {
                // An array, not `repeatElement`: a debug build copies a `Repeated` element by element.
                newest += [Int32](repeating: -1, count: observer + 1 - newest.count)
            }
            let now = registration.addSequence
            // The earliest registration with the same key active now.
            var earliestActive: UInt32?
            let key = Key(registration, registrant: registrant)
            if tables[observer] != nil {
                earliestActive = tables[observer]![key, default: Queue()].earliestActive(at: UInt32(now))
                // An id added again (a hand-written trace) is one registration, as in the chain.
                if earliestActive == registration.id { earliestActive = nil }
                tables[observer]![key, default: Queue()].append(registration)
                report(registration, duplicating: earliestActive, trace, into: &findings)
                continue
            }
            var previous: Int32 = -1
            var walked = 0
            var cursor = newest[observer]
            while cursor >= 0 {
                walked += 1
                let link = registrations[Int(cursor)]
                if (link.removeSequence ?? .max) < now {
                    if previous < 0 {
                        newest[observer] = next[Int(cursor)]
                    } else {
                        next[Int(previous)] = next[Int(cursor)]
                    }
                } else {
                    if link.addSequence < now, Key(link, registrant: registrant) == key { earliestActive = link.id }
                    previous = cursor
                }
                cursor = next[Int(cursor)]
            }
            next[position] = newest[observer]
            newest[observer] = Int32(position)
            if walked >= Self.longChain {
                // The chain, newest first, becomes per-key queues, oldest first.
                var chain: [Int32] = []
                var cursor = newest[observer]
                while cursor >= 0 {
                    chain.append(cursor)
                    cursor = next[Int(cursor)]
                }
                var table = [Key: Queue]()
                for position in chain.reversed() {
                    let link = registrations[Int(position)]
                    table[Key(link, registrant: registrant), default: Queue()].append(link)
                }
                tables[observer] = table
                newest[observer] = -1
            }
            report(registration, duplicating: earliestActive, trace, into: &findings)
        }
        checkObservationTracking(trace, into: &findings)
    }

    /// Each `withObservationTracking` is a registration of its own, and every
    /// one armed when the value changes runs its onChange: one observer
    /// tracking the same `object.property` twice gets each change twice.
    /// (Live trackings name their call site, not what they read, so only
    /// scenarios' `observable` registries are judged.)
    private func checkObservationTracking(_ trace: TraceIndex, into findings: inout RuleFindings) {
        struct Key: Hashable {
            let registry: UInt32, channel: UInt32, observer: UInt32
        }
        var armed = [Key: [Int]]()
        var reported = Set<Key>()
        for sequence in trace.observationEvents {
            let event = trace.events[sequence]
            guard event.object != 0, trace.registryKind(event.registry) == .observable else { continue }
            let key = Key(registry: event.registry, channel: event.channel, observer: event.object)
            switch event.kind {
            case .observationArm:
                if let first = armed[key]?.first, reported.insert(key).inserted {
                    findings.append(reportTracking(first: first, second: sequence, trace))
                }
                armed[key, default: []].append(sequence)
            case .observationChange, .observationFire:
                // The registrar took this tracking for a change: it is spent.
                if event.registration != 0 {
                    armed[key]?.removeAll { trace.events[$0].registration == event.registration }
                }
            default:
                break
            }
        }
    }

    private func reportTracking(first: Int, second: Int, _ trace: TraceIndex) -> Finding {
        let firstEvent = trace.events[first], secondEvent = trace.events[second]
        return finding(
            "\(trace.describe(secondEvent.object)) tracked \(trace.quoted(secondEvent.channel)) twice in "
                + "\(trace.registryName(secondEvent.registry)) (at \(siteText(trace, firstEvent.site)) and again at "
                + "\(siteText(trace, secondEvent.site)), the first not yet fired): each withObservationTracking is a "
                + "registration of its own, so the next change runs both onChanges.",
            registry: trace.registryName(secondEvent.registry), channel: trace.string(secondEvent.channel),
            objects: [trace.name(secondEvent.object)], step: trace.step(of: second),
            site: trace.site(secondEvent.site), location: trace.location(secondEvent.site),
            events: [first, second])
    }

    private func report(
        _ registration: TraceIndex.RegistrationRecord, duplicating firstID: UInt32?,
        _ trace: TraceIndex, into findings: inout RuleFindings
    ) {
        guard let firstID, let first = trace.registration(firstID) else { return }
        // `_ = center.addObserver(of:for:using:)` never fires (`discarded-token`): no post reaches it at all.
        if registration.typedMessage, let dropped = registration.tokenDropSequence,
            registration.removeSequence == dropped,
            DiscardedTokenRule.droppedAtOnce(registration, dropped, trace)
        {
            return
        }
        let sender = registration.sender == 0 ? "" : " from \(trace.describe(registration.sender))"
        let registrant = trace.registrant(registration)
        let blocks = registrant == registration.observer ? "" : " a block"
        findings.append(
            finding(
                "\(trace.describe(registrant)) registered\(blocks) twice\(trace.forChannel(registration))\(sender) in "
                    + "\(trace.registryName(registration.registry)) (at \(siteText(trace, first.site)) and again at "
                    + "\(siteText(trace, registration.site))): each post reaches it twice.",
                registry: trace.registryName(registration.registry),
                channel: registration.anyChannel ? nil : trace.string(registration.channel),
                objects: [trace.name(registrant)], step: trace.step(of: registration.addSequence),
                site: trace.site(registration.site), location: trace.location(registration.site),
                events: [first.addSequence, registration.addSequence]))
    }
}

extension DuplicateRegistrationRule.Key {
    /// The key of `registration` in the chain of `registrant`.
    fileprivate init(_ registration: TraceIndex.RegistrationRecord, registrant: UInt32) {
        self.init(
            registry: registration.registry, channel: registration.channel, anyChannel: registration.anyChannel,
            sender: registration.sender, site: registrant == registration.observer ? 0 : registration.site)
    }
}
