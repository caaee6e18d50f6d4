import Foundation
import Testing

@testable import ObserverHarness

/// The two false positives an adopted package showed, and their near misses:
/// a handler's own removal during a post (one-shot and "cancel all") is no
/// `mutation-during-notify` where the registry delivers from a copy, and an
/// observer dying in a list declared `hold: .weak` is no `dangling-registration`.
extension Rules {
    @Suite struct OwnRemovalAndWeakList {
        final class Subscription {
            let name: String
            init(_ name: String) { self.name = name }
        }

        static let mutation = "mutation-during-notify"
        static let dangling = "dangling-registration"

        // MARK: A handler's own removal, live

        @Test(arguments: ListKind.allCases)
        func aOneShotObserverRemovingItselfFromAnObserverListIsNoMutation(kind: ListKind) {
            let harness = Harness(name: "one-shot")
            let list = kind.make(ObserverList<Subscription>.self, harness: harness, hold: .strong, dedupe: false)
            let once = Subscription("once"), other = Subscription("other")
            harness.track(once, label: "once")
            harness.track(other, label: "other")
            list.add(once)
            list.add(other)
            var called: [String] = []
            list.notify { subscription in
                called.append(subscription.name)
                if subscription === once { list.remove(once) }
            }
            #expect(called == ["once", "other"])
            harness.analyze().expectNone(of: Self.mutation)
        }

        @Test(arguments: ListKind.allCases)
        func aCancelAllReportsOnlyTheOtherObservers(kind: ListKind) throws {
            let harness = Harness(name: "cancel all")
            let list = kind.make(ObserverList<Subscription>.self, harness: harness, hold: .strong, dedupe: false)
            let subscriptions = ["first", "second", "third"].map(Subscription.init)
            for subscription in subscriptions {
                harness.track(subscription, label: subscription.name)
                list.add(subscription)
            }
            var called: [String] = []
            list.notify { subscription in
                called.append(subscription.name)
                if subscription === subscriptions[0] {
                    for each in subscriptions { list.remove(each) }
                }
            }
            // Production's list delivers from a snapshot: the post still reaches everyone.
            #expect(called == ["first", "second", "third"])
            let findings = harness.analyze().findings(of: Self.mutation)
            #expect(findings.map(\.objects) == [["first", "second"], ["first", "third"]])
        }

        @Test func aNotificationCenterObserverRemovingAllItsRegistrationsIsNoMutation() {
            let harness = Harness(name: "center self removal")
            let center = harness.notificationCenter()
            let screen = Subscription("screen")
            harness.track(screen, label: "screen")
            var calls = 0
            center.addObserver(screen, name: Notification.Name("Logout"), object: nil) { screen, _ in
                calls += 1
                center.removeObserver(screen)
            }
            center.addObserver(screen, name: Notification.Name("Login"), object: nil) { _, _ in }
            center.post(name: Notification.Name("Logout"), object: nil)
            center.post(name: Notification.Name("Logout"), object: nil)
            #expect(calls == 1)
            harness.analyze().expectNone(of: Self.mutation)
        }

        /// A handler removing a later block observer by its token: the finding
        /// names the channel the token was registered for.
        @Test func aHandlerRemovingALaterBlockByTokenNamesItsChannel() throws {
            let harness = Harness(name: "removes a later block")
            let center = harness.notificationCenter()
            let name = Notification.Name("BP.remove")
            let later = TokenBox()
            let first = center.addObserver(forName: name, object: nil, queue: nil) { _ in
                if let token = later.token { center.removeObserver(token) }
            }
            later.token = center.addObserver(forName: name, object: nil, queue: nil) { _ in }
            center.post(name: name, object: nil)
            let finding = try #require(harness.analyze().findings(of: Self.mutation).first)
            #expect(finding.message.contains(#"for "BP.remove" at"#), "\(finding.message)")
            center.removeObserver(first)
        }

        @Test func aHandlerRemovingAnotherObserverOfAnObserverListStillFires() throws {
            let harness = Harness(name: "removes another")
            let list = harness.observerList(of: Subscription.self)
            let first = Subscription("first"), second = Subscription("second")
            harness.track(first, label: "first")
            harness.track(second, label: "second")
            list.add(first)
            list.add(second)
            list.notify { if $0 === first { list.remove(second) } }
            let finding = try #require(harness.analyze().onlyFinding(of: Self.mutation))
            #expect(finding.objects == ["first", "second"])
        }

