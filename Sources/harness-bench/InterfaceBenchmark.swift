import Foundation
import ObserverHarness

/// Section 6: what app code pays for the interface product, per call, against
/// calling Foundation or a plain array directly (target: within 10 %).
///
/// Each pair runs the same work two ways and takes turns, run after run, each
/// keeping its best run (as the post benchmark does). Protocol-typed values go
/// through `@inline(never)` functions so the optimiser cannot see the concrete
/// type behind them, as it cannot across an app's modules.
struct InterfaceBenchmark {
    struct Row {
        let operation: String
        let baseline: String
        let interfaceNanoseconds: Double
        let directNanoseconds: Double
        var ratio: Double { interfaceNanoseconds / directNanoseconds }
    }

    let options: BenchOptions
    private static let name = Notification.Name("InterfaceBenchmarkDidTick")

    func run() -> [Row] {
        let calls = options.isQuick ? 20_000 : 400_000
        var rows: [Row] = []
        for observers in [1, 10] {
            let posts = max(calls / observers / 4, 100)
            rows.append(
                pair(
                    "post, \(observers) observer\(observers == 1 ? "" : "s"), through the protocol",
                    "NotificationCenter", count: posts,
                    interface: { postThroughProtocol(NotificationCenter(), observers, posts) },
                    direct: { postDirectly(NotificationCenter(), observers, posts) }))
            rows.append(
                pair(
                    "post, \(observers) observer\(observers == 1 ? "" : "s"), via Observers.center",
                    "NotificationCenter.default", count: posts,
                    interface: { postThroughDefault(observers, posts) },
                    direct: { postDirectly(NotificationCenter.default, observers, posts) }))
        }
        let pairs = calls / 4
        rows.append(
            pair(
                "add + remove a block observer, through the protocol", "NotificationCenter", count: pairs,
                interface: { addRemoveThroughProtocol(NotificationCenter(), pairs) },
                direct: { addRemoveDirectly(NotificationCenter(), pairs) }))
        rows.append(
            pair(
                "add + remove a block observer, via Observers.center", "NotificationCenter.default",
                count: pairs,
                interface: { addRemoveThroughDefault(pairs) },
                direct: { addRemoveDirectly(NotificationCenter.default, pairs) }))
        for observers in [1, 10] {
            let notifies = calls / observers
            rows.append(
                pair(
                    "ObserverList<any P> (weak) notify, \(observers) observer\(observers == 1 ? "" : "s")",
                    "locked array of weak boxes", count: notifies,
                    interface: { notifyList(observers, notifies) },
                    direct: { notifyArray(observers, notifies) }))
        }
        rows.append(
            pair(
                "ObserverList<any P> (weak) add + remove", "locked array of weak boxes", count: calls,
                interface: { addRemoveList(calls) }, direct: { addRemoveArray(calls) }))
        rows.append(
            pair(
                "DelegateSlot<any D> call", "weak var delegate", count: calls,
                interface: { callSlot(calls) }, direct: { callWeakVar(calls) }))
        return rows
    }

    private func pair(
        _ operation: String, _ baseline: String, count: Int,
        interface: () -> Double, direct: () -> Double
    ) -> Row {
        _ = (interface(), direct())  // warm-up
        var best = (interface: Double.infinity, direct: Double.infinity)
        for _ in 0..<options.postRuns {
            best.interface = min(best.interface, interface())
            best.direct = min(best.direct, direct())
        }
        let perCall = 1e9 / Double(count)
        return Row(
            operation: operation, baseline: baseline, interfaceNanoseconds: best.interface * perCall,
            directNanoseconds: best.direct * perCall)
    }

    // MARK: Notification center

