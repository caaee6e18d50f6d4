/// SARIF 2.1.0 for code scanning: one run, the rule catalogue as the
/// driver's rules, one result per finding with its call site and a
/// fingerprint that stays stable across runs.
extension ReportSet {
    static let sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"
    static let informationURI = "https://github.com/ObserverHarness/ObserverHarness"

    public func sarifText(toolVersion: String) -> String {
        let catalogue = RuleCatalog.all
        let ruleIndex = Dictionary(uniqueKeysWithValues: catalogue.enumerated().map { ($0.element.id, $0.offset) })
        let rules: [JSONValue] = catalogue.map { rule in
            .object([
                "id": .string(rule.id),
                "shortDescription": .object(["text": .string(rule.summary)]),
                "fullDescription": .object(["text": .string(rule.explanation)]),
                "help": .object(["text": .string(rule.fix)]),
                "defaultConfiguration": .object(["level": .string(rule.severity.rawValue)]),
            ])
        }
        var results: [JSONValue] = []
        for report in reports {
            for finding in report.findings {
                var result = JSONObject()
                result["ruleId"] = .string(finding.rule)
                if let index = ruleIndex[finding.rule] { result["ruleIndex"] = .int(index) }
                result["level"] = .string(finding.severity.rawValue)
                var text = finding.message
                if let fix = finding.fix { text += " Fix: " + fix }
                result["message"] = .object(["text": .string(text)])
                if let site = finding.site {
                    result["locations"] = .array([.object([
                        "physicalLocation": .object([
                            "artifactLocation": .object(["uri": .string(site.file)]),
                            "region": .object(["startLine": .int(max(1, site.line))]),
                        ]),
                    ])])
                }
                result["partialFingerprints"] = .object([
                    "observerHarness/v1": .string(finding.fingerprint(scenario: report.scenario)),
                ])
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
}

extension Finding {
    /// A hash of what identifies the finding across runs (never event numbers):
    /// scenario, rule, registry, channel, objects and site. FNV-1a, 64 bits.
    public func fingerprint(scenario: String) -> String {
        let identity = [scenario, rule, registry ?? "", channel ?? "", objects.joined(separator: ","),
                        site?.description ?? "", message].joined(separator: "\u{1F}")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
