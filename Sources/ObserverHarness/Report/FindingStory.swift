/// The events that tell one finding's story, ready to draw: who took part
/// (the registry, observers, senders, named as messages name them) and what
/// happened between them, in sequence order, trimmed to the finding's own
/// events and their nearest context. The Markdown and HTML reports draw it;
/// JSON reports carry only event numbers, so a merged report has none.
package struct FindingStory: Sendable, Equatable {
    package enum Role: String, Sendable {
        case registry, object, app
    }

    package struct Participant: Sendable, Equatable {
        package var name: String
        package var role: Role
        /// The story step where it was created / deallocated, when in the story.
        package var createdAt: Int?
        package var deallocatedAt: Int?
    }

    package enum Action: String, Sendable {
        case create, registration, removal, post, delivery, deadDelivery, skippedDelivery, release, dealloc, other
    }

    package struct Step: Sendable, Equatable {
        /// The event's sequence number in the recording.
        package var sequence: Int
        package var action: Action
        /// Participant indexes: who acts, and on whom (the same for a note).
        package var from: Int
        package var to: Int
        package var text: String
        package var site: String?
        /// One of the finding's own events.
        package var highlighted: Bool
        /// Events of the recording between the previous step and this one
        /// that the story leaves out.
        package var leftOutBefore: Int
        /// The registration this step adds or removes, or the post a delivery answers (story-local).
        package var registration: UInt32 = 0
    }

    /// Two orders of one choice and what each ended with
    /// (`ordering-dependence`).
    package struct OrderComparison: Sendable, Equatable {
        package var first: [String]
        package var other: [String]
        /// What differs: its value in the first order, in the other.
        package var differences: [Difference]

        package struct Difference: Sendable, Equatable {
            package var what: String
            package var first: String
            package var other: String
        }
    }

    package var participants: [Participant]
    package var steps: [Step]
    /// Events of the recording after the last step that the story leaves out
    /// (up to the last event it could concern).
    package var leftOutAfter: Int
    package var comparison: OrderComparison?

    /// Every event the story left out.
    package var leftOut: Int { steps.reduce(leftOutAfter) { $0 + $1.leftOutBefore } }
}

/// How many pictures a report still draws, by count and by size, so a page
/// or a job summary stays small whatever the trace.
struct DrawingBudget {
    var pictures: Int
    var bytes: Int
    /// Pictures that did not fit.
    private(set) var leftOut = 0

    /// Whether a picture of `size` bytes fits; it is counted either way.
    mutating func admits(_ size: Int) -> Bool {
        guard pictures > 0, bytes >= size else {
            leftOut += 1
            return false
        }
        pictures -= 1
        bytes -= size
        return true
    }
}

/// Stories for the findings of one report, by the finding they tell.
package struct ReportStories: Sendable {
    package struct Key: Hashable, Sendable {
        let rule: String
        let message: String
        let events: [Int]

        package init(_ finding: Finding) {
            rule = finding.rule
            message = finding.message
            events = finding.events
        }
    }

    package var stories: [Key: FindingStory] = [:]

    package init() {}

    package subscript(_ finding: Finding) -> FindingStory? {
        get { stories[Key(finding)] }
        set { stories[Key(finding)] = newValue }
    }
}

extension FindingStory {
    /// The most steps a story draws: past it the context is trimmed (never
    /// the finding's own events).
    static let maxSteps = 40
    /// Events looked at on each side of a finding's event for context.
    static let contextWindow = 64
    /// Context steps kept on each side of a finding's event.
    static let contextSteps = 3

