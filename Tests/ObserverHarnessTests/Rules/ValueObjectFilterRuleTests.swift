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

        // MARK: Scenarios

        @Test func valueObjectFilterFiresForAScenarioSenderValueAtObserveAndPost() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "senderValue": "cart-1", "token": "t", "handler": [ { "increment": "badge.count" } ],
                    "site": "CartBadge.swift:14" },
                  { "op": "post", "registry": "center", "channel": "CartChanged", "senderValue": "cart-1",
                    "site": "Cart.swift:41" },
                  { "op": "remove", "registry": "center", "token": "t" }
                ]
                """
            ).report()
            let findings = report.findings(of: Self.rule)
            #expect(
                findings.map(\.shape) == [
                    FindingShape(
                        objects: ["\"cart-1\""], registry: "center", channel: "CartChanged", step: 1,
                        site: "CartBadge.swift:14"),
                    FindingShape(
                        objects: ["\"cart-1\""], registry: "center", channel: "CartChanged", step: 2,
                        site: "Cart.swift:41"),
                ])
        }

        @Test func valueObjectFilterIgnoresAScenarioSenderObject() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "sender": "cart", "token": "t", "handler": [ { "increment": "badge.count" } ] },
                  { "op": "post", "registry": "center", "channel": "CartChanged", "sender": "cart" },
                  { "op": "remove", "registry": "center", "token": "t" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func scenarioSenderValueMatchesOnlyWhatBoxesToTheSameObject() throws {
            // Whether two equal values box to one object is the platform's:
            // a small integer does on both (a cached or tagged number), as the
            // live differential test checks against Foundation itself.
            let state = try InlineScenario(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "C",
                    "senderValue": "cart-1", "token": "byString", "handler": [ { "increment": "string" } ] },
                  { "op": "post", "registry": "center", "channel": "C", "senderValue": "cart-1" },
                  { "op": "remove", "registry": "center", "token": "byString" },
                  { "op": "post", "registry": "center", "channel": "C" }
                ]
                """
            ).finalState()
            #if canImport(Darwin)
                // A short ASCII string bridges to a tagged-pointer NSString:
                // both boxes are one object, so the filter matches.
                #expect(state["string"] == "1")
            #else
                // Linux boxes a string anew each time: the filter never matches.
                #expect(state["string"] == nil)
            #endif
        }

        /// What the rule's page says Linux matches: the integers -1 through 12
        /// (and booleans) share a box, 13 and 42 do not, on Foundation's own
        /// center and on the drop-in alike.
        #if os(Linux)
            @Test func onLinuxOnlyTheIntegersFromMinusOneThroughTwelveMatch() {
                func matches(_ value: Int, on center: some NotificationCenterProtocol) -> Bool {
                    let name = Notification.Name("ValueFilter.\(value)")
                    let heard = Counter()
                    let token = center.addObserver(forName: name, object: value, queue: nil) { _ in heard.add() }
                    center.post(name: name, object: value)
                    center.removeObserver(token)
                    return heard.value == 1
                }
                let harness = Harness()
                let values = [-2, -1, 0, 12, 13, 42]
                let expected = [false, true, true, true, false, false]
                #expect(values.map { matches($0, on: NotificationCenter()) } == expected)
                #expect(values.map { matches($0, on: harness.notificationCenter()) } == expected)
            }
        #endif

        @Test func senderValueIsRejectedOutsideANotificationCenterOrBesideASender() {
            for (steps, message) in [
                (
                    #"[ { "op": "create", "object": "a" }, { "op": "post", "registry": "subject", "senderValue": 1 } ]"#,
                    "\"senderValue\" belongs to notification-center registries"
                ),
                (
                    #"[ { "op": "create", "object": "a" }, { "op": "post", "registry": "center", "channel": "C", "sender": "a", "senderValue": 1 } ]"#,
                    "give \"sender\" (an object) or \"senderValue\" (a value), not both"
                ),
                (
                    #"[ { "op": "post", "registry": "center", "channel": "C", "senderValue": null } ]"#,
                    "\"senderValue\" must be a value"
                ),
            ] {
                #expect(throws: InputError.self) { try InlineScenario(steps).parse() }
                do {
                    _ = try InlineScenario(steps).parse()
                } catch {
                    #expect(error.description.contains(message), "\(error.description)")
                }
            }
        }
    }
}

/// Counts deliveries from any thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
