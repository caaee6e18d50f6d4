import Foundation
import ObserverHarnessInterface
import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct UnobservedPost {
        static let rule = "unobserved-post"

        @Test func unobservedPostNotesAPostWithNoObservers() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "uploader" },
                  { "op": "post", "registry": "center", "channel": "UploadFinished", "sender": "uploader",
                    "site": "Uploader.swift:88" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .note)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: [], registry: "center", channel: "UploadFinished", step: 1,
                        site: "Uploader.swift:88"))
        }

        @Test func unobservedPostNotesOnlyThePostsMadeBeforeTheObserverRegistered() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "gallery" },
                  { "op": "post", "registry": "center", "channel": "UploadFinished", "site": "Uploader.swift:88" },
                  { "op": "observe", "registry": "center", "observer": "gallery", "channel": "UploadFinished",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "UploadFinished", "site": "Uploader.swift:95" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: [], registry: "center", channel: "UploadFinished", step: 1,
                        site: "Uploader.swift:88"))
            #expect(finding.events.count == 1)
        }

        /// Unheard posts of one name from three lines: a note at each line,
        /// as repeats fold only with their site; each lists its first posts.
        @Test func unobservedPostNotesEachLineThatPostedUnheard() throws {
            var steps = [
                #"{ "op": "post", "registry": "center", "channel": "Ping", "site": "A.swift:1" }"#,
                #"{ "op": "post", "registry": "center", "channel": "Ping", "site": "B.swift:2" }"#,
            ]
            steps += Array(
                repeating: #"{ "op": "post", "registry": "center", "channel": "Ping", "site": "C.swift:3" }"#, count: 20
            )
            let report = try InlineScenario("[" + steps.joined(separator: ",\n") + "]").report()
            let findings = report.findings.filter { $0.rule == Self.rule }
            #expect(findings.map { $0.site?.description } == ["A.swift:1", "B.swift:2", "C.swift:3"])
            #expect(findings.map(\.events.count) == [1, 1, FindingAggregator.eventLimit])
            #expect(findings.last?.message.contains("20 of those posts at C.swift:3") == true)
        }

        @Test func unobservedPostIgnoresAPostAfterAnObserverRegistered() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "gallery" },
                  { "op": "observe", "registry": "center", "observer": "gallery", "channel": "UploadFinished",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "UploadFinished" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        /// A post through `Observers.center` also goes to registrations the test
        /// cannot see (Foundation's own, a finished test's): the note says "of
        /// this test". A center the test made itself holds every registration.
        @Test(arguments: [true, false])
        func aLivePostThroughTheRoutedCenterIsUnheardOnlyByThisTestsRegistrations(routed: Bool) throws {
            let harness = Harness()
            let name = Notification.Name("UnobservedPostRuleTests.unheard")
            if routed {
                withObserverHarness(harness) { Observers.center.post(name: name, object: nil) }
            } else {
                harness.notificationCenter().post(name: name, object: nil)
            }
            let note = try #require(harness.analyze().findings.first { $0.rule == "unobserved-post" })
            #expect(note.message.contains("no registration of this test") == routed, "\(note.message)")
        }

        @Test func unobservedPostLeavesATypoToChannelNameTypo() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "observe", "registry": "center", "observer": "cart", "channel": "AddToCard", "handler": [] },
                  { "op": "post", "registry": "center", "channel": "AddToCart" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
            #expect(report.firedRules == ["channel-name-typo"])
        }
    }
}
