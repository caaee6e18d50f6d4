import Foundation
import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct ChannelNameTypo {
        static let rule = "channel-name-typo"

        @Test func channelNameTypoFiresForAddToCartPostedAndAddToCardObserved() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "cell" },
                  { "op": "observe", "registry": "center", "observer": "cart", "channel": "AddToCard", "handler": [],
                    "site": "Cart.swift:12" },
                  { "op": "post", "registry": "center", "channel": "AddToCart", "sender": "cell",
                    "site": "ProductCell.swift:22" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: [], registry: "center", channel: "AddToCart", step: 3,
                        site: "ProductCell.swift:22"))
            #expect(finding.message.contains("\"AddToCard\""))
        }

        @Test func channelNameTypoFiresAtTheObserverWhenTheRightNameMeetsElsewhere() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "list" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "list", "channel": "ProductDidUpdate",
                    "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "ProductDidUpdte",
                    "handler": [], "site": "Badge.swift:9" },
                  { "op": "post", "registry": "center", "channel": "ProductDidUpdate", "site": "Catalog.swift:30" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: [], registry: "center", channel: "ProductDidUpdte", step: 3,
                        site: "Badge.swift:9"))
            #expect(finding.message.contains("never hears it"))
        }

        @Test func channelNameTypoFiresAtThePostWhenTheRightNameMeetsElsewhere() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "observe", "registry": "center", "observer": "cart", "channel": "AddToCart", "handler": [] },
                  { "op": "post", "registry": "center", "channel": "AddToCart", "site": "ProductCell.swift:22" },
                  { "op": "post", "registry": "center", "channel": "AddToCard", "site": "QuickBuy.swift:8" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: [], registry: "center", channel: "AddToCard", step: 3,
                        site: "QuickBuy.swift:8"))
            report.expectNone(of: "unobserved-post")
        }

        @Test func channelNameTypoIgnoresNamesThatBothMeetElsewhere() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "wishlist" },
                  { "op": "observe", "registry": "center", "observer": "cart", "channel": "AddToCart", "handler": [] },
                  { "op": "observe", "registry": "center", "observer": "wishlist", "channel": "AddToCard",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "AddToCart" },
                  { "op": "post", "registry": "center", "channel": "AddToCard" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        /// The search for typos is bounded; when the bound cuts it, an
        /// `exploration-limit` note says so instead of losing pairs in silence.
        @Test func aTypoSearchCutByItsBudgetSaysSo() {
            let harness = Harness()
            let center = harness.notificationCenter()
            for index in 0..<20 {
                _ = center.addObserver(forName: Notification.Name("Cart.item\(index)Added"), object: nil, queue: nil) {
                    _ in
                }
                center.post(name: Notification.Name("Cart.item\(index)Addde"), object: nil)
            }
            let index = TraceIndex(harness.recording())
            var whole: [Finding] = []
            ChannelNameTypoRule().check(index, into: &whole)
            #expect(!whole.contains { $0.rule == "exploration-limit" })
            var cut: [Finding] = []
            ChannelNameTypoRule(searchBudget: 500).check(index, into: &cut)
            #expect(cut.filter { $0.rule == "exploration-limit" }.count == 1)
            #expect(cut.filter { $0.rule == Self.rule }.count < whole.filter { $0.rule == Self.rule }.count)
        }

        @Test func channelNameTypoIgnoresNamesThatDifferOnlyInDigits() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "panel" },
                  { "op": "observe", "registry": "center", "observer": "panel", "channel": "Slot1Changed",
                    "handler": [] },
                  { "op": "post", "registry": "center", "channel": "Slot2Changed" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func channelNameTypoIgnoresNamesInDifferentRegistries() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "observe", "registry": "center", "observer": "cart", "channel": "AddToCard", "handler": [] },
                  { "op": "post", "registry": "other", "channel": "AddToCart" }
                ]
                """,
                registries: """
                    { "center": { "kind": "notification-center" }, "other": { "kind": "notification-center" } }
                    """
            ).report()
            report.expectNone(of: Self.rule)
        }
    }
}
