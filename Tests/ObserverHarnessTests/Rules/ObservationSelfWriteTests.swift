import Testing

@testable import ObserverHarness

extension Rules {
    /// `mutation-during-notify` in its Observation form: an onChange that
    /// writes what it tracks, without observing again.
    @Suite struct ObservationSelfWrite {
        static let rule = "mutation-during-notify"
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        typealias Field = SearchFieldObserver

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func firesWhenOnChangeWritesWhatItTracksAndTheWriteIsLost() throws {
            let harness = Harness()
            let query = SearchQuery()
            let field = Field(query: query, writesWhatItTracks: true)
            withObserverHarness(harness) { field.observe() }
            query.text = " swift "
            // The framework's own behaviour: the change in progress overwrote the write.
            #expect(query.text == " swift ")
            let report = harness.analyze()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.site?.line == Field.observeLine)
            #expect(finding.objects.count == 1)
            #expect(finding.message.contains("overwrites the write"), "\(finding.message)")
            report.expectNone(of: "observation-not-rearmed")
            report.expectNone(of: "notification-cycle")
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func isQuietWhenOnChangeWritesAnotherProperty() {
            let harness = Harness()
            let query = SearchQuery()
            let field = Field(query: query, writesWhatItTracks: false)
            withObserverHarness(harness) { field.observe() }
            query.text = " swift "
            #expect(query.suggestions == ["swift"])
            harness.analyze().expectNone(of: Self.rule)
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func aChangeAfterTheSelfWriteIsStillAMissedChange() throws {
            let harness = Harness()
            let query = SearchQuery()
            let field = Field(query: query, writesWhatItTracks: true)
            withObserverHarness(harness) { field.observe() }
            query.text = "a"
            query.text = "b"
            let report = harness.analyze()
            #expect(report.findings(of: Self.rule).count == 1)
            #expect(report.findings(of: "observation-not-rearmed").count == 1)
        }

        // MARK: Scenarios

        static let registries = #"{ "model": { "kind": "observable" } }"#

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func firesForAScenarioHandlerThatSetsWhatItTracks() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "search" },
                  { "op": "create", "object": "field" },
                  { "op": "observe", "registry": "model", "observer": "field", "object": "search", "property": "query",
                    "handler": [ { "set": { "registry": "model", "object": "search", "property": "query",
                                            "value": "swift", "site": "SearchField.swift:31" } } ],
                    "site": "SearchField.swift:20" },
                  { "op": "set", "registry": "model", "object": "search", "property": "query", "value": " swift " }
                ]
                """, registries: Self.registries
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.step == 3)
            #expect(finding.site?.description == "SearchField.swift:31")
            #expect(finding.objects == ["field"])
            report.expectNone(of: "observation-not-rearmed")
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test func isQuietForAScenarioHandlerThatSetsAnotherProperty() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "search" },
                  { "op": "create", "object": "field" },
                  { "op": "observe", "registry": "model", "observer": "field", "object": "search", "property": "query",
                    "handler": [ { "set": { "registry": "model", "object": "search", "property": "suggestions",
                                            "value": ["swift"] } } ] },
                  { "op": "set", "registry": "model", "object": "search", "property": "query", "value": " swift " }
                ]
                """, registries: Self.registries
            ).report()
            report.expectNone(of: Self.rule)
        }
    }
}
