import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct BroadcastAsCommand {
        static let rule = "broadcast-as-command"

        /// Two product lists observe AddToCart; each runs `effects`.
        private func twoListsRunning(_ bestSellers: String, _ recommended: String) -> InlineScenario {
            InlineScenario(
                """
                [
                  { "op": "create", "object": "bestSellers", "type": "ProductListViewController" },
                  { "op": "create", "object": "recommended", "type": "ProductListViewController" },
                  { "op": "create", "object": "cell", "type": "ProductCell" },
                  { "op": "observe", "registry": "center", "observer": "bestSellers", "channel": "AddToCart",
                    "handler": \(bestSellers), "site": "ProductListViewController.swift:40" },
                  { "op": "observe", "registry": "center", "observer": "recommended", "channel": "AddToCart",
                    "handler": \(recommended), "site": "ProductListViewController.swift:40" },
                  { "op": "post", "registry": "center", "channel": "AddToCart", "sender": "cell",
                    "payload": { "product": "p1" }, "site": "ProductCell.swift:22" }
                ]
                """)
        }

        @Test func broadcastAsCommandFiresWhenTwoReceiversIncrementTheSameKey() throws {
            let report = try twoListsRunning(
                #"[ { "increment": "cart.count" } ]"#,
                #"[ { "increment": "cart.count" } ]"#
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .error)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["bestSellers", "recommended"], registry: "center",
                        channel: "AddToCart", step: 5, site: "ProductCell.swift:22"))
        }

        @Test func broadcastAsCommandFiresWhenTwoReceiversAppendTheSameValueToTheSameKey() throws {
            let report = try twoListsRunning(
                #"[ { "append": "cart.items", "value": { "payload": "product" } } ]"#,
                #"[ { "append": "cart.items", "value": "p1" } ]"#
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["bestSellers", "recommended"], registry: "center",
                        channel: "AddToCart", step: 5, site: "ProductCell.swift:22"))
        }

        /// Blocks registered at one line, each incrementing the count, by one
        /// screen (its tokens) or by two.
        private func blocksFromOneLine(ownedBy owners: [String]) -> InlineScenario {
            var steps = [#"{ "op": "create", "object": "chatList", "type": "ChatListController" }"#]
            steps.append(#"{ "op": "create", "object": "archive", "type": "ChatListController" }"#)
            for (index, owner) in owners.enumerated() {
                steps += [
                    #"{ "op": "create", "object": "block\#(index)" }"#,
                    #"{ "op": "observe", "registry": "center", "observer": "block\#(index)", "channel": "MsgsNoticed", "token": "token\#(index)", "handler": [ { "increment": "chatlist.reloads" } ], "site": "ChatListController.swift:120" }"#,
                    #"{ "op": "retain", "holder": "\#(owner)", "target": "block\#(index)", "tokenOwner": true }"#,
                    #"{ "op": "release", "object": "block\#(index)" }"#,
                ]
            }
            steps.append(
                #"{ "op": "post", "registry": "center", "channel": "MsgsNoticed", "site": "Events.swift:80" }"#)
            return InlineScenario("[" + steps.joined(separator: ",\n") + "]")
        }

        /// One screen that registered its block twice reloads twice per post:
        /// one receiver registered twice, which `duplicate-registration`
        /// reports with its fix, not two receivers given a command.
        @Test func oneScreensBlocksFromOneLineAreOneReceiver() throws {
            let report = try blocksFromOneLine(ownedBy: ["chatList", "chatList"]).report()
            report.expectNone(of: Self.rule)
            #expect(report.findings.map(\.rule).contains("duplicate-registration"))
        }

        /// The near miss: two screens' blocks from the same line are two receivers.
        @Test func twoScreensBlocksFromOneLineAreTwoReceivers() throws {
            let report = try blocksFromOneLine(ownedBy: ["chatList", "archive"]).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.objects == ["block0", "block1"])
            #expect(!report.findings.map(\.rule).contains("duplicate-registration"))
        }

        @Test func broadcastAsCommandIgnoresReceiversWritingDifferentKeys() throws {
            let report = try twoListsRunning(
                #"[ { "increment": "bestSellers.taps" } ]"#,
                #"[ { "set": "recommended.highlight", "value": true } ]"#
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func broadcastAsCommandIgnoresReceiversAppendingDifferentValues() throws {
            let report = try twoListsRunning(
                #"[ { "append": "log", "value": "bestSellers" } ]"#,
                #"[ { "append": "log", "value": "recommended" } ]"#
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func broadcastAsCommandIgnoresReceiversSettingTheSameValue() throws {
            let report = try twoListsRunning(
                #"[ { "set": "cart.dirty", "value": true } ]"#,
                #"[ { "set": "cart.dirty", "value": true } ]"#
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func broadcastAsCommandIgnoresOneReceiverIncrementingTwice() throws {
            let report = try twoListsRunning(
                #"[ { "increment": "cart.count" }, { "increment": "cart.count" } ]"#,
                #"[]"#
            ).report()
            report.expectNone(of: Self.rule)
        }
    }
}