    /// The story of `finding` in `trace`, nil when the finding has no events
    /// in it.
    init?(_ finding: Finding, in trace: TraceIndex, comparison: OrderComparison? = nil) {
        let events = trace.events
        let own = Set(finding.events.filter { $0 >= 0 && $0 < events.count })
        guard !own.isEmpty || comparison != nil else { return nil }
        var builder = StoryBuilder(trace: trace)
        var chosen = own
        // What caused the finding's events: the delivery an effect ran in, the post it answered.
        for sequence in own.sorted() {
            var cause = events[sequence].cause
            for _ in 0..<2 where cause != Event.none && Int(cause) < sequence {
                chosen.insert(Int(cause))
                cause = events[Int(cause)].cause
            }
        }
        // Who the finding concerns: the objects and registries of its events,
        // the senders of posts delivered, the observers of registrations named.
        for sequence in chosen.sorted() { builder.involve(sequence) }
        // Their lifetimes and registrations: creation, release, deallocation, add and remove.
        for object in builder.objects.sorted() where Int(object) < trace.lifetimes.count {
            let lifetime = trace.lifetimes[Int(object)]
            for sequence in [lifetime.trackSequence, lifetime.releaseSequence, lifetime.deallocSequence] {
                if let sequence { chosen.insert(sequence) }
            }
        }
        for registration in builder.registrations.sorted() {
            guard let record = trace.registration(registration) else { continue }
            chosen.insert(record.addSequence)
            if let removed = record.removeSequence { chosen.insert(removed) }
        }
        // Nearest context: drawable events touching the same objects, on each side.
        for sequence in own.sorted() {
            for direction in [-1, 1] {
                var found = 0
                var cursor = sequence + direction
                while found < Self.contextSteps, cursor >= 0, cursor < events.count,
                    abs(cursor - sequence) <= Self.contextWindow
                {
                    if builder.touches(cursor), !chosen.contains(cursor) {
                        chosen.insert(cursor)
                        found += 1
                    }
                    cursor += direction
                }
            }
        }
        // And what each context event answered: the delivery it ran in, the post delivered.
        for _ in 0..<2 {
            for sequence in chosen.sorted() where !own.contains(sequence) {
                let cause = events[sequence].cause
                if cause != Event.none, Int(cause) < sequence { chosen.insert(Int(cause)) }
            }
        }
        var ordered = chosen.filter { builder.isDrawable($0) || own.contains($0) }.sorted()
        if ordered.count > Self.maxSteps {
            // Keep the finding's events, then the context nearest to them.
            let anchors = own.sorted()
            func distance(_ sequence: Int) -> Int {
                anchors.map { abs($0 - sequence) }.min() ?? Int.max
            }
            let context = ordered.filter { !own.contains($0) }.sorted { (distance($0), $0) < (distance($1), $1) }
            let room = max(0, Self.maxSteps - own.count)
            ordered = (Array(own) + context.prefix(room)).sorted()
        }
        for sequence in ordered { builder.names(sequence) }
        var steps: [Step] = []
        var previous = -1
        for sequence in ordered {
            var step = builder.step(sequence, highlighted: own.contains(sequence))
            step.leftOutBefore = previous < 0 ? 0 : builder.leftOut(between: previous, and: sequence)
            steps.append(step)
            previous = sequence
        }
        // Mark each participant's creation and deallocation within the story.
        for (index, step) in steps.enumerated() {
            if step.action == .create { builder.participants[step.from].createdAt = index }
            if step.action == .dealloc { builder.participants[step.from].deallocatedAt = index }
        }
        self.init(participants: builder.participants, steps: steps, leftOutAfter: 0, comparison: comparison)
    }
}

/// Names participants and turns events into steps for one story.
struct StoryBuilder {
    let trace: TraceIndex
    private(set) var objects: Set<UInt32> = []
    private(set) var registries: Set<UInt32> = []
    private(set) var registrations: Set<UInt32> = []
    fileprivate(set) var participants: [FindingStory.Participant] = []
    private var objectIndex: [UInt32: Int] = [:]
    private var registryIndex: [UInt32: Int] = [:]
    private var appIndex: Int?

    init(trace: TraceIndex) {
        self.trace = trace
    }

    private var events: EventLog { trace.events }

    /// Takes in who an event of the finding concerns.
    mutating func involve(_ sequence: Int) {
        let event = events[sequence]
        switch event.kind {
        case .add, .remove, .tokenDropped:
            if event.registration != 0 { registrations.insert(event.registration) }
            if let record = trace.registration(event.registration) {
                objects.insert(record.observer)
                registries.insert(record.registry)
            }
        case .deliver, .deliverSkipped, .deliverToDead:
            if event.registration != 0 { registrations.insert(event.registration) }
            if let post = trace.post(ofDelivery: sequence), post.sender != 0 { objects.insert(post.sender) }
        case .delegateSet:
            if event.registration != 0 { registrations.insert(event.registration) }
        default: break
        }
        if event.object != 0, Int(event.object) < trace.recording.objects.count { objects.insert(event.object) }
        if event.subject != 0, Int(event.subject) < trace.recording.objects.count, event.kind != .retain {
            objects.insert(event.subject)
        }
        if event.kind == .retain { objects.insert(event.subject) }
        if event.registry != 0
            || [.add, .remove, .post, .deliver, .deliverToDead, .deliverSkipped].contains(event.kind)
        {
            if Int(event.registry) < trace.recording.registries.count { registries.insert(event.registry) }
        }
    }

