import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct DelegateAsBroadcast {
        static let rule = "delegate-as-broadcast"

        /// The app delegate receives `keyboardWillShow` and runs `forwarding`.
        private func appDelegateForwarding(_ forwarding: String) -> InlineScenario {
            InlineScenario(
                """
                [
                  { "op": "create", "object": "keyboard" },
                  { "op": "create", "object": "home", "methods": { "keyboardWillShow": [], "refresh": [] } },
                  { "op": "create", "object": "search", "methods": { "keyboardWillShow": [], "clear": [] } },
                  { "op": "create", "object": "app", "methods": { "keyboardWillShow": \(forwarding) } },
                  { "op": "set-delegate", "registry": "slot", "owner": "keyboard", "delegate": "app" },
                  { "op": "call-delegate", "registry": "slot", "owner": "keyboard", "method": "keyboardWillShow",
                    "site": "Keyboard.swift:3" }
                ]
                """)
        }

        @Test func delegateAsBroadcastFiresWhenTheDelegateInvokesTheSameMethodOnTwoObjects() throws {
            let report = try appDelegateForwarding(
                """
                [ { "invoke": { "object": "home", "method": "keyboardWillShow", "site": "AppDelegate.swift:10" } },
                  { "invoke": { "object": "search", "method": "keyboardWillShow", "site": "AppDelegate.swift:11" } } ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["app", "home", "search"], registry: "slot",
                        channel: "keyboardWillShow", step: 5, site: "AppDelegate.swift:10"))
        }

        @Test func delegateAsBroadcastIgnoresInvokingTwoDifferentMethods() throws {
            let report = try appDelegateForwarding(
                """
                [ { "invoke": { "object": "home", "method": "refresh" } },
                  { "invoke": { "object": "search", "method": "clear" } } ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func delegateAsBroadcastIgnoresInvokingOneObjectTwice() throws {
            let report = try appDelegateForwarding(
                """
                [ { "invoke": { "object": "home", "method": "keyboardWillShow" } },
                  { "invoke": { "object": "home", "method": "keyboardWillShow" } } ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }
    }
}
