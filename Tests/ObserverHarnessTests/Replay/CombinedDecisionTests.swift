import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// Dependences that only two choices made together show, and the
    /// value-aware independence that keeps the search small: each case is
    /// found within 200 replays, at every seed tried.
    @Suite struct CombinedDecisions {
        static let seeds: [UInt64] = [0, 1, 7, 42]

        /// Either post reordered alone gives the same outcome; both reordered
        /// make d read 1 instead of 2 (the near miss reads another key).
        static func twoMaskedPosts(reader: String = "k") -> InlineScenario {
            InlineScenario(
                """
                [
                  { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
                  { "op": "create", "object": "c" }, { "op": "create", "object": "d" },
                  { "op": "observe", "registry": "center", "observer": "a", "channel": "P1",
                    "handler": [ { "set": "k", "value": 1 } ] },
                  { "op": "observe", "registry": "center", "observer": "b", "channel": "P1",
                    "handler": [ { "set": "k", "value": 2 } ] },
                  { "op": "observe", "registry": "center", "observer": "c", "channel": "P2",
                    "handler": [ { "set": "k", "value": 2 } ] },
                  { "op": "observe", "registry": "center", "observer": "d", "channel": "P2",
                    "handler": [ { "read": "\(reader)" } ] },
                  { "op": "post", "registry": "center", "channel": "P1" },
                  { "op": "post", "registry": "center", "channel": "P2" }
                ]
                """, registries: #"{ "center": { "kind": "notification-center" } }"#)
        }

        @Test(arguments: seeds) func twoPostsReorderedTogetherAreFound(seed: UInt64) throws {
            let report = try Self.twoMaskedPosts().report(seed: seed)
            let finding = try #require(report.findings(of: "ordering-dependence").first)
            #expect(report.replays <= 200)
            #expect(finding.message.contains("two orders together"))
            #expect(finding.message.contains(#""P1" delivered to b then a and "P2" delivered to d then c"#))
            #expect(finding.objects == ["a", "b", "c", "d"])
            #expect(finding.step == 8)
        }

        @Test func twoPostsThatDoNotConflictTogetherAreClean() throws {
            let report = try Self.twoMaskedPosts(reader: "m").report()
            #expect(report.findings(of: "ordering-dependence").isEmpty)
        }

        /// A post's order and a `concurrently` step's interleaving that change
        /// the read only together.
        static func postAndInterleaving(reader: String) -> InlineScenario {
            InlineScenario(
                """
                [
                  { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
                  { "op": "create", "object": "x", "methods": {
                      "write": [ { "set": "k", "value": 2 } ], "look": [ { "read": "\(reader)" } ] } },
                  { "op": "observe", "registry": "center", "observer": "a", "channel": "P",
                    "handler": [ { "set": "k", "value": 1 } ] },
                  { "op": "observe", "registry": "center", "observer": "b", "channel": "P",
                    "handler": [ { "set": "k", "value": 2 } ] },
                  { "op": "post", "registry": "center", "channel": "P" },
                  { "op": "concurrently", "branches": [
                      [ { "op": "invoke", "object": "x", "method": "write" } ],
                      [ { "op": "invoke", "object": "x", "method": "look" } ] ] }
                ]
                """, registries: #"{ "center": { "kind": "notification-center" } }"#)
        }

        @Test(arguments: seeds) func aPostAndAnInterleavingTogetherAreFound(seed: UInt64) throws {
            let report = try Self.postAndInterleaving(reader: "k").report(seed: seed)
            let finding = try #require(report.findings(of: "ordering-dependence").first)
            #expect(report.replays <= 200)
            #expect(finding.message.contains(#""P" delivered to b then a and step 6's branches run [2.1 1.1]"#))
        }

        @Test func aPostAndAnInterleavingThatTouchOtherKeysAreClean() throws {
            let report = try Self.postAndInterleaving(reader: "other").report()
            #expect(report.findings(of: "ordering-dependence").isEmpty)
        }

        /// `channels` channels with `receivers` one-shot receivers each (a
        /// receiver removes its own registration when notified); on the last
        /// channel the first receiver writes "k" and the second reads it
        /// (or reads "other" in the near miss).
        static func oneShots(channels: Int, receivers: Int, reader: String = "k") -> InlineScenario {
            var steps: [String] = []
            for channel in 0..<channels {
                for receiver in 0..<receivers {
                    let name = "r\(channel)_\(receiver)"
                    var effects = [
                        #"{ "remove": { "registry": "center", "observer": "self", "channel": "C\#(channel)" } }"#
                    ]
                    if channel == channels - 1 && receiver == 0 { effects.append(#"{ "set": "k", "value": 1 }"#) }
                    if channel == channels - 1 && receiver == 1 { effects.append(#"{ "read": "\#(reader)" }"#) }
                    steps.append(#"{ "op": "create", "object": "\#(name)" }"#)
                    steps.append(
                        #"{ "op": "observe", "registry": "center", "observer": "\#(name)", "channel": "C\#(channel)", "handler": [ \#(effects.joined(separator: ", ")) ] }"#
                    )
                }
            }
            for channel in 0..<channels {
                steps.append(#"{ "op": "post", "registry": "center", "channel": "C\#(channel)" }"#)
            }
            return InlineScenario(
                "[\n" + steps.joined(separator: ",\n") + "\n]",
                registries: #"{ "center": { "kind": "notification-center" } }"#)
        }

        @Test(arguments: seeds) func oneShotReceiversCommuteSoTheRealPairIsFoundFast(seed: UInt64) throws {
            let report = try Self.oneShots(channels: 8, receivers: 6).report(seed: seed)
            #expect(report.findings(of: "ordering-dependence").map(\.objects) == [["r7_0", "r7_1"]])
            #expect(report.replays <= 200)
        }

        @Test func oneShotReceiversAloneCostOneReplayPerPost() throws {
            // No write/read pair: every receiver only removes itself, which commutes.
            let report = try Self.oneShots(channels: 8, receivers: 6, reader: "other").report()
            #expect(report.findings(of: "ordering-dependence").isEmpty)
            #expect(report.replays == 1 + 8)
            #expect(report.orders == Int.max)  // 720⁸ orders
        }

        @Test func aSubjectsOwnRemovalDoesNotCommute() throws {
            // A subject iterates its list in place: removing oneself changes
            // who else is notified, so those receivers stay in the search.
            let scenario = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
                  { "op": "observe", "registry": "list", "observer": "a",
                    "handler": [ { "remove": { "registry": "list", "observer": "self" } } ] },
                  { "op": "observe", "registry": "list", "observer": "b",
                    "handler": [ { "remove": { "registry": "list", "observer": "self" } } ] },
                  { "op": "post", "registry": "list" }
                ]
                """, registries: #"{ "list": { "kind": "subject" } }"#
            ).parse()
            let baseline = try Replay(scenario, schedule: Schedule()).run()
            let footprints = Footprints(recording: baseline.recording, decisions: baseline.decisions)
            #expect(footprints.conflictingReceivers(of: 0) == [0, 1])
        }

        @Test func receiversWritingTheSameValueCommute() throws {
            // Twelve receivers each set "k" to 2: no order can change anything.
            var steps: [String] = []
            for index in 0..<12 {
                steps.append(#"{ "op": "create", "object": "r\#(index)" }"#)
                steps.append(
                    #"{ "op": "observe", "registry": "center", "observer": "r\#(index)", "channel": "N", "handler": [ { "set": "k", "value": 2 }, { "append": "log", "value": "x" } ] }"#
                )
            }
            steps.append(#"{ "op": "post", "registry": "center", "channel": "N" }"#)
            let scenario = try InlineScenario("[" + steps.joined(separator: ",\n") + "]").parse()
            let baseline = try Replay(scenario, schedule: Schedule()).run()
            let footprints = Footprints(recording: baseline.recording, decisions: baseline.decisions)
            #expect(footprints.conflictingReceivers(of: 0).isEmpty)
            #expect(try scenario.run().replays == 2)
        }

        @Test func receiversWritingDifferentValuesConflict() throws {
            let scenario = try InlineScenario(
                """
                [
                  { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
                  { "op": "create", "object": "c" },
                  { "op": "observe", "registry": "center", "observer": "a", "channel": "N",
                    "handler": [ { "set": "k", "value": 2 } ] },
                  { "op": "observe", "registry": "center", "observer": "b", "channel": "N",
                    "handler": [ { "set": "k", "value": 2 } ] },
                  { "op": "observe", "registry": "center", "observer": "c", "channel": "N",
                    "handler": [ { "set": "k", "value": 3 } ] },
                  { "op": "post", "registry": "center", "channel": "N" }
                ]
                """
            ).parse()
            let baseline = try Replay(scenario, schedule: Schedule()).run()
            let footprints = Footprints(recording: baseline.recording, decisions: baseline.decisions)
            #expect(footprints.conflictingReceivers(of: 0) == [0, 1, 2])
        }

        @Test func aDependenceOnAChannelPostedLateIsReached() throws {
            // 40 earlier posts, each to 7 receivers whose footprints conflict
            // but whose order changes nothing (each sets "early" to 5, then 0):
            // 5,040 orders each. The search reverses every conflicting post
            // before it tries more orders of any, so the late pair is reached
            // within a budget of about 60 replays.
            var steps: [String] = []
            for index in 0..<7 {
                steps.append(#"{ "op": "create", "object": "e\#(index)" }"#)
                steps.append(
                    #"{ "op": "observe", "registry": "center", "observer": "e\#(index)", "channel": "Early", "handler": [ { "set": "early", "value": 5 }, { "set": "early", "value": 0 } ] }"#
                )
            }
            steps += Array(repeating: #"{ "op": "post", "registry": "center", "channel": "Early" }"#, count: 40)
            steps += [
                #"{ "op": "create", "object": "w" }"#, #"{ "op": "create", "object": "r" }"#,
                #"{ "op": "observe", "registry": "center", "observer": "w", "channel": "Late", "handler": [ { "set": "k", "value": 1 } ] }"#,
                #"{ "op": "observe", "registry": "center", "observer": "r", "channel": "Late", "handler": [ { "read": "k" } ] }"#,
                #"{ "op": "post", "registry": "center", "channel": "Late" }"#,
            ]
            let scenario = try InlineScenario("[" + steps.joined(separator: ",\n") + "]").parse()
            let oneReplay = try Replay(scenario, schedule: Schedule()).run().work
            var explorer = Explorer(scenario: scenario, seed: 0)
            explorer.workLimit = 60 * oneReplay
            let report = try explorer.run()
            #expect(report.findings(of: "ordering-dependence").map(\.objects) == [["w", "r"]])
            #expect(report.replays <= 61)
            // The budget ran out in the orders of "Early", which the report says.
            let note = try #require(report.findings(of: "exploration-limit").first)
            #expect(note.message.contains("not explored were orders of \"Early\""))
        }
    }
}
