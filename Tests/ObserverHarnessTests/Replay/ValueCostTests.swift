import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// Work is charged for the bytes of values a replay copies, hashes or
    /// compares; values are compared by fingerprint and quoted cut at 120
    /// characters, so large values cannot make a run or a report unbounded.
    @Suite struct ValueCost {
        @Test func writingAndReadingALargeValueIsChargedByItsSize() throws {
            let big = String(repeating: "x", count: 6_400)
            let scenario = try InlineScenario(
                """
                [
                  { "op": "create", "object": "x", "methods": {
                      "fill": [ { "append": "log", "value": "\(big)" } ], "look": [ { "read": "log" } ] } },
                  { "op": "invoke", "object": "x", "method": "fill" },
                  { "op": "invoke", "object": "x", "method": "look" }
                ]
                """
            ).parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            // 3 steps and 2 effects; the string is 6,402 bytes quoted, the list 6,404.
            #expect(result.work == 5 + 6_402 / 64 + 6_404 / 64)
        }

        /// `receivers` receivers that each append to a list and read all of it, posted `posts` times.
        static func growingList(receivers: Int = 8, posts: Int, payload: String = "1") -> InlineScenario {
            var steps: [String] = []
            for index in 0..<receivers {
                steps.append(#"{ "op": "create", "object": "r\#(index)" }"#)
                steps.append(
                    #"{ "op": "observe", "registry": "center", "observer": "r\#(index)", "channel": "N", "handler": [ { "append": "list", "value": { "payload": "v" } }, { "read": "list" } ] }"#
                )
            }
            steps += Array(
                repeating:
                    #"{ "op": "post", "registry": "center", "channel": "N", "payload": { "v": "\#(payload)" } }"#,
                count: posts)
            return InlineScenario("[" + steps.joined(separator: ",\n") + "]")
        }

        @Test func readsOfAGrowingListReachTheWorkBoundInsteadOfRunningOn() throws {
            // 2,000 posts: 16,000 reads of a list growing to 16,000 entries.
            // Once this took over 12 GB; now the replay stops at its bound and says so.
            let scenario = try Self.growingList(posts: 2_000).parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.limit?.bound == .work)
            #expect(result.count(of: .post) < 2_000)
            #expect(result.findings.contains { $0.rule == "exploration-limit" })
        }

        @Test func aGrowingListWithinTheBoundIsReadInFull() throws {
            let scenario = try Self.growingList(posts: 20).parse()
            let result = try Replay(scenario, schedule: Schedule()).run()
            #expect(result.limit == nil)
            #expect(result.outcome.state["list"]?.arrayValue?.count == 160)
        }

        @Test func messagesQuoteLargeValuesCutAt120Characters() throws {
            // A 20,000-character payload appended over 5 posts; the receivers'
            // order matters (each reads the list), so messages quote values.
            let report = try Self.growingList(receivers: 2, posts: 5, payload: String(repeating: "p", count: 20_000))
                .report()
            let ordering = try #require(report.findings(of: "ordering-dependence").first)
            #expect(ordering.message.count < 1_000)
            #expect(ordering.message.contains(#"["ppp"#))
            #expect(ordering.message.contains("…"))
            for finding in report.findings { #expect(finding.message.count < 1_500, "\(finding.rule)") }
        }

        /// A channel name is the app's, and may be megabytes: messages quote it
        /// cut, and the finding's `channel` keeps it whole.
        @Test func messagesQuoteALongChannelNameCutAt120Characters() throws {
            let name = String(repeating: "C", count: 50_000)
            let scenario = try Scenario.parse(
                Array(
                    """
                    { "format": "observer-harness-scenario", "version": 1, "scenario": "long-name",
                      "registries": { "center": { "kind": "notification-center" } },
                      "steps": [ { "op": "post", "registry": "center", "channel": "\(name)" } ] }
                    """.utf8), path: "long-name.scenario.json")
            let finding = try #require(scenario.run().findings(of: "unobserved-post").first)
            #expect(finding.channel == name)
            #expect(finding.message.count < 400, "\(finding.message.count)")
            #expect(finding.message.contains("\"" + String(repeating: "C", count: 119) + "…\""))
            #expect(cuttingQuotedValues(#"a "short" one"#) == #"a "short" one"#)
            #expect(cuttingQuotedValues("\"" + name) == "\"" + name, "an unclosed quote is left as it is")
        }

        /// A name made of quotes is cut too (cut before it is quoted), and a
        /// long name a message shows unquoted (a file, a label) is cut to 240;
        /// the finding's fields keep them whole.
        @Test func messagesCutNamesHoldingQuotesAndLongUnquotedNames() throws {
            let quotes = String(repeating: "\"", count: 300)
            let file = String(repeating: "F", count: 10_000) + ".swift"
            let scenario = try Scenario.parse(
                Array(
                    """
                    { "format": "observer-harness-scenario", "version": 1, "scenario": "long-names",
                      "registries": { "center": { "kind": "notification-center" } },
                      "steps": [ { "op": "post", "registry": "center", "channel": "\(String(repeating: "\\\"", count: 300))",
                                   "site": "\(file):3" } ] }
                    """.utf8), path: "long-names.scenario.json")
            let finding = try #require(scenario.run().findings(of: "unobserved-post").first)
            #expect(finding.channel == quotes)
            #expect(finding.site?.file == file)
            #expect(finding.message.count < 700, "\(finding.message.count)")
            #expect(finding.message.contains(String(repeating: "F", count: 239) + "…"))
            #expect(cuttingToMessageLimit(String(repeating: "a ", count: 5_000)).count == messageLimit)
        }

        @Test func previewsCutAt120CharactersWithAnEllipsis() {
            let long = ValuePreview.of(.string(String(repeating: "é", count: 20_000)))
            #expect(long.count == 120)
            #expect(long.hasSuffix("…"))
            #expect(ValuePreview.of(.array((0..<1_000).map { .int($0) })).count == 120)
            #expect(ValuePreview.of(.object(["b": .int(1), "a": .string("x")])) == #"{"a":"x","b":1}"#)
            let exactly120 = String(repeating: "y", count: 118)
            #expect(ValuePreview.of(.string(exactly120)) == "\"\(exactly120)\"")
        }

        @Test func fingerprintsAgreeForValuesThatMeanTheSame() {
            #expect(ValueFingerprint(.int(1)).hash == ValueFingerprint(.double(1.0)).hash)
            #expect(
                ValueFingerprint(.object(["a": .int(1), "b": .int(2)])).hash
                    == ValueFingerprint(.object(["b": .int(2), "a": .int(1)])).hash)
            #expect(
                ValueFingerprint(.array([.int(1), .int(2)])).hash
                    != ValueFingerprint(.array([.int(2), .int(1)])).hash)
            #expect(ValueFingerprint(.string("1")).hash != ValueFingerprint(.int(1)).hash)
            #expect(
                ValueFingerprint(.array([.string("ab")])).hash
                    != ValueFingerprint(.array([.string("a"), .string("b")])).hash)
        }

        @Test func outcomesThatDifferOnlyInALongTailAreDifferent() {
            let prefix = String(repeating: "z", count: 500)
            let first = Outcome(state: ["k": .string(prefix + "1")], reads: [:], lifetime: [])
            let other = Outcome(state: ["k": .string(prefix + "2")], reads: [:], lifetime: [])
            let differences = first.differences(from: other)
            #expect(differences.count == 1)
            #expect(differences.first?.first.count == 120)
            #expect(first.matches(Outcome(state: ["k": .string(prefix + "1")], reads: [:], lifetime: [])))
        }
    }
}
