import Foundation
import Testing
@testable import ObserverHarness

extension Rules {
    @Suite struct ValueObjectFilter {
        static let rule = "value-object-filter"
        private let cartChanged = Notification.Name("CartChanged")
        final class Cart {}
        struct CartID: Hashable { let raw: Int }

        @Test func valueObjectFilterFiresAtTheRegistrationThatFiltersOnAString() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let line = #line + 1
            let token = center.addObserver(forName: cartChanged, object: "cart-1", queue: nil) { _ in }
            center.removeObserver(token)
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(finding.site?.line == line)
            #expect(finding.objects == ["\"cart-1\""])
            #expect(finding.channel == "CartChanged")
            #expect(finding.message.contains("\"cart-1\" (String)"), "\(finding.message)")
            #expect(finding.fix?.contains("userInfo") == true)
        }

        @Test func valueObjectFilterFiresAtAPostAndARemovalGivingAStruct() throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let token = center.addObserver(forName: cartChanged, object: nil, queue: nil) { _ in }
            let postLine = #line + 1
            center.post(name: cartChanged, object: CartID(raw: 7))
            let removalLine = #line + 1
            center.removeObserver(token, name: cartChanged, object: CartID(raw: 7))
            center.removeObserver(token)
            let findings = harness.analyze().findings(of: Self.rule)
            #expect(findings.map { $0.site?.line } == [postLine, removalLine])
            #expect(findings.allSatisfy { $0.objects == ["CartID(raw: 7)"] })
        }

        @Test func valueObjectFilterIgnoresAClassInstanceAsObject() {
            let harness = Harness()
            let center = harness.notificationCenter()
            let cart = Cart()
            let token = center.addObserver(forName: cartChanged, object: cart, queue: nil) { _ in }
            center.post(name: cartChanged, object: cart, userInfo: ["id": "cart-1"])
            center.removeObserver(token, name: cartChanged, object: cart)
            harness.analyze().expectNone(of: Self.rule)
        }

        @Test func valueObjectFilterIgnoresAValueSentInUserInfo() {
            let harness = Harness()
            let center = harness.notificationCenter()
            let token = center.addObserver(forName: cartChanged, object: nil, queue: nil) { _ in }
            center.post(name: cartChanged, object: nil, userInfo: ["id": "cart-1"])
            center.removeObserver(token)
            harness.analyze().expectNone(of: Self.rule)
        }

        @Test func valueObjectFilterReportsEachLineOnce() {
            let harness = Harness()
            let center = harness.notificationCenter()
            let token = center.addObserver(forName: nil, object: nil, queue: nil) { _ in }
            for _ in 0..<3 { center.post(name: cartChanged, object: "cart-1") }
            center.removeObserver(token)
            #expect(harness.analyze().findings(of: Self.rule).count == 1)
        }
    }
}