        // MARK: A handler's own removal, in scenarios

        @Test func aCenterObserverRemovingAllItsRegistrationsInAScenarioIsNoMutation() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout", "handler": [
                      { "remove": { "registry": "center", "observer": "self" } } ] },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Login", "handler": [] },
                  { "op": "post", "registry": "center", "channel": "Logout" }
                ]
                """
            ).report()
            report.expectNone(of: Self.mutation)
        }

        @Test func aCenterHandlerRemovingItselfAndAnotherReportsOnlyTheOther() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout", "handler": [
                      { "remove": { "registry": "center", "observer": "self" } },
                      { "remove": { "registry": "center", "observer": "badge", "site": "Screen.swift:9" } } ] },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "Logout", "handler": [] },
                  { "op": "post", "registry": "center", "channel": "Logout" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.mutation))
            #expect(finding.objects == ["screen", "badge"])
            #expect(finding.site?.description == "Screen.swift:9")
        }

        /// A scenario `subject` models a hand-written list enumerated in place
        /// (`for observer in observers`), where removing even oneself during the
        /// loop is the bug; the live `ObserverList` delivers from a copy instead.
        @Test func aSubjectHandlerRemovingItselfInAScenarioIsStillAMutation() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "once" },
                  { "op": "observe", "registry": "subject", "observer": "once", "handler": [
                      { "remove": { "registry": "subject", "observer": "self", "site": "Once.swift:3" } } ] },
                  { "op": "post", "registry": "subject" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.mutation))
            #expect(finding.objects == ["once"])
        }

        // MARK: An observer dying in a weak list

        @Test(arguments: ListKind.allCases)
        func anObserverDyingInAWeakListIsNoNote(kind: ListKind) {
            let harness = Harness(name: "weak list")
            let list = kind.make(ObserverList<Subscription>.self, harness: harness, hold: .weak, dedupe: true)
            var screen: Subscription? = Subscription("screen")
            harness.track(screen!, label: "screen")
            list.add(screen!)
            list.notify { _ in }
            screen = nil
            list.notify { _ in }
            harness.analyze().expectNone(of: Self.dangling)
        }

        @Test func aWeakRegistrationOnAStrongListIsStillANote() throws {
            let harness = Harness(name: "weak on a strong list")
            let list = harness.observerList(of: Subscription.self, hold: .strong)
            var screen: Subscription? = Subscription("screen")
            harness.track(screen!, label: "screen")
            list.add(screen!, hold: .weak)
            screen = nil
            let finding = try #require(harness.analyze().onlyFinding(of: Self.dangling))
            #expect(finding.objects == ["screen"])
        }

        @Test func aWeakListsTraceReadBackIsNoNoteEither() throws {
            let harness = Harness(name: "weak list trace")
            let list = harness.observerList(of: Subscription.self, hold: .weak)
            var screen: Subscription? = Subscription("screen")
            harness.track(screen!, label: "screen")
            list.add(screen!)
            screen = nil
            list.notify { _ in }
            let data = harness.recording().traceData(name: "weak list")
            let lines = String(decoding: data, as: UTF8.self)
            #expect(lines.contains(#""hold":"weak""#))
            #expect(lines.contains(#""snapshot":true"#))
            let readBack = try Recording.readTrace(data)
            let registry = try #require(readBack.recording.registries.last)
            #expect(registry.declaredHold == Hold.weak)
            #expect(registry.snapshotDelivery)
            readBack.analyze().expectNone(of: Self.dangling)
        }

        @Test func anObserverDyingInAScenariosWeakSubjectIsNoNote() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "store", "observer": "screen", "handler": [] },
                  { "op": "release", "object": "screen" },
                  { "op": "post", "registry": "store" }
                ]
                """, registries: #"{ "store": { "kind": "subject", "hold": "weak" } }"#
            ).report()
            report.expectNone(of: Self.dangling)
        }

        @Test func aWeakObserveOnAScenariosStrongSubjectIsStillANote() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "store", "observer": "screen", "hold": "weak", "handler": [],
                    "site": "Store.swift:4" },
                  { "op": "release", "object": "screen" }
                ]
                """, registries: #"{ "store": { "kind": "subject" } }"#
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.dangling))
            #expect(finding.site?.description == "Store.swift:4")
        }
    }
}

/// Holds a token a handler registered earlier removes.
private final class TokenBox: @unchecked Sendable {
    var token: (any NSObjectProtocol)?
}
