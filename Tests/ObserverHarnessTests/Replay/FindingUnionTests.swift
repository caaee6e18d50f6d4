import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// Every rule applies to every explored replay: a finding only another
    /// delivery order shows is reported once, naming that order.
    @Suite struct FindingsOfEveryOrder {
        /// One post of "Close" to `closer`, which registers `panel` on
        /// "Refresh", and to `cleaner`, which removes that registration. In
        /// registration order the removal is balanced; delivered the other way
        /// round, it matches nothing.
        static func addThenRemove(order: String) -> InlineScenario {
            InlineScenario(
                """
                [
                  { "op": "create", "object": "panel" },
                  { "op": "create", "object": "closer" },
                  { "op": "create", "object": "cleaner" },
                  { "op": "observe", "registry": "center", "observer": "closer", "channel": "Close", "handler": [
                      { "observe": { "registry": "center", "observer": "panel", "channel": "Refresh",
                                     "handler": [] } } ] },
                  { "op": "observe", "registry": "center", "observer": "cleaner", "channel": "Close", "handler": [
                      { "remove": { "registry": "center", "observer": "panel", "channel": "Refresh",
                                    "site": "Cleaner.swift:9" } } ] },
                  { "op": "post", "registry": "center", "channel": "Close" }
                ]
                """, registries: #"{ "center": { "kind": "notification-center", "order": "\#(order)" } }"#)
        }

        /// A channel's single receiver is one fact whatever order the concurrent
        /// posts run in: another interleaving only moves which post is first
        /// (the site the note quotes), and is not a second note.
        @Test func aChannelsSingleReceiverIsOneNoteWhicheverPostAnOrderPutsFirst() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cache" },
                  { "op": "create", "object": "banner" },
                  { "op": "observe", "registry": "center", "observer": "cache", "channel": "Login",
                    "handler": [ { "set": "user", "value": { "payload": "id" } } ] },
                  { "op": "observe", "registry": "center", "observer": "banner", "channel": "Show",
                    "handler": [ { "read": "user" } ] },
                  { "op": "concurrently", "branches": [
                    [ { "op": "post", "registry": "center", "channel": "Login", "payload": { "id": 1 },
                        "site": "A.swift:1" } ],
                    [ { "op": "post", "registry": "center", "channel": "Login", "payload": { "id": 2 },
                        "site": "B.swift:1" } ],
                    [ { "op": "post", "registry": "center", "channel": "Show", "site": "C.swift:1" } ]
                  ] }
                ]
                """, registries: #"{ "center": { "kind": "notification-center" } }"#
            ).report()
            let notes = report.findings(of: "single-receiver-broadcast").filter { $0.channel == "Login" }
            #expect(notes.count == 1, "\(notes.map(\.message))")
            #expect(report.replays > 1, "the other interleaving was explored")
        }

        @Test func aFindingOnlyAnotherDeliveryOrderShowsIsReportedNamingThatOrder() throws {
            let report = try Self.addThenRemove(order: "unspecified").report()
            let finding = try #require(report.onlyFinding(of: "unbalanced-removal"))
            #expect(finding.objects == ["panel"])
            #expect(
                finding.message.hasSuffix(#"Found in the explored order where "Close" delivered to cleaner, closer."#))
        }

        /// The near miss: a registry that promises registration order is never
        /// explored, so the other order is not one the app can see.
        @Test func aRegistryThatPromisesItsOrderShowsOnlyRegistrationOrdersFindings() throws {
            let report = try Self.addThenRemove(order: "registration").report()
            #expect(report.findings(of: "unbalanced-removal").isEmpty)
            #expect(report.replays == 1)
        }

        /// Each order's copy of one finding is one finding: objects compare as
        /// a set, and the registration order's message is kept.
        @Test func aFindingEveryOrderShowsIsReportedOnceWithoutAnOrder() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
                  { "op": "observe", "registry": "center", "observer": "a", "channel": "Add",
                    "handler": [ { "increment": "cart.count" } ] },
                  { "op": "observe", "registry": "center", "observer": "b", "channel": "Add",
                    "handler": [ { "increment": "cart.count" } ] },
                  { "op": "post", "registry": "center", "channel": "Add" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: "broadcast-as-command"))
            #expect(finding.objects == ["a", "b"])
            #expect(!finding.message.contains("explored order"))
        }

        @Test func aFindingOnlyAnotherInterleavingShowsNamesThatInterleaving() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "panel" },
                  { "op": "concurrently", "branches": [
                      [ { "op": "observe", "registry": "center", "observer": "panel", "channel": "Refresh",
                          "handler": [] } ],
                      [ { "op": "remove", "registry": "center", "observer": "panel", "channel": "Refresh" } ] ] }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: "unbalanced-removal"))
            #expect(finding.message.hasSuffix("Found in the explored order where step 1's branches run [2.1 1.1]."))
        }
    }
}
