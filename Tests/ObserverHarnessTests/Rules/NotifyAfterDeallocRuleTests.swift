import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct NotifyAfterDealloc {
        static let rule = "notify-after-dealloc"

        @Test func notifyAfterDeallocFiresWhenUnownedObserverIsNotifiedAfterItDeallocated() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "view" },
                  { "op": "observe", "registry": "subject", "observer": "view", "hold": "unowned", "handler": [],
                    "site": "View.swift:10" },
                  { "op": "release", "object": "view", "site": "Screen.swift:20" },
                  { "op": "post", "registry": "subject", "site": "Model.swift:5" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .error)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["view"], registry: "subject", channel: "", step: 3,
                        site: "View.swift:10"))
        }

        /// A list's `notify` with no channel is told as "a notification", not `""`.
        @Test func aListsUnnamedNotifyReadsAsANotification() throws {
            final class Row {}
            let harness = Harness()
            let list = harness.observerList(of: Row.self, hold: .unowned)
            var row: Row? = Row()
            list.add(row!)
            row = nil
            list.notify { _ in }
            let finding = try #require(harness.analyze().live(Self.rule).first)
            #expect(finding.message.hasPrefix("A notification was delivered to Row#1 after it deallocated"))
            #expect(!finding.message.contains("\"\""))
        }

        @Test func notifyAfterDeallocFiresOnPropertySetAfterKVOObserverDeallocatedAndIsNotAlsoDangling() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "model" },
                  { "op": "create", "object": "view" },
                  { "op": "observe", "registry": "kvo", "observer": "view", "object": "model", "property": "title",
                    "handler": [], "site": "View.swift:10" },
                  { "op": "release", "object": "view", "site": "Screen.swift:20" },
                  { "op": "set", "registry": "kvo", "object": "model", "property": "title", "value": "New",
                    "site": "Model.swift:5" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["view"], registry: "kvo", channel: "title", step: 4,
                        site: "View.swift:10"))
            report.expectNone(of: "dangling-registration")
        }

        @Test func notifyAfterDeallocFiresWhenOwnerCallsUnownedDelegateAfterItDeallocated() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "table" },
                  { "op": "create", "object": "dataSource", "methods": { "numberOfRows": [] } },
                  { "op": "set-delegate", "registry": "slot", "owner": "table", "delegate": "dataSource",
                    "hold": "unowned", "site": "Screen.swift:7" },
                  { "op": "release", "object": "dataSource" },
                  { "op": "call-delegate", "registry": "slot", "owner": "table", "method": "numberOfRows",
                    "site": "Table.swift:30" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["dataSource"], registry: "slot", channel: "numberOfRows",
                        step: 4, site: "Screen.swift:7"))
        }

        @Test func notifyAfterDeallocIgnoresWeakObserverThatDeallocatedBeforeThePost() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "view" },
                  { "op": "observe", "registry": "center", "observer": "view", "channel": "Refresh", "handler": [] },
                  { "op": "release", "object": "view" },
                  { "op": "post", "registry": "center", "channel": "Refresh" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
            #expect(report.findings(of: "dangling-registration").count == 1)
        }

        @Test func notifyAfterDeallocIgnoresUnownedObserverRemovedBeforeItDeallocated() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "model" },
                  { "op": "create", "object": "view" },
                  { "op": "observe", "registry": "kvo", "observer": "view", "object": "model", "property": "title",
                    "handler": [] },
                  { "op": "remove", "registry": "kvo", "observer": "view", "object": "model", "property": "title" },
                  { "op": "release", "object": "view" },
                  { "op": "set", "registry": "kvo", "object": "model", "property": "title", "value": "New" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func notifyAfterDeallocIgnoresWeakDelegateCalledAfterItDeallocated() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "table" },
                  { "op": "create", "object": "dataSource", "methods": { "numberOfRows": [] } },
                  { "op": "set-delegate", "registry": "slot", "owner": "table", "delegate": "dataSource" },
                  { "op": "release", "object": "dataSource" },
                  { "op": "call-delegate", "registry": "slot", "owner": "table", "method": "numberOfRows" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }
    }
}
