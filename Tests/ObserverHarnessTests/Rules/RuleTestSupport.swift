import Testing

@testable import ObserverHarness

/// A scenario written inline in a test: its steps (and, when the test needs
/// options, its registries) as JSON text, wrapped in the format header.
///
/// ```swift
/// let report = try InlineScenario("""
///     [ { "op": "create", "object": "a" } ]
///     """).report()
/// ```
struct InlineScenario {
    /// One registry of each kind, each with its default `hold`:
    /// `center` (notification-center), `subject`, `kvo` (property), `slot` (delegate).
    static let standardRegistries = """
        {
          "center": { "kind": "notification-center" },
          "subject": { "kind": "subject" },
          "kvo": { "kind": "property" },
          "slot": { "kind": "delegate" }
        }
        """

    /// The path errors and default sites name.
    static let path = "Inline.scenario.json"

    let text: String

    init(_ steps: String, registries: String = Self.standardRegistries, name: String = "inline") {
        text = """
            {
              "format": "observer-harness-scenario", "version": 1, "scenario": "\(name)",
              "registries": \(registries),
              "steps": \(steps)
            }
            """
    }

    /// A complete scenario document, header and all.
    init(document: String) {
        text = document
    }

    func parse() throws(InputError) -> Scenario {
        try Scenario.parse(Array(text.utf8), path: Self.path)
    }

    /// Replays, explores and analyses it.
    func report(seed: UInt64 = 0) throws(InputError) -> Report {
        try parse().run(seed: seed)
    }

    /// One replay in registration order with sequential branches.
    func baseline() throws(InputError) -> Replay.Result {
        try Replay(try parse(), schedule: Schedule()).run()
    }

    /// The baseline replay's final shared state, each value as compact JSON.
    func finalState() throws(InputError) -> [String: String] {
        try baseline().outcome.state.mapValues { $0.serialized(.compact) }
    }
}

/// The parts of a finding a precision test pins down, compared as one value
/// so a mismatch prints both sides.
struct FindingShape: Equatable, CustomStringConvertible {
    var objects: [String]
    var registry: String?
    var channel: String?
    var step: Int?
    var site: String?

    init(objects: [String], registry: String? = nil, channel: String? = nil, step: Int? = nil, site: String? = nil) {
        self.objects = objects
        self.registry = registry
        self.channel = channel
        self.step = step
        self.site = site
    }

    var description: String {
        "objects \(objects), registry \(registry ?? "–"), channel \(channel.map { "\"\($0)\"" } ?? "–"), "
            + "step \(step.map(String.init) ?? "–"), site \(site ?? "–")"
    }
}

extension Finding {
    var shape: FindingShape {
        FindingShape(objects: objects, registry: registry, channel: channel, step: step, site: site?.description)
    }
}

extension Report {
    /// This report's findings of one rule, in report order.
    func findings(of rule: String) -> [Finding] { findings.filter { $0.rule == rule } }

    /// The ids of every rule that fired.
    var firedRules: Set<String> { Set(findings.map(\.rule)) }

    /// The only finding of `rule`; records an issue (and returns nil) when
    /// there is none or more than one.
    func onlyFinding(of rule: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Finding? {
        let matching = findings(of: rule)
        guard matching.count == 1 else {
            let all = findings.map { "\($0.rule): \($0.message)" }
            Issue.record(
                "expected exactly one \(rule) finding, got \(matching.count): \(all)",
                sourceLocation: sourceLocation)
            return nil
        }
        return matching[0]
    }

    /// Records an issue for each finding of `rule`, quoting it.
    func expectNone(of rule: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for finding in findings(of: rule) {
            Issue.record("unexpected \(rule): \(finding.message)", sourceLocation: sourceLocation)
        }
    }
}

/// Every rule's precision tests, one nested suite (and one file) per rule of
/// The bug fires with the right objects, channel, step and site; its
/// clean near miss does not.
@Suite enum Rules {}
