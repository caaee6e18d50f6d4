import Foundation

/// Reads report files back (for `harness-cli merge` and baselines): a single
/// report or a report set, checked field by field, every error at
/// `PATH:LINE:COLUMN`.
extension ReportSet {
    /// The largest report file read (reports of 10^4 scenarios fit easily).
    public static let maxFileBytes = 64 << 20

    public static func load(contentsOf url: URL, path: String? = nil) throws(InputError) -> ReportSet {
        let path = path ?? url.path
        let bytes = try InputFile.read(url, path: path, maxBytes: maxFileBytes, what: "report")
        return try parse(bytes, path: path)
    }

    /// Parses a report (`observer-harness-report`) or a report set.
    public static func parse(_ bytes: [UInt8], path: String) throws(InputError) -> ReportSet {
        let document = try JSONDocument(bytes, path: path, maxBytes: maxFileBytes)
        let root = try document.object(document.root, "a report")
        let format = try document.string(root, "format", in: document.root)
        switch format.value {
        case Report.format:
            return ReportSet(reports: [try document.report(document.root)])
        case Report.setFormat:
            try document.checkVersion(root, in: document.root, supported: Report.formatVersion, of: "report set")
            let list = try document.array(try document.required(root, "reports", in: document.root), "\"reports\"")
            var reports: [Report] = []
            for node in list { reports.append(try document.report(node)) }
            return ReportSet(reports: reports)
        default:
            throw document.error("\"format\" must be \"\(Report.format)\" or \"\(Report.setFormat)\", "
                                 + "not \"\(format.value)\"", at: format.offset)
        }
    }
}

/// A parsed JSON file and the checks report and baseline readers share.
struct JSONDocument {
    let path: String
    let root: JSONNode
    private let source: JSONSourceText

    init(_ bytes: [UInt8], path: String, maxBytes: Int) throws(InputError) {
        self.path = path
        source = JSONSourceText(bytes: bytes)
        do {
            root = try JSONParser.parse(bytes, limits: .init(maxDepth: 64, maxBytes: maxBytes))
        } catch {
            throw InputError(path: path, line: error.line, column: error.column, message: error.message)
        }
    }

    func error(_ message: String, at offset: Int) -> InputError {
        let position = source.position(ofOffset: offset)
        return InputError(path: path, line: position.line, column: position.column, message: message)
    }

    // MARK: Typed access

    func object(_ node: JSONNode, _ what: String) throws(InputError) -> [JSONMember] {
        guard case .object(let members) = node.kind else { throw error("\(what) must be an object", at: node.offset) }
        return members
    }

    func array(_ node: JSONNode, _ what: String) throws(InputError) -> [JSONNode] {
        guard case .array(let elements) = node.kind else { throw error("\(what) must be a list", at: node.offset) }
        return elements
    }

    func required(_ members: [JSONMember], _ key: String, in node: JSONNode) throws(InputError) -> JSONNode {
        guard let member = members.first(where: { $0.key == key }) else {
            throw error("missing \"\(key)\"", at: node.offset)
        }
        return member.value
    }

    func optional(_ members: [JSONMember], _ key: String) -> JSONNode? {
        members.first { $0.key == key }?.value
    }

    func string(_ members: [JSONMember], _ key: String, in node: JSONNode) throws(InputError)
        -> (value: String, offset: Int) {
        let value = try required(members, key, in: node)
        guard case .string(let text) = value.kind else {
            throw error("\"\(key)\" must be a string", at: value.offset)
        }
        return (text, value.offset)
    }

    func optionalString(_ members: [JSONMember], _ key: String) throws(InputError) -> String? {
        guard let value = optional(members, key) else { return nil }
        guard case .string(let text) = value.kind else {
            throw error("\"\(key)\" must be a string", at: value.offset)
        }
        return text
    }

    func int(_ node: JSONNode, _ what: String) throws(InputError) -> Int {
        guard case .int(let value) = node.kind, value >= 0 else {
            throw error("\(what) must be a whole number, 0 or more", at: node.offset)
        }
        return value
    }

