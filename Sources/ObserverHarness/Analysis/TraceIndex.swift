/// A recording indexed once for the rules: registrations with their whole
/// history, object lifetimes, posts with their deliveries, delegate slots,
/// effects with the delivery they belong to. Built in one pass over the events.
struct TraceIndex {
    struct RegistrationRecord {
        let id: UInt32
        let addSequence: Int
        let registry: UInt32
        let observer: UInt32
        let channel: UInt32
        let anyChannel: Bool
        let sender: UInt32
        let hold: Hold
        let tokenForm: Bool
        let site: UInt32
        let isDelegate: Bool
        var removeSequence: Int?
        var tokenDropSequence: Int?
        var deliveries: [Int] = []

        func isActive(at sequence: Int) -> Bool {
            addSequence < sequence && (removeSequence.map { $0 > sequence } ?? true)
        }
    }

    struct Lifetime {
        var trackSequence: Int?
        var releaseSequence: Int?
        var deallocSequence: Int?
        var deallocDetectedLate = false
        func isDeallocated(at sequence: Int) -> Bool { deallocSequence.map { $0 < sequence } ?? false }
    }

    struct PostRecord {
        let sequence: Int
        let kind: EventKind
        let registry: UInt32
        let channel: UInt32
        let sender: UInt32
        let site: UInt32
        var deliveries: [Int] = []
    }

    struct DelegateSet {
        let sequence: Int
        let registry: UInt32
        let owner: UInt32
        let delegate: UInt32
        let site: UInt32
    }

    struct Effect {
        let sequence: Int
        let kind: EventKind
        let key: UInt32
        let value: UInt32
        /// The delivery of a post or property set this effect ran in.
        let broadcastDelivery: Int?
    }

    struct Invocation {
        let sequence: Int
        let target: UInt32
        let method: UInt32
        /// The delegate delivery it was called from, directly or through the
        /// delegate's own methods.
        let delegateDelivery: Int?
    }

    let recording: Recording
    private(set) var registrations: [UInt32: RegistrationRecord] = [:]
    /// Registration ids in the order they were added.
    private(set) var registrationOrder: [UInt32] = []
    private(set) var ignoredDuplicateAdds: [Int] = []
    private(set) var lifetimes: [Lifetime]
    private(set) var posts: [PostRecord] = []
    private(set) var postIndexBySequence: [Int: Int] = [:]
    private(set) var removals: [Int] = []
    private(set) var mutations: [Int] = []
    private(set) var delegateSets: [DelegateSet] = []
    private(set) var effects: [Effect] = []
    private(set) var invocations: [Invocation] = []
    private(set) var retains: [(holder: UInt32, target: UInt32, sequence: Int)] = []
    private(set) var cycleCuts: [Int] = []
    private var stepStarts: [(sequence: Int, step: Int)] = []

    var events: EventLog { recording.events }

    init(_ recording: Recording) {
        self.recording = recording
        lifetimes = Array(repeating: Lifetime(), count: recording.objects.count)
        var activeDelegate: [SlotKey: UInt32] = [:]
        for sequence in 0..<recording.events.count {
            let event = recording.events[sequence]
            switch event.kind {
            case .track:
                lifetimes[Int(event.object)].trackSequence = sequence
            case .appRelease:
                if lifetimes[Int(event.object)].releaseSequence == nil {
                    lifetimes[Int(event.object)].releaseSequence = sequence
                }
            case .dealloc:
                if lifetimes[Int(event.object)].deallocSequence == nil {
                    lifetimes[Int(event.object)].deallocSequence = sequence
                    lifetimes[Int(event.object)].deallocDetectedLate = event.flags.contains(.detectedLate)
                }
            case .retain:
                retains.append((event.subject, event.object, sequence))
            case .add:
                if event.flags.contains(.ignoredDuplicate) {
                    ignoredDuplicateAdds.append(sequence)
                } else {
                    registrations[event.registration] = RegistrationRecord(
                        id: event.registration, addSequence: sequence, registry: event.registry,
                        observer: event.object, channel: event.channel, anyChannel: event.flags.contains(.anyChannel),
                        sender: event.subject, hold: event.flags.hold, tokenForm: event.flags.contains(.tokenForm),
                        site: event.site, isDelegate: false)
                    registrationOrder.append(event.registration)
                }
                mutations.append(sequence)
            case .remove:
                if event.registration != 0, registrations[event.registration]?.removeSequence == nil {
                    registrations[event.registration]?.removeSequence = sequence
                }
                removals.append(sequence)
                mutations.append(sequence)
            case .tokenDropped:
                registrations[event.registration]?.tokenDropSequence = sequence
            case .delegateSet:
                let key = SlotKey(registry: event.registry, owner: event.subject)
                if let previous = activeDelegate[key] { registrations[previous]?.removeSequence = sequence }
                activeDelegate[key] = nil
                if event.registration != 0 {
                    registrations[event.registration] = RegistrationRecord(
                        id: event.registration, addSequence: sequence, registry: event.registry,
                        observer: event.object, channel: 0, anyChannel: true, sender: event.subject,
                        hold: event.flags.hold, tokenForm: false, site: event.site, isDelegate: true)
                    registrationOrder.append(event.registration)
                    activeDelegate[key] = event.registration
                }
                delegateSets.append(DelegateSet(sequence: sequence, registry: event.registry, owner: event.subject,
                                                delegate: event.object, site: event.site))
            case .post, .propertySet, .delegateCall:
                postIndexBySequence[sequence] = posts.count
                posts.append(PostRecord(sequence: sequence, kind: event.kind, registry: event.registry,
                                        channel: event.channel, sender: event.subject, site: event.site))
            case .deliver, .deliverSkipped, .deliverToDead:
                if event.cause != Event.none, let index = postIndexBySequence[Int(event.cause)] {
                    posts[index].deliveries.append(sequence)
                }
                registrations[event.registration]?.deliveries.append(sequence)
            case .increment, .stateSet, .append, .read:
                effects.append(Effect(sequence: sequence, kind: event.kind, key: event.channel,
                                      value: event.registration,
                                      broadcastDelivery: Self.broadcastDelivery(of: event, in: recording.events)))
            case .invoke:
                invocations.append(Invocation(sequence: sequence, target: event.object, method: event.channel,
                                              delegateDelivery: Self.delegateDelivery(of: event, in: recording.events)))
            case .step:
                stepStarts.append((sequence, Int(event.registration)))
            case .cycleCut:
                cycleCuts.append(sequence)
            }
        }
    }

