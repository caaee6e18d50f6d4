/// An object the app released that is still alive.
public struct OutlivingObject: Sendable, CustomStringConvertible {
    /// `label (Type)` or `Type#id`.
    public let description: String
    /// What keeps it alive, when a registration or delegate slot does.
    public let heldBy: String?
    /// The line of the registration holding it.
    public let site: CallSite?
}

extension Harness {
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
                    site: registration.flatMap { trace.location($0.site).map(CallSite.init) ?? trace.site($0.site) }))
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
            result.append(
                OutlivingObject(
                    description: trace.describe(object), heldBy: heldBy,
                    site: holder.flatMap { trace.location($0.site).map(CallSite.init) ?? trace.site($0.site) }))
        }
        return result
    }
}
