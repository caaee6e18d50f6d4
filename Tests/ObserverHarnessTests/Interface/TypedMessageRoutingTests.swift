import Foundation
import ScopeJourneyApp
import Testing

@testable import ObserverHarness

/// Typed messages through `Observers.center` from wherever app code posts
/// them never crash the process. Foundation on Linux aborts when a typed
/// message meets an observer of every name (or of the message's name); the
/// harness installs none in Foundation's default center, so the app's posts
/// behave as they do there. Each case runs in a child process of its own.
#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
    @Suite struct TypedMessageRoutingTests {
        #if os(Linux)
            /// Why the bridge is per name: Foundation's own wildcard observer
            /// aborts on a typed message (the shape that crashed parallel runs).
            @Test func foundationsWildcardObserverAbortsOnATypedMessage() async {
                await #expect(processExitsWith: .failure) { () async in
                    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                        let token = NotificationCenter.default.addObserver(forName: nil, object: nil, queue: nil) { _ in
                        }
                        NotificationCenter.default.post(MessagesArrived(count: 1), subject: Socket())
                        _ = token
                    }
                }
            }
        #endif

        @Test func typedMessagesFromEveryPlaceReachTheirObserversWithoutACrash() async {
            await #expect(processExitsWith: .success) {
                guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
                let socket = Socket()
                let heard = Counter()
                // Before any harness: Foundation's center, as in the app.
                let before = Observers.center.addObserver(of: socket, for: MessagesArrived.self) { _ in heard.bump() }
                await postFromADetachedTask(socket)
                await heard.reach(1)
                do {
                    // One scope open, a classic observer bridged, posts from outside it.
                    let first = Harness()
                    await withObserverHarness(first) {
                        let classic = Observers.center.addObserver(forName: .syncFinished, object: nil, queue: nil) {
                            _ in
                        }
                        let inScope = Counter()
                        let token = Observers.center.addObserver(of: socket, for: MessagesArrived.self) { _ in
                            inScope.bump()
                        }
                        await postFromADetachedTask(socket)
                        await inScope.reach(1)
                        await MainActor.run { Observers.center.post(MainActorPing(), subject: socket) }
                        Observers.center.removeObserver(token)
                        Observers.center.removeObserver(classic)
                    }
                    // Two scopes open: nothing ties a subject-less post to either.
                    let (second, third) = (Harness(), Harness())
                    let counters = await TwoScopes.run(second, third) {
                        let counter = Counter()
                        let token = Observers.center.addObserver(for: MessagesArrived.self) { _ in counter.bump() }
                        return Held(counter: counter, token: token)
                    } whileBothOpen: {
                        await Task.detached { Observers.center.post(MessagesArrived(count: 2)) }.value
                    }
                    for held in counters { await held.counter.reach(1) }
                    withExtendedLifetime((first, second, third, counters)) {}
                }
                // Every harness gone.
                await postFromADetachedTask(socket)
                await heard.reach(2)
                Observers.center.removeObserver(before)
            }
        }
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    private func postFromADetachedTask(_ socket: Socket) async {
        await Task.detached {
            Observers.center.post(MessagesArrived(count: 1), subject: socket)
            Observers.center.post(MessagesArrived(count: 1))
        }.value
    }

    /// A main-actor message about a socket.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    private struct MainActorPing: NotificationCenter.MainActorMessage {
        typealias Subject = Socket
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    private struct Held: @unchecked Sendable {
        let counter: Counter
        let token: NotificationCenter.ObservationToken
    }
#endif