    private func observe(_ center: NotificationCenter, _ observers: Int, _ tally: Tally) -> [any NSObjectProtocol] {
        (0..<observers).map { _ in
            center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in tally.count &+= 1 }
        }
    }

    private func postDirectly(_ center: NotificationCenter, _ observers: Int, _ posts: Int) -> Double {
        let tally = Tally()
        let tokens = observe(center, observers, tally)
        let seconds = Stopwatch.seconds {
            for _ in 0..<posts { center.post(name: Self.name, object: nil) }
        }
        for token in tokens { center.removeObserver(token) }
        tally.expect(observers * posts, "Foundation's center")
        return seconds
    }

    private func postThroughProtocol(_ center: NotificationCenter, _ observers: Int, _ posts: Int) -> Double {
        let tally = Tally()
        let tokens = observe(center, observers, tally)
        let seconds = Stopwatch.seconds { Self.post(to: center, times: posts) }
        for token in tokens { center.removeObserver(token) }
        tally.expect(observers * posts, "the protocol")
        return seconds
    }

    @inline(never)
    private static func post(to center: any NotificationCenterProtocol, times: Int) {
        for _ in 0..<times { center.post(name: name, object: nil) }
    }

    private func postThroughDefault(_ observers: Int, _ posts: Int) -> Double {
        let tally = Tally()
        let tokens = observe(NotificationCenter.default, observers, tally)
        let seconds = Stopwatch.seconds {
            for _ in 0..<posts { Observers.center.post(name: Self.name, object: nil) }
        }
        for token in tokens { NotificationCenter.default.removeObserver(token) }
        tally.expect(observers * posts, "Observers.center")
        return seconds
    }

    private func addRemoveDirectly(_ center: NotificationCenter, _ pairs: Int) -> Double {
        Stopwatch.seconds {
            for _ in 0..<pairs {
                let token = center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in }
                center.removeObserver(token)
            }
        }
    }

    private func addRemoveThroughProtocol(_ center: NotificationCenter, _ pairs: Int) -> Double {
        Stopwatch.seconds { Self.addRemove(on: center, pairs) }
    }

    @inline(never)
    private static func addRemove(on center: any NotificationCenterProtocol, _ pairs: Int) {
        for _ in 0..<pairs {
            let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in }
            center.removeObserver(token)
        }
    }

    private func addRemoveThroughDefault(_ pairs: Int) -> Double {
        Stopwatch.seconds {
            for _ in 0..<pairs {
                let token = Observers.center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in }
                Observers.center.removeObserver(token)
            }
        }
    }

    // MARK: Observer list and delegate

    private func notifyList(_ observers: Int, _ notifies: Int) -> Double {
        let screens = (0..<observers).map { _ in BenchScreen() }
        let list = ObserverList<any BenchObserver>(hold: .weak)
        for screen in screens { list.add(screen) }
        let seconds = Stopwatch.seconds { Self.notify(list, times: notifies) }
        expect(screens, observers * notifies, "ObserverList")
        return seconds
    }

    @inline(never)
    private static func notify(_ list: ObserverList<any BenchObserver>, times: Int) {
        for _ in 0..<times { list.notify { $0.tick() } }
    }

    private func notifyArray(_ observers: Int, _ notifies: Int) -> Double {
        let screens = (0..<observers).map { _ in BenchScreen() }
        let array = WeakArray()
        for screen in screens { array.add(screen) }
        let seconds = Stopwatch.seconds { Self.notify(array, times: notifies) }
        expect(screens, observers * notifies, "weak array")
        return seconds
    }

    @inline(never)
    private static func notify(_ array: WeakArray, times: Int) {
        for _ in 0..<times { array.notify { $0.tick() } }
    }

    private func addRemoveList(_ pairs: Int) -> Double {
        let list = ObserverList<any BenchObserver>(hold: .weak)
        let screen = BenchScreen()
        return Stopwatch.seconds {
            for _ in 0..<pairs {
                list.add(screen)
                list.remove(screen)
            }
        }
    }

    private func addRemoveArray(_ pairs: Int) -> Double {
        let array = WeakArray()
        let screen = BenchScreen()
        return Stopwatch.seconds {
            for _ in 0..<pairs {
                array.add(screen)
                array.remove(screen)
            }
        }
    }

    private func callSlot(_ calls: Int) -> Double {
        let owner = BenchScreen(), screen = BenchScreen()
        let slot = DelegateSlot<any BenchObserver>(of: owner)
        slot.set(screen)
        let seconds = Stopwatch.seconds { Self.call(slot, times: calls) }
        expect([screen], calls, "DelegateSlot")
        return seconds
    }

    @inline(never)
    private static func call(_ slot: DelegateSlot<any BenchObserver>, times: Int) {
        for _ in 0..<times { slot.call { $0.tick() } }
    }

    private func callWeakVar(_ calls: Int) -> Double {
        let owner = WeakDelegateOwner(), screen = BenchScreen()
        owner.delegate = screen
        let seconds = Stopwatch.seconds { Self.call(owner, times: calls) }
        expect([screen], calls, "weak var delegate")
        return seconds
    }

    @inline(never)
    private static func call(_ owner: WeakDelegateOwner, times: Int) {
        for _ in 0..<times { owner.delegate?.tick() }
    }

    private func expect(_ screens: [BenchScreen], _ expected: Int, _ what: String) {
        let total = screens.reduce(0) { $0 + $1.ticks }
        if total != expected {
            FileHandle.standardError.write(
                Data("harness-bench: \(what) delivered \(total) times, expected \(expected)\n".utf8))
        }
    }
}

protocol BenchObserver: AnyObject {
    func tick()
}

final class BenchScreen: BenchObserver {
    var ticks = 0
    func tick() { ticks &+= 1 }
}

/// The baseline a hand-written thread-safe observer list is: weak boxes of the
/// protocol type, copied out under a lock and called outside it.
final class WeakArray: @unchecked Sendable {
    private struct Box { weak var observer: (any BenchObserver)? }
    private let lock = NSLock()
    private var boxes: [Box] = []  // guarded by `lock`

    func add(_ observer: any BenchObserver) {
        lock.lock()
        boxes.append(Box(observer: observer))
        lock.unlock()
    }

    func remove(_ observer: any BenchObserver) {
        lock.lock()
        boxes.removeAll { $0.observer == nil || $0.observer === observer }
        lock.unlock()
    }

    func notify(_ body: (any BenchObserver) -> Void) {
        lock.lock()
        let current = boxes
        lock.unlock()
        for box in current {
            if let observer = box.observer { body(observer) }
        }
    }
}

final class WeakDelegateOwner {
    weak var delegate: (any BenchObserver)?
}

extension Results {
    var interfaceSection: String {
        "\n6. The interface product, ns per call, against calling Foundation or a plain array directly\n"
            + Self.columns(
                ["operation", "interface", "direct", "direct is", "interface / direct"],
                interface.map { row in
                    [
                        row.operation, format(row.interfaceNanoseconds, "%.1f"), format(row.directNanoseconds, "%.1f"),
                        row.baseline, format(row.ratio, "%.2fx"),
                    ]
                })
    }

    var interfaceJSON: JSONValue {
        .array(
            interface.map {
                [
                    "operation": .string($0.operation), "baseline": .string($0.baseline),
                    "interface_ns": .double(rounded($0.interfaceNanoseconds, 1)),
                    "direct_ns": .double(rounded($0.directNanoseconds, 1)),
                ]
            })
    }
}

extension Results {
    var interfaceTargets: [Target] {
        guard let worst = interface.max(by: { $0.ratio < $1.ratio }) else { return [] }
        return [
            Target(
                description: "interface product within 10 % of calling Foundation or a plain array",
                measured: format(worst.ratio, "worst %.2fx (\(worst.operation))"), met: worst.ratio <= 1.10)
        ]
    }
}