    /// Whether an event concerns the story's objects or registrations.
    func touches(_ sequence: Int) -> Bool {
        let event = events[sequence]
        guard isDrawable(sequence) else { return false }
        switch event.kind {
        case .add, .remove, .deliver, .deliverSkipped, .deliverToDead:
            return registrations.contains(event.registration) || objects.contains(event.object)
        case .post, .propertySet, .delegateCall:
            return objects.contains(event.subject) && registries.contains(event.registry)
        case .track, .appRelease, .dealloc:
            return objects.contains(event.object)
        case _ where event.object == 0 && event.cause != Event.none && Int(event.cause) < sequence:
            // An effect of a delivery the story draws: what the receiver did.
            return registrations.contains(events[Int(event.cause)].registration)
        default:
            return objects.contains(event.object) && event.object != 0
        }
    }

    /// How many events between two steps a story could have shown: steps,
    /// settles and retains never are. Past a few thousand, every event counts,
    /// so a story costs the same in any trace.
    func leftOut(between start: Int, and end: Int) -> Int {
        let gap = end - start - 1
        guard gap > 0, gap <= 4096 else { return max(0, gap) }
        return (start + 1..<end).count { isDrawable($0) }
    }

    /// The kinds a story shows.
    func isDrawable(_ sequence: Int) -> Bool {
        switch events[sequence].kind {
        case .step, .settle, .retain: false
        default: true
        }
    }

    /// Declares the participants of an event, in order of first appearance.
    mutating func names(_ sequence: Int) {
        let event = events[sequence]
        switch event.kind {
        case .add, .remove, .deliver, .deliverSkipped, .deliverToDead, .delegateSet, .delegateCall, .post,
            .propertySet:
            if [.post, .propertySet, .delegateCall, .delegateSet].contains(event.kind) {
                _ = object(event.subject)
            } else {
                _ = object(observer(of: event))
            }
            _ = registry(event.registry)
            if event.kind == .delegateSet, event.object != 0 { _ = object(event.object) }
        default:
            var actor = event.object
            if actor == 0, event.cause != Event.none, Int(event.cause) < sequence {
                actor = observer(of: events[Int(event.cause)])
            }
            _ = object(actor)
        }
    }

    private func observer(of event: Event) -> UInt32 {
        if event.object != 0 { return event.object }
        return trace.registration(event.registration)?.observer ?? 0
    }

    private mutating func object(_ id: UInt32) -> Int {
        guard id != 0, Int(id) < trace.recording.objects.count else {
            if let appIndex { return appIndex }
            participants.append(.init(name: "app", role: .app))
            appIndex = participants.count - 1
            return participants.count - 1
        }
        if let index = objectIndex[id] { return index }
        participants.append(.init(name: trace.name(id), role: .object))
        objectIndex[id] = participants.count - 1
        return participants.count - 1
    }

    private mutating func registry(_ id: UInt32) -> Int {
        if let index = registryIndex[id] { return index }
        let name = Int(id) < trace.recording.registries.count ? trace.registryName(id) : "registry"
        participants.append(.init(name: name, role: .registry))
        registryIndex[id] = participants.count - 1
        return participants.count - 1
    }

