import Foundation

/// Reads report files back (for `harness-cli merge` and baselines): a single
/// report or a report set, checked field by field, every error at
/// `PATH:LINE:COLUMN`.
extension ReportSet {
    /// The largest report file read (reports of 10^4 scenarios fit easily).
    package static let maxFileBytes = 64 << 20

    package static func load(contentsOf url: URL, path: String? = nil) throws(InputError) -> ReportSet {
        let path = path ?? url.path
        let bytes = try InputFile.read(url, path: path, maxBytes: maxFileBytes, what: "report")
        return try parse(bytes, path: path)
    }

    /// Parses a report (`observer-harness-report`) or a report set.
    package static func parse(_ bytes: [UInt8], path: String) throws(InputError) -> ReportSet {
        let input = try JSONInput(bytes, path: path, limits: .init(maxDepth: 64, maxBytes: maxFileBytes))
        let root = try input.fields(input.root, "a report")
        let format = try root.requiredString("format")
        switch format.value {
        case Report.format:
            return ReportSet(reports: [try ReportReader(input: input).report(input.root)])
        case Report.setFormat:
            try root.checkVersion(Report.formatVersion, of: "report set")
            let reader = ReportReader(input: input)
            var reports: [Report] = []
            for node in try input.array(try root.required("reports"), "\"reports\"") {
                reports.append(try reader.report(node))
            }
            return ReportSet(reports: reports)
        default:
            throw input.error(
                "\"format\" must be \"\(Report.format)\" or \"\(Report.setFormat)\", "
                    + "not \"\(format.value)\"", at: format.offset)
        }
    }
}

/// Reads one report, field by field.
private struct ReportReader {
    let input: JSONInput

    func report(_ node: JSONNode) throws(InputError) -> Report {
        let fields = try input.fields(node, "a report")
        try fields.allowOnly(["format", "version", "scenario", "summary", "findings", "suppressed", "file"])
        try fields.checkFormat(Report.format)
        try fields.checkVersion(Report.formatVersion, of: "report")
        let summary = try input.fields(try fields.required("summary"), "\"summary\"")
        try summary.allowOnly(["events", "replays", "errors", "warnings", "notes", "suppressed", "baselined", "orders"])
        var report = Report(
            scenario: try fields.requiredString("scenario").value,
            eventCount: try input.count(try summary.required("events"), "\"events\""),
            replays: try summary.optionalCount("replays") ?? 1,
            findings: [],
            hiddenByBaseline: try summary.optionalCount("baselined") ?? 0,
            file: try fields.optionalString("file")?.value)
        report.orders = try summary.optionalCount("orders")
        for element in try input.array(try fields.required("findings"), "\"findings\"") {
            report.findings.append(try finding(element).finding)
        }
        if let suppressedNode = fields.node("suppressed") {
            for element in try input.array(suppressedNode, "\"suppressed\"") {
                let (finding, reason) = try self.finding(element)
                guard let reason else {
                    throw input.error("a suppressed finding needs its \"reason\"", at: element.offset)
                }
                report.suppressed.append(SuppressedFinding(finding: finding, reason: reason))
            }
        }
        try checkCounts(summary, against: report)
        return report
    }

    /// A summary's counts, where given, must be what its findings say: a
    /// report edited by hand or cut short must not merge as if it were whole.
    private func checkCounts(_ summary: JSONFields, against report: Report) throws(InputError) {
        let actual = [
            ("errors", report.count(.error)), ("warnings", report.count(.warning)),
            ("notes", report.count(.note)), ("suppressed", report.suppressed.count),
        ]
        for (key, count) in actual {
            guard let node = summary.node(key) else { continue }
            let stated = try input.count(node, "\"\(key)\"")
            guard stated == count else {
                let listed = key == "suppressed" ? "\"suppressed\" has" : "\"findings\" has"
                throw input.error("the summary says \(stated) \(key), but \(listed) \(count)", at: node.offset)
            }
        }
    }

    /// The list of strings at `key` (absent: empty), each one of `what`.
    private func strings(_ node: JSONNode?, key: String, listing what: String) throws(InputError) -> [String] {
        guard let node else { return [] }
        var result: [String] = []
        for element in try input.array(node, "\"\(key)\"") {
            guard case .string(let text) = element.kind else {
                throw input.error("\"\(key)\" must list \(what)", at: element.offset)
            }
            result.append(text)
        }
        return result
    }

    private func finding(_ node: JSONNode) throws(InputError) -> (finding: Finding, reason: String?) {
        let fields = try input.fields(node, "a finding")
        try fields.allowOnly([
            "rule", "severity", "message", "registry", "channel", "objects", "step", "site",
            "events", "fix", "line", "reason", "count", "chain",
        ])
        let severityText = try fields.requiredString("severity")
        guard let severity = Severity(rawValue: severityText.value) else {
            throw input.error(
                "\"severity\" must be error, warning or note, not \"\(severityText.value)\"",
                at: severityText.offset)
        }
        var site: CallSite?
        if let siteNode = fields.node("site") {
            guard case .string(let text) = siteNode.kind, let parsed = CallSite(parsing: text, lowestLine: 0) else {
                throw input.error("\"site\" must be \"FILE:LINE\"", at: siteNode.offset)
            }
            site = parsed
        }
        let objects = try strings(fields.node("objects"), key: "objects", listing: "names")
        var events: [Int] = []
        if let node = fields.node("events") {
            for element in try input.array(node, "\"events\"") {
                events.append(try input.count(element, "an event number"))
            }
        }
        var finding = Finding(
            rule: try fields.requiredString("rule").value, severity: severity,
            message: try fields.requiredString("message").value,
            registry: try fields.optionalString("registry")?.value,
            channel: try fields.optionalString("channel")?.value,
            objects: objects, step: try fields.optionalCount("step"), site: site, events: events,
            fix: try fields.optionalString("fix")?.value)
        finding.line = try fields.optionalCount("line")
        finding.referenceChain = try strings(fields.node("chain"), key: "chain", listing: "links")
        if let count = try fields.optionalCount("count") {
            guard count > 1 else { throw input.error("\"count\" must be more than 1", at: node.offset) }
            finding.count = count
        }
        return (finding, try fields.optionalString("reason")?.value)
    }
}
