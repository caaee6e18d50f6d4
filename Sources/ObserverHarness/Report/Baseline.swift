import Foundation

/// Findings a team already knows about, by fingerprint: with a baseline, a
/// run reports only what is new (`harness-cli run --baseline FILE`).
///
/// ```json
/// { "format": "observer-harness-baseline", "version": 1,
///   "findings": [ { "fingerprint": "…", "rule": "…", "scenario": "…", "message": "…" } ] }
/// ```
/// The rule, scenario and message are there for the reviewer of the file;
/// only the fingerprint is compared.
package struct Baseline: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package var fingerprint: String
        package var scenario: String
        package var rule: String
        package var message: String
    }

    static let format = "observer-harness-baseline"
    static let formatVersion = 1

    /// Sorted by scenario, rule and fingerprint; one entry per fingerprint.
    package private(set) var entries: [Entry]
    private var fingerprints: Set<String>

    /// The baseline of everything the reports found (suppressed findings are
    /// already accounted for and stay out).
    package init(_ reports: ReportSet) {
        var entries: [String: Entry] = [:]
        for report in reports.reports {
            for finding in report.findings {
                let fingerprint = finding.fingerprint(scenario: report.scenario)
                entries[fingerprint] =
                    entries[fingerprint]
                    ?? Entry(
                        fingerprint: fingerprint, scenario: report.scenario, rule: finding.rule,
                        message: finding.message)
            }
        }
        self.init(entries: Array(entries.values))
    }

    init(entries: [Entry]) {
        self.entries = entries.sorted {
            ($0.scenario, $0.rule, $0.fingerprint) < ($1.scenario, $1.rule, $1.fingerprint)
        }
        fingerprints = Set(entries.map(\.fingerprint))
    }

    package func contains(_ finding: Finding, scenario: String) -> Bool {
        fingerprints.contains(finding.fingerprint(scenario: scenario))
    }

    package func jsonText() -> String {
        let list: [JSONValue] = entries.map { entry in
            .object([
                "fingerprint": .string(entry.fingerprint), "scenario": .string(entry.scenario),
                "rule": .string(entry.rule), "message": .string(entry.message),
            ])
        }
        let document: JSONValue = .object([
            "format": .string(Self.format), "version": .int(Self.formatVersion),
            "findings": .array(list),
        ])
        return document.serialized(.canonical) + "\n"
    }

    package static func load(contentsOf url: URL, path: String? = nil) throws(InputError) -> Baseline {
        let path = path ?? url.path
        return try parse(
            try InputFile.read(url, path: path, maxBytes: ReportSet.maxFileBytes, what: "baseline"), path: path)
    }

    package static func parse(_ bytes: [UInt8], path: String) throws(InputError) -> Baseline {
        let input = try JSONInput(bytes, path: path, limits: .init(maxDepth: 64, maxBytes: ReportSet.maxFileBytes))
        let root = try input.fields(input.root, "a baseline")
        try root.allowOnly(["format", "version", "findings"])
        try root.checkFormat(Self.format)
        try root.checkVersion(Self.formatVersion, of: "baseline")
        var entries: [Entry] = []
        for node in try input.array(try root.required("findings"), "\"findings\"") {
            let entry = try input.fields(node, "a baseline entry")
            try entry.allowOnly(["fingerprint", "scenario", "rule", "message"])
            let fingerprint = try entry.requiredString("fingerprint")
            guard fingerprint.value.count == 16, fingerprint.value.allSatisfy(\.isHexDigit) else {
                throw input.error("\"fingerprint\" must be 16 hexadecimal digits", at: fingerprint.offset)
            }
            entries.append(
                Entry(
                    fingerprint: fingerprint.value,
                    scenario: try entry.optionalString("scenario")?.value ?? "",
                    rule: try entry.optionalString("rule")?.value ?? "",
                    message: try entry.optionalString("message")?.value ?? ""))
        }
        return Baseline(entries: entries)
    }
}

extension ReportSet {
    /// The reports without the findings `baseline` knows; each report counts
    /// what it hid, so nothing disappears without a trace.
    package func applying(_ baseline: Baseline) -> ReportSet {
        ReportSet(
            reports: reports.map { report in
                var report = report
                let before = report.findings.count
                report.findings.removeAll { baseline.contains($0, scenario: report.scenario) }
                report.hiddenByBaseline += before - report.findings.count
                return report
            })
    }
}

extension Finding {
    /// What identifies the finding across runs, hashed (FNV-1a, 64 bits):
    /// scenario, rule, registry, channel, objects, the site's file and the
    /// message — with line numbers taken out, so an edit that only moves code
    /// keeps the fingerprint, and never event numbers.
    package func fingerprint(scenario: String) -> String {
        let identity = [
            scenario, rule, registry ?? "", channel ?? "", objects.joined(separator: ","),
            site?.file ?? "", message,
        ].map(Self.withoutLineNumbers).joined(separator: "\u{1F}")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `Cart.swift:12` → `Cart.swift` (and `:LINE:COLUMN`): a colon and digits
    /// right after a letter are a line number.
    static func withoutLineNumbers(_ text: String) -> String {
        var result = ""
        var scalars = text.unicodeScalars[...]
        var previous: Unicode.Scalar?
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            if scalar == ":", let before = previous, before.properties.isAlphabetic,
                let next = scalars.first, ("0"..."9").contains(next)
            {
                // Skip the line, and a column after it.
                while let next = scalars.first, ("0"..."9").contains(next) || next == ":" {
                    scalars = scalars.dropFirst()
                }
                continue
            }
            result.unicodeScalars.append(scalar)
            previous = scalar
        }
        return result
    }
}
