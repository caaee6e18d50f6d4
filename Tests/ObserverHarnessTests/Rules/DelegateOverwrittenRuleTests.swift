import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct DelegateOverwritten {
        static let rule = "delegate-overwritten"

        @Test func delegateOverwrittenFiresWhenALiveDelegateIsReplaced() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "locationManager" },
                  { "op": "create", "object": "mapScreen" },
                  { "op": "create", "object": "weatherScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen",
                    "site": "MapScreen.swift:14" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "weatherScreen",
                    "site": "WeatherScreen.swift:21" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .warning)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["locationManager", "mapScreen", "weatherScreen"],
                        registry: "slot", channel: nil, step: 4,
                        site: "WeatherScreen.swift:21"))
        }

        @Test func delegateOverwrittenIgnoresReplacingADelegateThatWasSetToNil() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "locationManager" },
                  { "op": "create", "object": "mapScreen" },
                  { "op": "create", "object": "weatherScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": null },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "weatherScreen" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func delegateOverwrittenIgnoresReplacingADelegateThatDeallocated() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "locationManager" },
                  { "op": "create", "object": "mapScreen" },
                  { "op": "create", "object": "weatherScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen" },
                  { "op": "release", "object": "mapScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "weatherScreen" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func delegateOverwrittenIgnoresSettingTheSameDelegateAgain() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "locationManager" },
                  { "op": "create", "object": "mapScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen" },
                  { "op": "set-delegate", "registry": "slot", "owner": "locationManager", "delegate": "mapScreen" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }
    }
}
