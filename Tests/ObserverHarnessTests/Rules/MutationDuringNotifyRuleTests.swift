import Foundation
import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct MutationDuringNotify {
        static let rule = "mutation-during-notify"

        @Test func mutationDuringNotifyFiresWhenASubjectHandlerRemovesAnotherObserver() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [
                      { "remove": { "registry": "subject", "observer": "logger", "site": "Coordinator.swift:44" } } ] },
                  { "op": "observe", "registry": "subject", "observer": "logger", "handler": [] },
                  { "op": "post", "registry": "subject", "site": "Session.swift:12" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["coordinator", "logger"], registry: "subject", channel: "",
                        step: 4, site: "Coordinator.swift:44"))
        }

        @Test func mutationDuringNotifyFiresWhenAHandlerAddsAnObserverToTheDeliveringRegistry() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "center", "observer": "coordinator", "channel": "Login", "handler": [
                      { "observe": { "registry": "center", "observer": "logger", "channel": "Login", "handler": [],
                                     "site": "Coordinator.swift:50" } } ] },
                  { "op": "post", "registry": "center", "channel": "Login" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["coordinator", "logger"], registry: "center",
                        channel: "Login", step: 3, site: "Coordinator.swift:50"))
        }

        @Test func mutationDuringNotifyIgnoresAOneShotObserverRemovingItsOwnToken() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "onboarding" },
                  { "op": "observe", "registry": "center", "observer": "onboarding", "channel": "FirstLaunch",
                    "token": "once", "handler": [ { "remove": { "registry": "center", "token": "once" } } ] },
                  { "op": "post", "registry": "center", "channel": "FirstLaunch" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func mutationDuringNotifyIgnoresAHandlerChangingAnotherRegistry() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [
                      { "observe": { "registry": "center", "observer": "logger", "channel": "Login",
                                     "handler": [] } } ] },
                  { "op": "post", "registry": "subject" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func mutationDuringNotifyIgnoresRemovalsOutsideDelivery() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [] },
                  { "op": "observe", "registry": "subject", "observer": "logger", "handler": [] },
                  { "op": "post", "registry": "subject" },
                  { "op": "remove", "registry": "subject", "observer": "logger" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        // A handler drops the last reference to its own observer; the observer's deinit removes it
        // from the list after its delivery but before the next one.
        static func selfReleasingObserver(registry: String, channel: String) -> String {
            """
            [
              { "op": "create", "object": "login", "methods": {
                  "deinit": [ { "remove": { "registry": "\(registry)", "observer": "self", "site": "Store.m:77" } } ] } },
              { "op": "observe", "registry": "\(registry)", "observer": "login", \(channel)"hold": "weak",
                "handler": [ { "release": "login" } ] },
              { "op": "create", "object": "order" },
              { "op": "observe", "registry": "\(registry)", "observer": "order", \(channel)"hold": "weak", "handler": [] },
              { "op": "post", "registry": "\(registry)", \(channel)"site": "Store.m:48" }
            ]
            """
        }

        @Test func mutationDuringNotifyFiresWhenADeinitRemovesFromASubjectBetweenDeliveries() throws {
            let report = try InlineScenario(Self.selfReleasingObserver(registry: "subject", channel: "")).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["login"], registry: "subject", channel: "", step: 4,
                        site: "Store.m:77"))
            #expect(finding.message.contains("between two of its deliveries"))
        }

        @Test func mutationDuringNotifyIgnoresANotificationCenterObserverRemovingItselfInDeinit() throws {
            let report = try InlineScenario(
                Self.selfReleasingObserver(
                    registry: "center",
                    channel: "\"channel\": \"Token\", ")
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func mutationDuringNotifyIgnoresADeinitRemovalAfterTheLastDelivery() throws {
            // The same observer, delivered to last: the loop has nothing left to enumerate. The list
            // promises registration order (in any order, login could come first: the bug again).
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "order" },
                  { "op": "observe", "registry": "subject", "observer": "order", "hold": "weak", "handler": [] },
                  { "op": "create", "object": "login", "methods": {
                      "deinit": [ { "remove": { "registry": "subject", "observer": "self" } } ] } },
                  { "op": "observe", "registry": "subject", "observer": "login", "hold": "weak",
                    "handler": [ { "release": "login" } ] },
                  { "op": "post", "registry": "subject" }
                ]
                """, registries: #"{ "subject": { "kind": "subject", "order": "registration" } }"#
            ).report()
            report.expectNone(of: Self.rule)
        }

        // MARK: A center: only changes that can alter who receives the post in flight

        /// An upload row: the finished handler removes both its tokens. The
        /// progress registration is another channel's (and another sender's).
        static func uploadRow(removing: String, extraFinished: Bool = false) -> String {
            """
            [
              { "op": "create", "object": "row" },
              { "op": "create", "object": "task" },
              { "op": "create", "object": "log" },
              { "op": "observe", "registry": "center", "observer": "row", "channel": "UploadProgress",
                "sender": "task", "token": "progress", "handler": [] },
              { "op": "observe", "registry": "center", "observer": "row", "channel": "UploadFinished",
                "token": "finished", "handler": [
                  { "remove": { "registry": "center", "token": "\(removing)", "site": "UploadRow.swift:30" } },
                  { "remove": { "registry": "center", "token": "finished" } } ] },
              \(extraFinished ? #"{ "op": "observe", "registry": "center", "observer": "log", "channel": "UploadFinished", "token": "later", "handler": [] },"# : "")
              { "op": "post", "registry": "center", "channel": "UploadFinished" }
            ]
            """
        }

        @Test func aCenterHandlerRemovingAnotherChannelsRegistrationIsClean() throws {
            try InlineScenario(Self.uploadRow(removing: "progress")).report().expectNone(of: Self.rule)
        }

        @Test func aCenterHandlerRemovingARegistrationThePostHasNotReachedFires() throws {
            let report = try InlineScenario(Self.uploadRow(removing: "later", extraFinished: true)).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.site?.description == "UploadRow.swift:30")
        }

        @Test func aCenterHandlerAddingARegistrationForAnotherChannelIsClean() throws {
            try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "center", "observer": "coordinator", "channel": "Login", "handler": [
                      { "observe": { "registry": "center", "observer": "logger", "channel": "Logout",
                                     "handler": [] } } ] },
                  { "op": "post", "registry": "center", "channel": "Login" }
                ]
                """
            ).report().expectNone(of: Self.rule)
        }

        /// A subject is a list enumerated in place: removing another
        /// observer is a mutation, whichever the post has reached.
        @Test func aSubjectHandlerRemovingAnObserverAlreadyReachedStillFires() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "logger", "handler": [] },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [
                      { "remove": { "registry": "subject", "observer": "logger" } } ] },
                  { "op": "post", "registry": "subject" }
                ]
                """, registries: #"{ "subject": { "kind": "subject", "order": "registration" } }"#
            ).report()
            #expect(report.findings(of: Self.rule).count == 1)
        }

        @Test func liveARowRemovingItsProgressTokenWhenFinishedIsClean() {
            let harness = Harness()
            let center = harness.notificationCenter()
            let task = NSObject()
            let tokens = Box()
            tokens.other = center.addObserver(forName: .init("UploadProgress"), object: task, queue: nil) { _ in }
            tokens.token = center.addObserver(forName: .init("UploadFinished"), object: nil, queue: nil) {
                [tokens] _ in
                if let progress = tokens.other { center.removeObserver(progress) }
                if let finished = tokens.token { center.removeObserver(finished) }
            }
            center.post(name: .init("UploadFinished"), object: task)
            harness.analyze().expectNone(of: Self.rule)
        }

        @Test func liveAHandlerRemovingALaterObserverOfTheSamePostFires() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let later = Box()
            let removalLine = #line + 2
            let first = center.addObserver(forName: .init("UploadFinished"), object: nil, queue: nil) { [later] _ in
                if let token = later.token { center.removeObserver(token) }
            }
            later.token = center.addObserver(forName: .init("UploadFinished"), object: nil, queue: nil) { _ in }
            center.post(name: .init("UploadFinished"), object: nil)
            center.removeObserver(first)
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.site?.line == removalLine)
            // The center already delivers from a copy: the fix says what the post in flight does.
            #expect(finding.fix?.contains("still reaches the observer removed here on Linux") == true)
            #expect(finding.fix?.contains("enumerate a copy") == false)
        }

        /// An `ObserverList` calls the observers it had when the notify
        /// began: the fix for a removal says the removed one is still
        /// called, not to enumerate a copy, which the list already does.
        @Test func liveAListHandlerCancellingTheOthersIsToldTheyAreStillCalled() throws {
            final class Listener {
                var calls = 0
            }
            let harness = Harness()
            let list = harness.observerList(of: Listener.self, hold: .strong)
            let canceller = Listener(), other = Listener()
            list.add(canceller)
            list.add(other)
            let removalLine = #line + 2
            list.notify { listener in
                if listener === canceller { list.remove(other) }
                listener.calls += 1
            }
            #expect(other.calls == 1)
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.site?.line == removalLine)
            #expect(finding.fix?.contains("the observer removed here still receives this notification") == true)
            #expect(finding.fix?.contains("enumerate a copy") == false)
        }

        /// A scenario `subject` is a hand-written list enumerated in place:
        /// there, enumerating a copy is the fix.
        @Test func aSubjectEnumeratedInPlaceKeepsTheCopyFix() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "coordinator" },
                  { "op": "create", "object": "logger" },
                  { "op": "observe", "registry": "subject", "observer": "coordinator", "handler": [
                      { "remove": { "registry": "subject", "observer": "logger" } } ] },
                  { "op": "observe", "registry": "subject", "observer": "logger", "handler": [] },
                  { "op": "post", "registry": "subject" }
                ]
                """, registries: #"{ "subject": { "kind": "subject", "order": "registration" } }"#
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.fix?.contains("enumerate a copy") == true)
        }

        /// A de-duplicating list ignores a handler's add of an observer it
        /// already holds: nothing changed, nothing to report. Without dedupe
        /// the same add registers a second time, and fires.
        @Test(arguments: [true, false])
        func liveAnAddADedupingListIgnoresChangesNothing(dedupe: Bool) {
            final class Row {}
            let harness = Harness()
            let list = harness.observerList(of: Row.self, hold: .strong, dedupe: dedupe)
            let row = Row()
            list.add(row)
            list.notify { list.add($0) }
            #expect(harness.analyze().findings(of: Self.rule).count == (dedupe ? 0 : 1))
        }

        /// A one-shot property observation invalidating its own token while
        /// it runs: the set delivers from a copy, as a list does.
        @Test func liveAOneShotPropertyObservationEndingItselfIsClean() {
            final class Download {}
            let harness = Harness()
            let progress = harness.observedProperty("progress", of: Download(), initialValue: 0)
            let box = ObservationBox()
            box.observation = progress.observe { [box] _ in box.observation?.invalidate() }
            progress.set(1)
            progress.set(2)
            harness.analyze().expectNone(of: Self.rule)
        }

        final class ObservationBox: @unchecked Sendable {
            var observation: PropertyObservation?
        }

        final class Box: @unchecked Sendable {
            var token: (any NSObjectProtocol)?
            var other: (any NSObjectProtocol)?
        }
    }
}