    /// One event as a step between participants.
    mutating func step(_ sequence: Int, highlighted: Bool) -> FindingStory.Step {
        let event = events[sequence]
        let site = trace.site(event.site).map(\.description)
        let channel = event.channel == 0 || trace.string(event.channel).isEmpty ? "" : trace.quoted(event.channel)
        func make(_ action: FindingStory.Action, _ from: Int, _ to: Int, _ text: String) -> FindingStory.Step {
            FindingStory.Step(
                sequence: sequence, action: action, from: from, to: to, text: text, site: site,
                highlighted: highlighted, leftOutBefore: 0, registration: event.registration)
        }
        switch event.kind {
        case .add:
            let observer = object(observer(of: event)), registry = registry(event.registry)
            let hold = event.flags.hold.rawValue
            let what = event.flags.contains(.anyChannel) ? "every name" : channel
            let ignored = event.flags.contains(.ignoredDuplicate) ? " (ignored duplicate)" : ""
            return make(.registration, observer, registry, "add \(what) (\(hold))\(ignored)".trimmingDoubleSpaces)
        case .remove:
            let observer = object(observer(of: event)), registry = registry(event.registry)
            let matched = event.registration == 0 ? " (matched nothing)" : ""
            return make(.removal, observer, registry, "remove \(channel)\(matched)".trimmingDoubleSpaces)
        case .post, .propertySet:
            let sender = object(event.subject), registry = registry(event.registry)
            return make(
                .post, sender, registry, ((event.kind == .post ? "post " : "set ") + channel).trimmingDoubleSpaces)
        case .delegateCall:
            let caller = object(event.subject), registry = registry(event.registry)
            return make(.post, caller, registry, "call " + trace.string(event.channel))
        case .delegateSet:
            let owner = object(event.subject), registry = registry(event.registry)
            let delegate = event.object == 0 ? "nil" : trace.name(event.object)
            return make(.registration, owner, registry, "delegate = \(delegate) (\(event.flags.hold.rawValue))")
        case .deliver:
            let registry = registry(event.registry), observer = object(observer(of: event))
            let post =
                trace.post(ofDelivery: sequence).map {
                    $0.channel == 0 || trace.string($0.channel).isEmpty ? "" : trace.quoted($0.channel)
                }
                ?? channel
            return make(.delivery, registry, observer, "deliver \(post)".trimmingDoubleSpaces)
        case .deliverToDead:
            let registry = registry(event.registry), observer = object(observer(of: event))
            return make(.deadDelivery, registry, observer, "deliver to a deallocated observer")
        case .deliverSkipped:
            let registry = registry(event.registry), observer = object(observer(of: event))
            return make(.skippedDelivery, registry, observer, "skipped: observer gone")
        case .track:
            let object = object(event.object)
            return make(.create, object, object, "created")
        case .appRelease:
            let object = object(event.object)
            return make(.release, object, object, "released by the app")
        case .dealloc:
            let object = object(event.object)
            return make(.dealloc, object, object, "deallocated")
        case .tokenDropped:
            let object = object(event.object)
            return make(.other, object, object, "token dropped")
        default:
            // An effect with no object of its own belongs to the observer whose delivery it ran in.
            var actor = event.object
            if actor == 0, event.cause != Event.none, Int(event.cause) < sequence {
                actor = observer(of: events[Int(event.cause)])
            }
            let object = object(actor)
            var detail = event.channel == 0 ? "" : " " + trace.string(event.channel)
            // The value an effect wrote.
            if event.kind.isEffect, event.kind != .read, event.registration != 0 {
                detail += " " + trace.quotedValue(event.registration)
            }
            return make(.other, object, object, event.kind.traceName + detail)
        }
    }
}

extension String {
    /// Words joined by single spaces: a step's text without the gap an empty channel leaves.
    fileprivate var trimmingDoubleSpaces: String {
        split(separator: " ").joined(separator: " ")
    }
}

extension FindingStory.OrderComparison {
    /// The comparison a divergence makes, in the words of its cause.
    init(_ divergence: Divergence) {
        switch divergence.cause {
        case .deliveryOrder(_, let channel, let receivers, let reordered):
            first = ["\"\(channel)\" delivered to " + receivers.joined(separator: " then ")]
            other = ["\"\(channel)\" delivered to " + reordered.joined(separator: " then ")]
        case .interleaving(let firstOrder, let otherOrder):
            first = ["branches run \(firstOrder)"]
            other = ["branches run \(otherOrder)"]
        case .combined(_, _, let firstOrder, let otherOrder, _):
            first = firstOrder
            other = otherOrder
        }
        differences = divergence.differences.map { .init(what: $0.what, first: $0.first, other: $0.other) }
    }
}