    // MARK: Queries

    func registration(_ id: UInt32) -> RegistrationRecord? { registrations[id] }

    /// The top-level scenario step an event belongs to (nil outside replays).
    func step(of sequence: Int) -> Int? {
        var low = 0, high = stepStarts.count
        while low < high {
            let mid = (low + high) / 2
            if stepStarts[mid].sequence <= sequence { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : stepStarts[low - 1].step
    }

    /// The first event of a top-level step.
    func stepStart(_ step: Int) -> Int? { stepStarts.first { $0.step == step }?.sequence }

    func site(_ id: UInt32) -> CallSite? { recording.site(id) }
    func location(_ id: UInt32) -> CodeLocation? { id == 0 ? nil : recording.siteLocations[Int(id)] }
    func string(_ id: UInt32) -> String { recording.string(id) }
    func registryName(_ id: UInt32) -> String { recording.registry(id).name }
    func registryInfo(_ id: UInt32) -> RegistryInfo { recording.registry(id) }
    func name(_ object: UInt32) -> String { recording.objectName(object) }

    /// `label (Type)`, or `Type#id` when there is no label.
    func describe(_ object: UInt32) -> String {
        let info = recording.object(object)
        if let label = info.label { return "\(label) (\(info.typeName))" }
        return info.displayName(id: object)
    }

    /// The post, property set or delegate call that an event was caused by.
    func post(ofDelivery sequence: Int) -> PostRecord? {
        let cause = events[sequence].cause
        guard cause != Event.none, let index = postIndexBySequence[Int(cause)] else { return nil }
        return posts[index]
    }

    /// ` for "name"`, ` for every name`, or nothing for a subject's default channel.
    func forChannel(_ registration: RegistrationRecord) -> String {
        if registration.anyChannel { return " for every name" }
        return registration.channel == 0 ? "" : " for \(quoted(registration.channel))"
    }

    /// `"name"` as messages quote a channel.
    func quoted(_ channel: UInt32) -> String { "\"\(string(channel))\"" }

    // MARK: Frames

    /// The delivery of a post or property set whose handler (directly, or
    /// through invoked methods and delegate calls) emitted `event`.
    private static func broadcastDelivery(of event: Event, in events: EventLog) -> Int? {
        var cause = event.cause
        var hops = 0
        while cause != Event.none, hops < 10_000 {
            let frame = events[Int(cause)]
            switch frame.kind {
            case .deliver:
                let post = frame.cause == Event.none ? nil : events[Int(frame.cause)]
                if post?.kind != .delegateCall { return Int(cause) }
                cause = post?.cause ?? Event.none
            case .invoke:
                cause = frame.cause
            default:
                return nil
            }
            hops += 1
        }
        return nil
    }

    /// The delegate delivery an invocation was made from: directly, or from a
    /// method the delegate invoked on itself.
    private static func delegateDelivery(of event: Event, in events: EventLog) -> Int? {
        var cause = event.cause
        var viaTargets: [UInt32] = []
        while cause != Event.none, viaTargets.count < 10_000 {
            let frame = events[Int(cause)]
            if frame.kind == .deliver {
                let post = frame.cause == Event.none ? nil : events[Int(frame.cause)]
                guard post?.kind == .delegateCall, viaTargets.allSatisfy({ $0 == frame.object }) else { return nil }
                return Int(cause)
            }
            guard frame.kind == .invoke else { return nil }
            viaTargets.append(frame.object)
            cause = frame.cause
        }
        return nil
    }
}

private struct SlotKey: Hashable {
    let registry: UInt32
    let owner: UInt32
}
