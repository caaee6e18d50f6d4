/// SARIF 2.1.0 for code scanning: one run, the rule catalogue as the
/// driver's rules, one result per finding with its call site and a
/// fingerprint that stays stable across runs.
extension ReportSet {
    static let sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"
    static let informationURI = "https://github.com/ObserverHarness/ObserverHarness"

    /// The SARIF log. `locate` maps a finding's site file (`Cart.swift`,
    /// `Module/Cart.swift`) to its path relative to the repository root, or
    /// nil when no such file is there; a scenario finding then points at its
    /// step in the scenario file. `baselineUsed` marks results `new`.
    package func sarifText(
        toolVersion: String, baselineUsed: Bool = false,
        locate: (String) -> String? = { _ in nil }
    ) -> String {
        let catalogue = RuleCatalog.all
        let ruleIndex = Dictionary(uniqueKeysWithValues: catalogue.enumerated().map { ($0.element.id, $0.offset) })
        let rules: [JSONValue] = catalogue.map { rule in
            .object([
                "id": .string(rule.id),
                "name": .string(rule.sarifName),
                "shortDescription": .object(["text": .string(rule.summary)]),
                "fullDescription": .object(["text": .string(rule.explanation)]),
                "help": .object(["text": .string(rule.fix)]),
                "defaultConfiguration": .object(["level": .string(rule.severity.rawValue)]),
            ])
        }
        var results: [JSONValue] = []
        for report in reports {
            let entries =
                report.findings.map { ($0, nil as String?) } + report.suppressed.map { ($0.finding, $0.reason) }
            for (finding, suppression) in entries {
                var result = JSONObject()
                result["ruleId"] = .string(finding.rule)
                if let index = ruleIndex[finding.rule] { result["ruleIndex"] = .int(index) }
                result["level"] = .string(finding.severity.rawValue)
                var text = finding.message
                if let fix = finding.fix { text += " Fix: " + fix }
                result["message"] = .object(["text": .string(text)])
                if let location = Self.location(of: finding, in: report, locate: locate) {
                    result["locations"] = .array([location])
                }
                result["partialFingerprints"] = .object([
                    "observerHarness/v1": .string(finding.fingerprint(scenario: report.scenario))
                ])
                if let suppression {
                    result["suppressions"] = .array([
                        .object([
                            "kind": "external",
                            "justification": .string(suppression),
                        ])
                    ])
                }
                if baselineUsed && suppression == nil { result["baselineState"] = "new" }
                results.append(.object(result))
            }
        }
        let driver: JSONValue = .object([
            "name": "ObserverHarness",
            "version": .string(toolVersion),
            "informationUri": .string(Self.informationURI),
            "rules": .array(rules),
        ])
        let log: JSONValue = .object([
            "$schema": .string(Self.sarifSchema),
            "version": "2.1.0",
            "runs": .array([.object(["tool": .object(["driver": driver]), "results": .array(results)])]),
        ])
        return log.serialized(.canonical) + "\n"
    }

    /// A path as a relative URI reference: every byte but the unreserved
    /// characters and `/` percent-encoded (UTF-8), so `a b#1.swift` or
    /// `100%.swift` names that file, not a fragment or another one.
    static func uriReference(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += byte < 16 ? "%0" + hex : "%" + hex
            }
        }
        return result
    }

    /// Where a result points: the call site when it is a file of the
    /// repository; else the scenario step that led to it; else the site as
    /// the scenario or trace wrote it.
    private static func location(of finding: Finding, in report: Report, locate: (String) -> String?) -> JSONValue? {
        func physical(_ uri: String, _ line: Int) -> JSONValue {
            .object([
                "physicalLocation": .object([
                    "artifactLocation": .object(["uri": .string(uriReference(uri))]),
                    "region": .object(["startLine": .int(max(1, line))]),
                ])
            ])
        }
        if let site = finding.site, let path = locate(site.file) { return physical(path, site.line) }
        if let file = report.file, let line = finding.line { return physical(file, line) }
        if let file = report.file { return physical(file, 1) }
        if let site = finding.site { return physical(site.file, site.line) }
        return nil
    }
}

extension RuleDescriptor {
    /// `duplicate-registration` → `DuplicateRegistration`: SARIF's rule name.
    var sarifName: String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
