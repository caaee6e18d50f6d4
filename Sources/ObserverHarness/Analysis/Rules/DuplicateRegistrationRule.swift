/// The same observer registered twice for the same channel and sender, so
/// one post reaches it twice.
struct DuplicateRegistrationRule: Rule {
    let descriptor = RuleDescriptor(
        id: "duplicate-registration", severity: .error,
        summary: "The same observer registered twice for the same channel and sender, so one post reaches it twice.",
        explanation: """
            Notification centers and most observer lists do not de-duplicate: a second registration of the same \
            observer for the same name and sender is a second entry, and every post runs its handler twice. The \
            classic cause is registering in viewWillAppear (or any method that runs more than once) and removing \
            only in deinit.
            """,
        fix: "Register once (in init or viewDidLoad, not in a method that runs repeatedly), remove before "
            + "registering again, or de-duplicate in the registry.")

    private struct Key: Hashable {
        let registry: UInt32, observer: UInt32, channel: UInt32, anyChannel: Bool, sender: UInt32
    }

    func check(_ trace: TraceIndex, into findings: inout [Finding]) {
        var earlier: [Key: [UInt32]] = [:]
        for id in trace.registrationOrder {
            guard let registration = trace.registration(id), !registration.isDelegate, registration.observer != 0
            else { continue }
            let key = Key(registry: registration.registry, observer: registration.observer,
                          channel: registration.channel, anyChannel: registration.anyChannel,
                          sender: registration.sender)
            defer { earlier[key, default: []].append(id) }
            guard let firstID = earlier[key]?.first(where: {
                trace.registration($0)?.isActive(at: registration.addSequence) ?? false
            }), let first = trace.registration(firstID) else { continue }
            let sender = registration.sender == 0 ? "" : " from \(trace.describe(registration.sender))"
            findings.append(finding(
                "\(trace.describe(registration.observer)) registered twice\(trace.forChannel(registration))\(sender) in "
                    + "\(trace.registryName(registration.registry)) (at \(siteText(trace, first.site)) and again at "
                    + "\(siteText(trace, registration.site))): each post reaches it twice.",
                registry: trace.registryName(registration.registry),
                channel: registration.anyChannel ? nil : trace.string(registration.channel),
                objects: [trace.name(registration.observer)], step: trace.step(of: registration.addSequence),
                site: trace.site(registration.site), location: trace.location(registration.site),
                events: [first.addSequence, registration.addSequence]))
        }
    }
}
