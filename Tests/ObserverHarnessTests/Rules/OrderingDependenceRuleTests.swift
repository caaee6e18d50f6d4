import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct OrderingDependenceRule {
        static let rule = "ordering-dependence"

        @Test func orderingDependenceFiresWithExactlyTheWriterAndTheReaderOfOneKey() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "session" },
                  { "op": "create", "object": "analytics" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "session", "channel": "Login",
                    "handler": [ { "set": "user.id", "value": { "payload": "id" } } ] },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "Login",
                    "handler": [ { "increment": "badge.logins" } ] },
                  { "op": "observe", "registry": "center", "observer": "analytics", "channel": "Login",
                    "handler": [ { "read": "user.id" } ] },
                  { "op": "post", "registry": "center", "channel": "Login", "payload": { "id": 42 },
                    "site": "LoginService.swift:80" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .error)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["session", "analytics"], registry: "center",
                        channel: "Login", step: 6, site: "LoginService.swift:80"))
        }

        @Test func orderingDependenceFiresForAReaderBetweenTwoWritersOfTheSameValue() throws {
            // Registration order and its reverse both put the reader after a
            // writer, so they agree; only an order with the reader first differs.
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "primary" },
                  { "op": "create", "object": "reader" },
                  { "op": "create", "object": "mirror" },
                  { "op": "observe", "registry": "center", "observer": "primary", "channel": "Sync",
                    "handler": [ { "set": "sync.state", "value": "done" } ] },
                  { "op": "observe", "registry": "center", "observer": "reader", "channel": "Sync",
                    "handler": [ { "read": "sync.state" } ] },
                  { "op": "observe", "registry": "center", "observer": "mirror", "channel": "Sync",
                    "handler": [ { "set": "sync.state", "value": "done" } ] },
                  { "op": "post", "registry": "center", "channel": "Sync", "site": "SyncEngine.swift:12" }
                ]
                """)
            let parsed = try scenario.parse()
            let identity = try Replay(parsed, schedule: Schedule()).run().outcome
            let reversed = try Replay(parsed, schedule: Schedule(permutations: [0: [2, 1, 0]])).run().outcome
            #expect(identity.matches(reversed))

            let report = try scenario.report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["primary", "reader"], registry: "center", channel: "Sync",
                        step: 6, site: "SyncEngine.swift:12"))
            #expect(report.replays > 2)
        }

        /// A key only another order uses both as a list and as a non-list is
        /// that order's outcome, not an invalid scenario.
        @Test(arguments: [
            // Delivery order: a removes b before b can append, unless b runs first.
            """
            [
              { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
              { "op": "observe", "registry": "center", "observer": "a", "channel": "X",
                "handler": [ { "remove": { "registry": "center", "observer": "b" } }, { "increment": "k" } ] },
              { "op": "observe", "registry": "center", "observer": "b", "channel": "X",
                "handler": [ { "append": "k", "value": 1 } ] },
              { "op": "post", "registry": "center", "channel": "X" }
            ]
            """,
            // Interleaving: the second branch's post reaches a only before the first removes it.
            """
            [
              { "op": "create", "object": "a", "methods": { "count": [ { "increment": "k" } ] } },
              { "op": "observe", "registry": "center", "observer": "a", "channel": "Y",
                "handler": [ { "append": "k", "value": 1 } ] },
              { "op": "concurrently", "branches": [
                [ { "op": "remove", "registry": "center", "observer": "a" } ],
                [ { "op": "post", "registry": "center", "channel": "Y" } ] ] },
              { "op": "invoke", "object": "a", "method": "count" }
            ]
            """,
        ])
        func orderingDependenceFiresWhenOnlyAnExploredOrderUsesAKeyAsAListAndNot(steps: String) throws {
            let report = try InlineScenario(steps).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.message.contains("\"k\""))
            #expect(finding.message.contains("an error ("))
        }

        @Test func orderingDependenceIgnoresReceiversThatOnlyIncrementOneCounter() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a" },
                  { "op": "create", "object": "b" },
                  { "op": "create", "object": "c" },
                  { "op": "observe", "registry": "subject", "observer": "a", "handler": [ { "increment": "ticks" } ] },
                  { "op": "observe", "registry": "subject", "observer": "b", "handler": [ { "increment": "ticks" } ] },
                  { "op": "observe", "registry": "subject", "observer": "c", "handler": [ { "increment": "ticks" } ] },
                  { "op": "post", "registry": "subject" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func orderingDependenceIgnoresARegistryThatPromisesRegistrationOrder() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "session" },
                  { "op": "create", "object": "analytics" },
                  { "op": "observe", "registry": "list", "observer": "session",
                    "handler": [ { "set": "user.id", "value": 42 } ] },
                  { "op": "observe", "registry": "list", "observer": "analytics", "handler": [ { "read": "user.id" } ] },
                  { "op": "post", "registry": "list" }
                ]
                """, registries: #"{ "list": { "kind": "subject", "order": "registration" } }"#
            ).report()
            report.expectNone(of: Self.rule)
            #expect(report.replays == 1)
        }

        @Test func orderingDependenceFiresForConcurrentBranchesThatWriteAndReadOneKey() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "saver", "methods": { "save": [ { "set": "draft", "value": "saved" } ] } },
                  { "op": "create", "object": "preview", "methods": { "render": [ { "read": "draft" } ] } },
                  { "op": "concurrently", "site": "Editor.swift:100", "branches": [
                      [ { "op": "invoke", "object": "saver", "method": "save" } ],
                      [ { "op": "invoke", "object": "preview", "method": "render" } ] ] }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.step == 2)
            #expect(finding.site?.description == "Editor.swift:100")
        }

        @Test func orderingDependenceIgnoresConcurrentBranchesThatTouchDifferentKeys() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "saver", "methods": { "save": [ { "set": "draft", "value": "saved" } ] } },
                  { "op": "create", "object": "preview", "methods": { "render": [ { "read": "theme" } ] } },
                  { "op": "concurrently", "branches": [
                      [ { "op": "invoke", "object": "saver", "method": "save" } ],
                      [ { "op": "invoke", "object": "preview", "method": "render" } ] ] }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }
    }
}
