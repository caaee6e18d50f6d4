import Foundation
import Testing

@testable import ObserverHarness

extension Live {
    /// What live findings say: values quoted, no empty channel.
    @Suite struct Messages {
        final class Cell {}

        @Test func anAppendedTextValueIsQuoted() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var tokens: [any NSObjectProtocol] = []
            for _ in 0..<2 {
                tokens.append(
                    center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in
                        harness.noteAction(.append("cart.items", value: "phone"))
                    })
            }
            center.post(name: .liveFeedReloaded, object: nil)
            let finding = try #require(harness.analyze().live("broadcast-as-command").first)
            #expect(finding.message.contains(#"append "phone" to "cart.items""#), "\(finding.message)")
            _ = tokens
        }

        @Test func aJSONValueIsShownAsItIs() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var tokens: [any NSObjectProtocol] = []
            for _ in 0..<2 {
                tokens.append(
                    center.addObserver(forName: .liveFeedReloaded, object: nil, queue: nil) { _ in
                        harness.noteAction(.append("cart.ids", value: "42"))
                    })
            }
            center.post(name: .liveFeedReloaded, object: nil)
            let finding = try #require(harness.analyze().live("broadcast-as-command").first)
            #expect(finding.message.contains(#"append 42 to "cart.ids""#), "\(finding.message)")
            _ = tokens
        }

        @Test func aSubjectsDefaultChannelIsNotQuotedAsEmpty() throws {
            let harness = Harness()
            let list = harness.observerList(of: Cell.self)
            let cell = Cell()
            list.add(cell)
            list.add(cell)
            let finding = try #require(harness.analyze().live("duplicate-registration").first)
            #expect(!finding.message.contains(#"for """#), "\(finding.message)")
        }
    }
}
