import Foundation
import ObserverHarnessInterface
import Testing

@testable import ObserverHarness

/// The behaviours Foundation's own typed-message tests check (subjects by
/// type and by instance, observing by identifier or by type, main-actor
/// delivery, async messages delivered off the posting task), each run on
/// Foundation's center, the instrumented drop-in and `Observers.center`
/// under a harness, which must behave alike and stay quiet.
#if compiler(>=6.2)
    @Suite struct FoundationMessageSuiteTests {
        enum Kind: CaseIterable, Sendable { case foundation, instrumented, observersCenter }

        final class Subject: Sendable {}

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        struct Changed: NotificationCenter.MainActorMessage {
            typealias Subject = FoundationMessageSuiteTests.Subject
            var value: Int
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        struct Arrived: NotificationCenter.AsyncMessage {
            typealias Subject = FoundationMessageSuiteTests.Subject
            var value: Int
        }

        /// Runs `body` on a center of `kind`; under a harness, expects no
        /// warning or error afterwards.
        @MainActor private static func on(
            _ kind: Kind, _ body: @MainActor (any NotificationCenterProtocol) async -> Void
        ) async {
            switch kind {
            case .foundation:
                await body(NotificationCenter())
            case .instrumented:
                let harness = Harness()
                await body(harness.notificationCenter())
                #expect(harness.analyze().findings.filter { $0.severity >= .warning }.isEmpty, "\(kind)")
            case .observersCenter:
                let harness = Harness()
                await withObserverHarness(harness) { await body(Observers.center) }
                #expect(harness.analyze().findings.filter { $0.severity >= .warning }.isEmpty, "\(kind)")
            }
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test(arguments: Kind.allCases)
        func anObserverOfEverySubjectHearsAPostWithNoneOnTheMainActor(_ kind: Kind) async {
            await Self.on(kind) { center in
                var heard = 0
                let token = center.addObserver(of: Subject.self, for: .changed) { message in
                    MainActor.assertIsolated()
                    heard += message.value
                }
                center.post(Changed(value: 1))
                #expect(heard == 1, "\(kind): delivered before the post returns")
                center.removeObserver(token)
            }
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test(arguments: Kind.allCases)
        func anObserverOfOneSubjectHearsItsPostsOnly(_ kind: Kind) async {
            await Self.on(kind) { center in
                let observed = Subject(), other = Subject()
                var heard: [Int] = []
                let token = center.addObserver(of: observed, for: Changed.self) { heard.append($0.value) }
                center.post(Changed(value: 1), subject: observed)
                center.post(Changed(value: 2), subject: other)
                center.post(Changed(value: 3))
                #expect(heard == [1], "\(kind)")
                center.removeObserver(token)
            }
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test(arguments: Kind.allCases)
        func anObserverOfEverySubjectHearsEachSubjectsPost(_ kind: Kind) async {
            await Self.on(kind) { center in
                var heard: [Int] = []
                let token = center.addObserver(of: Subject.self, for: .changed) { heard.append($0.value) }
                center.post(Changed(value: 1), subject: Subject())
                center.post(Changed(value: 2), subject: Subject())
                #expect(heard == [1, 2], "\(kind)")
                center.removeObserver(token)
            }
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test(arguments: Kind.allCases)
        func aSubjectAndAnyObserverBothHearAPostWithThatSubject(_ kind: Kind) async {
            await Self.on(kind) { center in
                let subject = Subject()
                var heard: [String] = []
                let tokens = [
                    center.addObserver(of: subject, for: Changed.self) { _ in heard.append("subject") },
                    center.addObserver(for: Changed.self) { _ in heard.append("any") },
                ]
                center.post(Changed(value: 1), subject: subject)
                #expect(heard.sorted() == ["any", "subject"], "\(kind)")
                for token in tokens { center.removeObserver(token) }
            }
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test(arguments: Kind.allCases)
        func aRemovedObserverHearsNothing(_ kind: Kind) async {
            await Self.on(kind) { center in
                var heard = 0
                let token = center.addObserver(for: Changed.self) { _ in heard += 1 }
                center.post(Changed(value: 1))
                center.removeObserver(token)
                center.post(Changed(value: 2))
                #expect(heard == 1, "\(kind)")
            }
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @MainActor @Test(arguments: Kind.allCases)
        func anAsyncMessageReachesBothObserversOffThePostingTask(_ kind: Kind) async {
            enum Marker {
                @TaskLocal static var posting = false
            }
            await Self.on(kind) { center in
                let subject = Subject()
                let arrivals = AsyncStream<Bool>.makeStream()
                let tokens = [
                    center.addObserver(of: subject, for: Arrived.self) { _ in
                        arrivals.continuation.yield(Marker.posting)
                    },
                    center.addObserver(for: Arrived.self) { _ in arrivals.continuation.yield(Marker.posting) },
                ]
                Marker.$posting.withValue(true) { center.post(Arrived(value: 1), subject: subject) }
                var seen: [Bool] = []
                for await posting in arrivals.stream {
                    seen.append(posting)
                    if seen.count == 2 { break }
                }
                #expect(seen == [false, false], "\(kind): each ran in a task of its own, not the poster's")
                for token in tokens { center.removeObserver(token) }
            }
        }
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    extension NotificationCenter.MessageIdentifier
    where Self == NotificationCenter.BaseMessageIdentifier<FoundationMessageSuiteTests.Changed> {
        fileprivate static var changed: Self { .init() }
    }
#endif
