/// An object the app released that is still alive.
public struct OutlivingObject: Sendable, CustomStringConvertible {
    /// `label (Type)` or `Type#id`.
    public let description: String
    /// What keeps it alive, when a registration or delegate slot does.
    public let heldBy: String?
    /// The line of the registration holding it.
    public let site: CallSite?
    /// Its name in findings' `objects` (label, or `Type#id`).
    package private(set) var name = ""
    /// The chain of strong references that keeps it alive, found in memory
    /// from something the harness knows (a registration, a tracked object, a
    /// token), root first and the object last — `feed (Feed)`,
    /// `Feed.subscribers[2]`, `Subscription.callback (closure)`,
    /// `profile (ProfileScreen)` — or empty when none was found.
    public private(set) var referenceChain: [String] = []
    /// When no chain was found: what the search looked through (objects,
    /// references, roots). The holder is outside that.
    public private(set) var searched: String?

    /// What `assertNoLeaks` says of it: as a finding reads, the rule id, then
    /// the fix on a line of its own.
    package var failureMessage: String {
        let why = explanation
        let rule = RegistrationKeepsObserverAliveRule().descriptor
        return "Potential leak: \(description) was released but is still alive"
            + (why.isEmpty ? "; nothing the harness recorded holds it (check closures and caches)" : "; \(why)")
            + " [\(rule.id)]" + (heldBy == nil && referenceChain.isEmpty ? "" : "\nfix: \(rule.fix)")
    }

    /// Why it is alive.
    private var explanation: String {
        var parts: [String] = []
        if let heldBy { parts.append(heldBy) }
        if !referenceChain.isEmpty { parts.append("reference chain: " + referenceChain.joined(separator: " → ")) }
        if let searched {
            parts.append(
                "no chain of strong references from what the harness knows reaches it (it searched \(searched)): "
                    + "the holder is outside them (a global, a cache, a closure it cannot read, the test itself)")
        }
        return parts.joined(separator: "; ")
    }
}

extension Harness {
    /// Records that these leaks (``OutlivingObject/name``) were reported by
    /// an assertion: a later check of the findings does not tell them again.
    package func noteLeaksReported(_ leaks: [OutlivingObject]) {
        registries.noteLeaksReported(leaks.map(\.name))
    }

    /// Which findings tell a leak an assertion already reported (the same
    /// object kept alive, by a registration or a loop): they still count for
    /// a test that expects them, and fail nothing a second time.
    package func reportedLeakFindings() -> @Sendable (Finding) -> Bool {
        let reported = registries.reportedLeaks
        guard !reported.isEmpty else { return { _ in false } }
        return { finding in
            (finding.rule == "registration-keeps-observer-alive" || finding.rule == "async-observer-outlives-owner")
                && finding.objects.contains { reported.contains($0) }
        }
    }

    /// Objects passed to ``noteReleased(_:fileID:filePath:line:column:)``
    /// that have not deallocated, with the registration holding each. A
    /// block that captured its owner is found by detaching the owner's own
    /// block registrations: the object is then freed, and still listed here.
    public func outlivingObjects() -> [OutlivingObject] {
        let trace = TraceIndex(recording())
        var result: [OutlivingObject] = []
        for pinned in trace.pinnedLeaks where trace.lifetimes[Int(pinned.object)].releaseSequence != nil {
            let registration = trace.registrationsInOrder.first { $0.observer == pinned.token && $0.tokenForm }
            result.append(
                OutlivingObject(
                    description: trace.describe(pinned.object),
                    heldBy: registration.map { RegistrationKeepsObserverAliveRule.pinnedLeakText(trace, $0) },
                    site: registration.flatMap { callSite(trace, $0) }, chainOf: pinned.object, in: trace))
        }
        for id in trace.lifetimes.indices {
            let lifetime = trace.lifetimes[id]
            guard lifetime.releaseSequence != nil, lifetime.deallocSequence == nil else { continue }
            let object = UInt32(id)
            let holder = trace.registrationsInOrder.first {
                $0.observer == object && $0.hold == .strong && $0.removeSequence == nil
            }
            let heldBy = holder.map { registration in
                registration.isDelegate
                    ? "the delegate slot of \(trace.describe(registration.sender)) set at "
                        + "\(siteText(trace, registration.site)) holds it strongly"
                    : "its registration in \(trace.registryName(registration.registry)) added at "
                        + "\(siteText(trace, registration.site)) holds it strongly"
            }
            let chainRoot = trace.referenceChain(of: object)?.rootRegistration
            result.append(
                OutlivingObject(
                    description: trace.describe(object), heldBy: heldBy,
                    site: (holder ?? chainRoot).flatMap { callSite(trace, $0) }, chainOf: object, in: trace))
        }
        return result
    }

    private func callSite(_ trace: TraceIndex, _ registration: TraceIndex.RegistrationRecord) -> CallSite? {
        trace.location(registration.site).map(CallSite.init) ?? trace.site(registration.site)
    }
}

extension OutlivingObject {
    fileprivate init(
        description: String, heldBy: String?, site: CallSite?, chainOf object: UInt32, in trace: TraceIndex
    ) {
        self.init(description: description, heldBy: heldBy, site: site)
        name = trace.name(object)
        referenceChain = trace.referenceChain(of: object)?.links ?? []
        searched = trace.referenceChainSearch(of: object)
    }
}