    func optionalInt(_ members: [JSONMember], _ key: String) throws(InputError) -> Int? {
        try optional(members, key).map { node throws(InputError) in try int(node, "\"\(key)\"") }
    }

    func allowOnly(_ members: [JSONMember], _ keys: Set<String>, in what: String) throws(InputError) {
        if let unknown = members.first(where: { !keys.contains($0.key) }) {
            throw error("unknown field \"\(unknown.key)\" in \(what)", at: unknown.keyOffset)
        }
    }

    func checkVersion(_ members: [JSONMember], in node: JSONNode, supported: Int, of what: String) throws(InputError) {
        let version = try required(members, "version", in: node)
        guard case .int(let number) = version.kind, number == supported else {
            throw error("unsupported \(what) version (this tool reads version \(supported))", at: version.offset)
        }
    }

    // MARK: Reports

    func report(_ node: JSONNode) throws(InputError) -> Report {
        let members = try object(node, "a report")
        try allowOnly(members, ["format", "version", "scenario", "summary", "findings", "suppressed", "file"],
                      in: "a report")
        let format = try string(members, "format", in: node)
        guard format.value == Report.format else {
            throw error("\"format\" must be \"\(Report.format)\", not \"\(format.value)\"", at: format.offset)
        }
        try checkVersion(members, in: node, supported: Report.formatVersion, of: "report")
        let summaryNode = try required(members, "summary", in: node)
        let summary = try object(summaryNode, "\"summary\"")
        var report = Report(
            scenario: try string(members, "scenario", in: node).value,
            eventCount: try int(try required(summary, "events", in: summaryNode), "\"events\""),
            replays: try optionalInt(summary, "replays") ?? 1,
            findings: [],
            hiddenByBaseline: try optionalInt(summary, "baselined") ?? 0,
            file: try optionalString(members, "file"))
        for element in try array(try required(members, "findings", in: node), "\"findings\"") {
            report.findings.append(try finding(element).finding)
        }
        if let suppressedNode = optional(members, "suppressed") {
            for element in try array(suppressedNode, "\"suppressed\"") {
                let (finding, reason) = try self.finding(element)
                guard let reason else { throw error("a suppressed finding needs its \"reason\"", at: element.offset) }
                report.suppressed.append(SuppressedFinding(finding: finding, reason: reason))
            }
        }
        return report
    }

    private func finding(_ node: JSONNode) throws(InputError) -> (finding: Finding, reason: String?) {
        let members = try object(node, "a finding")
        try allowOnly(members, ["rule", "severity", "message", "registry", "channel", "objects", "step", "site",
                                "events", "fix", "line", "reason"], in: "a finding")
        let severityText = try string(members, "severity", in: node)
        guard let severity = Severity(rawValue: severityText.value) else {
            throw error("\"severity\" must be error, warning or note, not \"\(severityText.value)\"",
                        at: severityText.offset)
        }
        var site: CallSite?
        if let siteNode = optional(members, "site") {
            guard case .string(let text) = siteNode.kind, let parsed = CallSite(parsing: text) else {
                throw error("\"site\" must be \"FILE:LINE\"", at: siteNode.offset)
            }
            site = parsed
        }
        var objects: [String] = []
        if let node = optional(members, "objects") {
            for element in try array(node, "\"objects\"") {
                guard case .string(let name) = element.kind else {
                    throw error("\"objects\" must list names", at: element.offset)
                }
                objects.append(name)
            }
        }
        var events: [Int] = []
        if let node = optional(members, "events") {
            for element in try array(node, "\"events\"") { events.append(try int(element, "an event number")) }
        }
        var finding = Finding(
            rule: try string(members, "rule", in: node).value, severity: severity,
            message: try string(members, "message", in: node).value,
            registry: try optionalString(members, "registry"), channel: try optionalString(members, "channel"),
            objects: objects, step: try optionalInt(members, "step"), site: site, events: events,
            fix: try optionalString(members, "fix"))
        finding.line = try optionalInt(members, "line")
        return (finding, try optionalString(members, "reason"))
    }
}
