import Foundation

/// The registrations finished tests left behind in long-lived objects: every
/// later post reaches them, unrecorded, as the default center would.
///
/// Indexed by notification name and by observer when the test finishes (a
/// finished test's center takes no new registrations: work after a test's
/// end registers on Foundation's center), so a post or a removal visits only
/// the centers that may hold it, and its cost does not grow with the number
/// of tests before it.
final class Leftovers: @unchecked Sendable {
    private struct Member {
        let center: InstrumentedNotificationCenter
        let names: Set<String>
        let everyName: Bool
        let observers: Set<ObjectIdentifier>
    }

    private let lock = Lock()
    // Guarded by `lock`. Centers are held strongly while they have registrations.
    // Every post reads these: the lock already orders each access, so no
    // runtime exclusivity checks.
    @exclusivity(unchecked) private var members = [ObjectIdentifier: Member]()
    @exclusivity(unchecked) private var byName = [String: [InstrumentedNotificationCenter]]()
    @exclusivity(unchecked) private var everyName: [InstrumentedNotificationCenter] = []
    private var byObserver = [ObjectIdentifier: [InstrumentedNotificationCenter]]()
    /// `members.count`, which a post reads without the lock: most runs have none.
    private let memberCount = PublishedCount()

    /// Whether no finished test's registrations remain, read without the lock.
    var isEmpty: Bool { memberCount.load() == 0 }

    /// Keeps `center`'s registrations reachable, if it has any.
    func add(_ center: InstrumentedNotificationCenter) {
        guard center.registrationCount > 0 else { return }
        let (names, every, observers) = center.store.activeIndex()
        lock.withLock {
            let key = ObjectIdentifier(center)
            guard members[key] == nil else { return }
            members[key] = Member(center: center, names: names, everyName: every, observers: observers)
            for name in names { byName[name, default: []].append(center) }
            if every { everyName.append(center) }
            for observer in observers { byObserver[observer, default: []].append(center) }
            memberCount.store(members.count)
        }
    }

    func remove(_ center: InstrumentedNotificationCenter) {
        lock.withLock { removeLocked(ObjectIdentifier(center)) }
    }

    private func removeLocked(_ key: ObjectIdentifier) {
        guard let member = members.removeValue(forKey: key) else { return }
        memberCount.store(members.count)
        for name in member.names {
            byName[name]?.removeAll { ObjectIdentifier($0) == key }
            if byName[name]?.isEmpty == true { byName[name] = nil }
        }
        if member.everyName { everyName.removeAll { ObjectIdentifier($0) == key } }
        for observer in member.observers {
            byObserver[observer]?.removeAll { ObjectIdentifier($0) == key }
            if byObserver[observer]?.isEmpty == true { byObserver[observer] = nil }
        }
    }

    /// The centers a post named `name` may reach; those whose registrations
    /// are all gone are let go on the way.
    func centers(named name: Notification.Name) -> [InstrumentedNotificationCenter] {
        // Most runs have none: no lock to take, no name to hash, no array to make.
        guard memberCount.load() > 0 else { return [] }
        let candidates = lock.withLock { (byName[name.rawValue] ?? []) + everyName }
        guard !candidates.isEmpty else { return [] }
        let emptied = candidates.filter { $0.registrationCount == 0 }
        if !emptied.isEmpty { lock.withLock { for center in emptied { removeLocked(ObjectIdentifier(center)) } } }
        return emptied.isEmpty ? candidates : candidates.filter { $0.registrationCount > 0 }
    }

    /// The centers where `observer` had registrations when their test ended:
    /// where its removal may land.
    func centers(observedBy observer: AnyObject) -> [InstrumentedNotificationCenter] {
        guard memberCount.load() > 0 else { return [] }
        return lock.withLock { byObserver[ObjectIdentifier(observer)] ?? [] }
    }
}
