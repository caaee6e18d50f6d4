import Foundation
import ObserverHarnessInterface
import Testing

@Suite struct NotificationCenterProtocolTests {
    static let ping = Notification.Name("InterfaceTests.ping")

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var storage = 0
        func increment() { lock.lock(); storage += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return storage }
    }

    /// In an app (here a fresh process that opened no harness scope) the
    /// default center is Foundation's own.
    #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
        @Test func outsideAnyHarnessTheDefaultCenterIsFoundations() async {
            await #expect(processExitsWith: .success) {
                #expect(Observers.center === NotificationCenter.default)
            }
        }
    #endif

    @Test func foundationsCenterWorksThroughTheProtocol() {
        let center: any NotificationCenterProtocol = NotificationCenter()
        let sender = NSObject()
        let counter = Counter()
        let token = center.addObserver(forName: Self.ping, object: sender, queue: nil) { _ in counter.increment() }
        center.post(name: Self.ping, object: sender)
        center.post(name: Self.ping, object: NSObject())
        center.post(Notification(name: Self.ping, object: sender))
        center.removeObserver(token, name: Self.ping, object: sender)
        center.post(name: Self.ping, object: sender)
        #expect(counter.value == 2)
    }

    /// Compiles without warnings in Swift 6 mode: the protocol is `Sendable`.
    @Test func theCenterCanBeCapturedByATask() async {
        let center: any NotificationCenterProtocol = NotificationCenter()
        let counter = Counter()
        let token = center.addObserver(forName: Self.ping, object: nil, queue: nil) { _ in counter.increment() }
        await Task { center.post(name: Self.ping, object: nil) }.value
        await Task.detached { center.post(name: Self.ping, object: nil) }.value
        center.removeObserver(token)
        #expect(counter.value == 2)
    }

    @Test func theCenterCanBeCapturedByAnOperation() {
        let center: any NotificationCenterProtocol = NotificationCenter()
        let counter = Counter()
        let token = center.addObserver(forName: Self.ping, object: nil, queue: nil) { _ in counter.increment() }
        let queue = OperationQueue()
        queue.addOperation { center.post(name: Self.ping, object: nil) }
        queue.waitUntilAllOperationsAreFinished()
        center.removeObserver(token)
        #expect(counter.value == 1)
    }
}
