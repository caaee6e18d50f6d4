import ObserverHarnessInterface

/// A small signal library adopted as README says: its subscribers are an
/// `ObserverList` that holds them strongly, as its `[Subscription]` did.
final class Signal<Value>: @unchecked Sendable {
    final class Subscription {
        let callback: (Value) -> Void
        init(_ callback: @escaping (Value) -> Void) { self.callback = callback }
    }

    private let subscribers = ObserverList<Subscription>(hold: .strong)

    func subscribe(_ callback: @escaping (Value) -> Void) {
        subscribers.add(Subscription(callback))
    }

    func send(_ value: Value) {
        subscribers.notify { $0.callback(value) }
    }
}

final class ProfileScreen: @unchecked Sendable {
    var name = ""

    init(profile: Signal<String>) {
        profile.subscribe { name in self.name = name }  // captures self: never freed
    }
}
