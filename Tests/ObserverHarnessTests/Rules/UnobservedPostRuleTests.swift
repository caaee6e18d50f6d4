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
