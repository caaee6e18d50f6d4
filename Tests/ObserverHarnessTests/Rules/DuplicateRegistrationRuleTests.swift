import Foundation
import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct DuplicateRegistration {
        static let rule = "duplicate-registration"

        @Test func duplicateRegistrationFiresOnSecondAddForSameChannel() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cartBadge" },
                  { "op": "observe", "registry": "center", "observer": "cartBadge", "channel": "CartChanged",
                    "handler": [ { "increment": "badge.refreshes" } ], "site": "CartBadge.swift:30" },
                  { "op": "observe", "registry": "center", "observer": "cartBadge", "channel": "CartChanged",
                    "handler": [ { "increment": "badge.refreshes" } ], "site": "CartBadge.swift:30" },
                  { "op": "post", "registry": "center", "channel": "CartChanged" }
                ]
                """)
            let finding = try #require(try scenario.report().onlyFinding(of: Self.rule))
            #expect(finding.severity == .error)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["cartBadge"], registry: "center", channel: "CartChanged",
                        step: 2, site: "CartBadge.swift:30"))
            #expect(try scenario.finalState()["badge.refreshes"] == "2")
        }

        @Test func duplicateRegistrationFiresForTheSameObservedPropertyTwice() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "model" },
                  { "op": "create", "object": "label" },
                  { "op": "observe", "registry": "kvo", "observer": "label", "object": "model", "property": "text",
                    "handler": [], "site": "Label.swift:4" },
                  { "op": "observe", "registry": "kvo", "observer": "label", "object": "model", "property": "text",
                    "handler": [], "site": "Label.swift:9" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["label"], registry: "kvo", channel: "text", step: 3,
                        site: "Label.swift:9"))
        }

        @Test func duplicateRegistrationIgnoresTwoInstancesOfOneType() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "bestSellers", "type": "ProductListViewController" },
                  { "op": "create", "object": "recommended", "type": "ProductListViewController" },
                  { "op": "observe", "registry": "center", "observer": "bestSellers", "channel": "CartChanged",
                    "handler": [], "site": "ProductList.swift:30" },
                  { "op": "observe", "registry": "center", "observer": "recommended", "channel": "CartChanged",
                    "handler": [], "site": "ProductList.swift:30" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func duplicateRegistrationNeverFiresInADedupingRegistry() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cartBadge" },
                  { "op": "observe", "registry": "center", "observer": "cartBadge", "channel": "CartChanged",
                    "handler": [ { "increment": "badge.refreshes" } ] },
                  { "op": "observe", "registry": "center", "observer": "cartBadge", "channel": "CartChanged",
                    "handler": [ { "increment": "badge.refreshes" } ] },
                  { "op": "post", "registry": "center", "channel": "CartChanged" }
                ]
                """, registries: #"{ "center": { "kind": "notification-center", "dedupe": true } }"#)
            try scenario.report().expectNone(of: Self.rule)
            #expect(try scenario.finalState()["badge.refreshes"] == "1")
        }

        @Test func duplicateRegistrationIgnoresTheSameChannelFromDifferentSenders() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "left" },
                  { "op": "create", "object": "right" },
                  { "op": "create", "object": "mixer" },
                  { "op": "observe", "registry": "center", "observer": "mixer", "channel": "LevelChanged",
                    "sender": "left", "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "mixer", "channel": "LevelChanged",
                    "sender": "right", "handler": [] }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func duplicateRegistrationIgnoresRegisteringAgainAfterRemoving() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "CartChanged",
                    "handler": [] },
                  { "op": "remove", "registry": "center", "observer": "screen" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "CartChanged",
                    "handler": [] }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        /// One observer registered hundreds of times: past 64 live links the
        /// rule moves the observer to a table by key, and must still name the
        /// earliest registration that is active at each add.
        @Test func manyRegistrationsOfOneObserverEachNameTheEarliestActiveOne() throws {
            final class Screen {}
            let harness = Harness()
            let list = harness.observerList(of: Screen.self)
            let screen = Screen(), other = Screen()
            for round in 0..<2 {
                for index in 0..<150 {
                    list.add(screen, channel: "Tap")
                    // Another key of the same observer, and another observer, in between.
                    if index % 50 == 0 { list.add(screen, channel: "Other\(round)") }
                    if index % 75 == 0 { list.add(other, channel: "Tap") }
                }
                list.remove(screen, channel: "Tap")
                list.remove(other)
            }
            let recording = harness.recording()
            let adds = recording.events.enumerated().filter { $0.element.kind == .add }
            let tapAdds = adds.filter {
                $0.element.object == adds[0].element.object
                    && recording.strings[Int($0.element.channel)] == "Tap"
            }
            // The rule's own findings, before repeats are folded into counts.
            var findings: [Finding] = []
            DuplicateRegistrationRule().check(TraceIndex(recording), into: &findings)
            findings.sort(by: Finding.reportOrder)
            let onTap = findings.filter { $0.channel == "Tap" && $0.objects == findings.first?.objects }
            // Each round: 149 duplicates, each pointing at that round's first add.
            #expect(onTap.count == 298)
            for (index, finding) in onTap.enumerated() {
                let first = index < 149 ? tapAdds[0].offset : tapAdds[150].offset
                #expect(finding.events == [first, tapAdds[index < 149 ? index + 1 : index + 2].offset])
            }
            // Per round, "other" once more on "Tap" and the screen twice more on "OtherN".
            #expect(findings.count == 298 + 2 + 4)

            // The report folds each add site's repeats into one finding.
            let reported = Analyzer.findings(in: recording).filter { $0.rule == Self.rule }
            let tapReported = try #require(reported.first { $0.channel == "Tap" && $0.objects == onTap[0].objects })
            #expect(tapReported.count == 298)
            #expect(
                tapReported.events == [
                    tapAdds[0].offset, tapAdds[1].offset, tapAdds[2].offset, tapAdds[3].offset,
                    tapAdds[4].offset, tapAdds[5].offset, tapAdds[6].offset, tapAdds[7].offset,
                ])
        }

        /// A hand-written trace that adds one registration id again and again
        /// holds one registration (a later add replaces the record): no
        /// duplicate, whether the observer's adds are few (walked as a chain)
        /// or many (kept by key). It once paired the record with itself past 66.
        @Test(arguments: [10, 100, 1_000])
        func oneIdAddedAgainIsNoDuplicateHoweverOften(adds: Int) throws {
            var lines = [
                #"{"format":"observer-harness-trace","version":1,"name":"readd"}"#,
                #"{"string":1,"text":"Name"}"#, #"{"site":1,"file":"App/S.swift","line":1,"column":1}"#,
                #"{"object":1,"type":"Screen"}"#,
                #"{"registry":1,"name":"center","kind":"notification-center"}"#,
                #"{"seq":0,"kind":"track","t":1,"thread":1,"site":1,"object":1}"#,
            ]
            for sequence in 1...adds {
                lines.append(
                    #"{"seq":\#(sequence),"kind":"add","t":\#(sequence + 1),"thread":1,"site":1,"registry":1,"#
                        + #""channel":1,"object":1,"registration":7}"#)
            }
            let trace = try Recording.readTrace(Data((lines.joined(separator: "\n") + "\n").utf8))
            trace.analyze().expectNone(of: Self.rule)
        }

        @Test func identicalRepeatsAreOneFindingWithACount() throws {
            final class Screen {}
            let harness = Harness()
            let list = harness.observerList(of: Screen.self)
            let screen = Screen()
            for _ in 0..<1_000 { list.add(screen, channel: "Tap") }
            let report = harness.analyze()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.count == 999)
            #expect(finding.events.count == FindingAggregator.eventLimit)
            #expect(report.jsonText().contains("\"count\": 999"))
            let readBack = try ReportSet.parse(Array(report.jsonText().utf8), path: "r.json")
            #expect(readBack.reports.first?.findings.first?.count == 999)
        }

        @Test func repeatsAtDifferentSitesStayApart() {
            final class Screen {}
            let harness = Harness()
            let list = harness.observerList(of: Screen.self)
            let screen = Screen()
            list.add(screen, channel: "Tap")
            list.add(screen, channel: "Tap")
            list.add(screen, channel: "Tap")
            let findings = harness.analyze().findings.filter { $0.rule == Self.rule }
            #expect(findings.count == 2)
            #expect(findings.allSatisfy { $0.count == 1 })
            #expect(!harness.analyze().jsonText().contains("\"count\""))
        }
    }
}
