import Testing

@testable import ObserverHarness

/// One example of one rule, as a test argument.
struct RuleExampleCase: Sendable, CustomTestStringConvertible {
    let rule: String
    let triggers: Bool
    let number: Int
    let example: RuleExample

    var testDescription: String { "\(rule) \(triggers ? "triggering" : "clean") example \(number)" }

    /// Every example of every rule in the catalogue.
    static let all: [RuleExampleCase] = RuleCatalog.all.flatMap { descriptor in
        descriptor.triggeringExamples.enumerated().map {
            RuleExampleCase(rule: descriptor.id, triggers: true, number: $0.offset + 1, example: $0.element)
        }
            + descriptor.cleanExamples.enumerated().map {
                RuleExampleCase(rule: descriptor.id, triggers: false, number: $0.offset + 1, example: $0.element)
            }
    }

    /// The example replayed, explored and analysed.
    func report() throws -> Report {
        try Scenario.parse(Array(example.document(name: rule).utf8), path: "\(rule).scenario.json").run()
    }
}

extension Rules {
    /// The examples every rule's descriptor carries: a triggering example
    /// fires that rule and no other, reported at exactly the lines of the
    /// steps its `↓` marks; a clean near miss fires nothing.
    @Suite struct Examples {
        @Test func everyRuleCarriesATriggeringAndACleanExample() {
            for descriptor in RuleCatalog.all where !descriptor.isLiveOnly {
                #expect(!descriptor.triggeringExamples.isEmpty, "\(descriptor.id) has no triggering example")
                #expect(!descriptor.cleanExamples.isEmpty, "\(descriptor.id) has no clean example")
            }
        }

        @Test(arguments: RuleExampleCase.all)
        func ruleExample(_ example: RuleExampleCase) throws {
            let report = try example.report()
            let marked = try #require(example.example.markedSteps(), "a ↓ stands before something other than a step")
            // Where each finding is reported: the step whose line its site names.
            let fired = report.findings.map { finding in
                let step = finding.site.flatMap { example.example.step(reportedAt: $0, name: example.rule) }
                return "\(finding.rule) at step \(step.map(String.init) ?? "–")"
            }
            if example.triggers {
                #expect(!marked.isEmpty, "a triggering example marks the step its finding names")
                #expect(fired == marked.map { "\(example.rule) at step \($0)" })
            } else {
                #expect(marked.isEmpty, "a clean example marks nothing")
                #expect(fired == [])
            }
        }

        @Test func aMarkerBeforeAnythingButATopLevelStepIsRefused() {
            #expect(RuleExample(#"[ { "op": "create", ↓"object": "a" } ]"#).markedSteps() == nil)
            #expect(
                RuleExample(#"[ { "op": "create", "object": "a" }, ↓ { "op": "release", "object": "a" } ]"#)
                    .markedSteps() == [1])
        }
    }
}
