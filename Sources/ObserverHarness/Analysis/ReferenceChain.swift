/// The chain of strong references that keeps a released object alive, as
/// the harness found it in memory (see `ReferenceChains`): root first, the
/// object last, e.g. `feed (Feed)`, `Feed.subscribers[2]`,
/// `Subscription.callback (closure)`, `profile (ProfileScreen)`.
struct ReferenceChain {
    let links: [String]
    /// The registration the chain starts from, when it starts from one.
    let rootRegistration: TraceIndex.RegistrationRecord?

    /// `A → B → C`.
    var text: String { links.joined(separator: " → ") }
}

extension TraceIndex {
    /// The chain found for the released `object`, if one was.
    func referenceChain(of object: UInt32) -> ReferenceChain? {
        guard let sequence = referenceChainEvents[object] else { return nil }
        let event = events[sequence]
        guard !event.flags.contains(.referenceChainNotFound) else { return nil }
        var links = string(event.channel).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard !links.isEmpty else { return nil }
        var rootRegistration: RegistrationRecord?
        if event.registration != 0 {
            guard let registration = registrationsInOrder.first(where: { $0.id == event.registration }) else {
                return nil
            }
            rootRegistration = registration
            let what = registration.isDelegate ? "the delegate slot" : "the registration\(forChannel(registration))"
            links[0] =
                "\(what) in \(registryName(registration.registry)) (added at \(siteText(self, registration.site)))"
                + links[0]
        } else {
            links[0] = describe(event.subject) + links[0]
        }
        return ReferenceChain(links: links + [describe(object)], rootRegistration: rootRegistration)
    }

    /// What the search for `object`'s chain looked through, when it found none.
    func referenceChainSearch(of object: UInt32) -> String? {
        guard let sequence = referenceChainEvents[object], events[sequence].flags.contains(.referenceChainNotFound)
        else { return nil }
        return string(events[sequence].channel)
    }
}
