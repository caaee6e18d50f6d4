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

        /// Calls through two delegate slots, one of whose delegate was freed
        /// (its weak slot calls no one): one object is called, no broadcast.
        @Test(arguments: [false, true])
        func delegateAsBroadcastCountsOnlyTheDelegatesActuallyCalled(searchReleased: Bool) throws {
            let released = searchReleased ? #"{ "op": "release", "object": "search" },"# : ""
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "keyboard" },
                  { "op": "create", "object": "homeField" },
                  { "op": "create", "object": "searchField" },
                  { "op": "create", "object": "home", "methods": { "keyboardWillShow": [] } },
                  { "op": "create", "object": "search", "methods": { "keyboardWillShow": [] } },
                  { "op": "create", "object": "router", "methods": { "keyboardWillShow": [
                    { "call-delegate": { "registry": "slot", "owner": "homeField", "method": "keyboardWillShow" } },
                    { "call-delegate": { "registry": "slot", "owner": "searchField", "method": "keyboardWillShow" } }
                  ] } },
                  { "op": "set-delegate", "registry": "slot", "owner": "homeField", "delegate": "home" },
                  { "op": "set-delegate", "registry": "slot", "owner": "searchField", "delegate": "search" },
                  \(released)
                  { "op": "set-delegate", "registry": "slot", "owner": "keyboard", "delegate": "router" },
                  { "op": "call-delegate", "registry": "slot", "owner": "keyboard", "method": "keyboardWillShow" }
                ]
                """
            ).report()
            #expect(report.findings.filter { $0.rule == Self.rule }.count == (searchReleased ? 0 : 1))
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
