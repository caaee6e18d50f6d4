import Foundation
import ObserverHarness

/// Records what an app's observer traffic looks like, for as many events as asked.
///
/// Eight long-lived services each observe two of sixteen notification names, so
/// every post has a receiver. Then screens come and go, four at a time: each
/// observes two names with blocks (one reads shared state in its handler), one
/// with the observer form, joins a subject list, observes a property, and one of
/// them becomes a table's delegate. Ten posts, a notify, a property set and a
/// delegate call later the screens remove everything and are released. Like real
/// code, a few sessions have bugs: every 32nd registers one observer twice, and
/// every 256th forgets to remove one, which a rare notification then finds.
struct AppWorkload {
    static let names = (0..<16).map { Notification.Name("App.Channel\($0)") }
    static let rareName = Notification.Name("App.MemoryWarning")

    final class Screen {
        var refreshes = 0
    }

    final class Service {
        var handled = 0
    }

    let harness: Harness
    private let center: InstrumentedNotificationCenter
    private let list: ObserverList<Screen>
    private let model = NSObject()
    private let table = NSObject()
    private let property: ObservedProperty<Int>
    private let slot: DelegateSlot<Screen>
    private let services: [Service]
    private var session = 0

    init(name: String = "app") {
        harness = Harness(name: name)
        center = harness.notificationCenter()
        list = harness.observerList("screens", of: Screen.self)
        property = harness.observedProperty("count", of: model, initialValue: 0)
        slot = harness.delegateSlot(of: table, as: Screen.self)
        services = (0..<8).map { _ in Service() }
        for (index, service) in services.enumerated() {
            for name in [Self.names[2 * index], Self.names[2 * index + 1]] {
                center.addObserver(service, name: name, object: nil) { service, _ in service.handled &+= 1 }
            }
        }
    }

    /// Records whole sessions until the recording holds at least `events` events.
    mutating func record(events: Int) {
        while harness.eventCount < events { runSession() }
    }

    /// A recording of about `events` events of the mix.
    static func recording(events: Int) -> Recording {
        var workload = AppWorkload()
        workload.record(events: events)
        return workload.harness.recording()
    }

    private mutating func runSession() {
        let i = session
        session += 1
        let harness = self.harness
        let screens = (0..<4).map { _ in Screen() }
        var tokens: [any NSObjectProtocol] = []
        for (k, screen) in screens.enumerated() {
            tokens.append(center.addObserver(forName: Self.names[(i + k) % 16], object: nil, queue: nil) { _ in })
            tokens.append(
                center.addObserver(forName: Self.names[(i + 3 * k + 5) % 16], object: nil, queue: nil) { _ in
                    harness.noteAction(.read("cart.count"))
                })
            center.addObserver(screen, name: Self.names[(i + k + 8) % 16], object: nil) { screen, _ in
                screen.refreshes &+= 1
            }
            list.add(screen)
            property.addObserver(screen) { screen, _ in screen.refreshes &+= 1 }
        }
        if i % 32 == 31 {
            // Bug: registered again on the same name (duplicate-registration).
            center.addObserver(screens[2], name: Self.names[(i + 10) % 16], object: nil) { screen, _ in
                screen.refreshes &+= 1
            }
        }
        if i % 256 == 255 {
            // Bug: never removed (dangling-registration once the screen is gone).
            center.addObserver(screens[3], name: Self.rareName, object: nil) { screen, _ in screen.refreshes &+= 1 }
            center.post(name: Self.rareName, object: nil)
        }
        slot.set(screens[0])
        for post in 0..<10 { center.post(name: Self.names[(i * 7 + post * 3) % 16], object: nil) }
        list.notify { $0.refreshes &+= 1 }
        property.set(i)
        slot.call { $0.refreshes &+= 1 }

        for token in tokens { center.removeObserver(token) }
        for (k, screen) in screens.enumerated() {
            if k == 3 && i % 256 == 255 {
                center.removeObserver(screen, name: Self.names[(i + k + 8) % 16], object: nil)
            } else {
                center.removeObserver(screen)
            }
            list.remove(screen)
            property.removeObserver(screen)
        }
        slot.set(nil)
    }
}
