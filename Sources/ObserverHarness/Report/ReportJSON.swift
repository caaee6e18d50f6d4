/// The JSON form of reports (SPEC §3): canonical, sorted keys, no
/// timestamps, addresses or absolute paths, so golden files compare bytes.
extension Report {
    static let format = "observer-harness-report"
    static let setFormat = "observer-harness-report-set"
    static let formatVersion = 1

    /// The report as a JSON value.
    var jsonValue: JSONValue {
        var object = JSONObject()
        object["format"] = .string(Self.format)
        object["version"] = .int(Self.formatVersion)
        object["scenario"] = .string(scenario)
        var summary = JSONObject()
        summary["events"] = .int(eventCount)
        summary["replays"] = .int(replays)
        summary["errors"] = .int(count(.error))
        summary["warnings"] = .int(count(.warning))
        summary["notes"] = .int(count(.note))
        object["summary"] = .object(summary)
        object["findings"] = .array(findings.map(\.jsonValue))
        return .object(object)
    }

    /// Canonical JSON text with a trailing newline.
    public func jsonText() -> String {
        jsonValue.serialized(.canonical) + "\n"
    }

    /// Reads a report written by ``jsonText()``.
    init(json: JSONValue) throws(ReportDecodingError) {
        guard json["format"]?.stringValue == Self.format else {
            throw ReportDecodingError("not an observer-harness-report (missing or wrong \"format\")")
        }
        guard json["version"]?.intValue == Self.formatVersion else {
            throw ReportDecodingError("unsupported report version (this tool reads version \(Self.formatVersion))")
        }
        guard let scenario = json["scenario"]?.stringValue, let summary = json["summary"],
              let events = summary["events"]?.intValue, let replays = summary["replays"]?.intValue,
              let findings = json["findings"]?.arrayValue else {
            throw ReportDecodingError("a report needs \"scenario\", \"summary\" and \"findings\"")
        }
        var decoded: [Finding] = []
        for finding in findings { decoded.append(try Finding(json: finding)) }
        self.init(scenario: scenario, eventCount: events, replays: replays, findings: decoded)
    }
}

extension ReportSet {
    var jsonValue: JSONValue {
        var object = JSONObject()
        object["format"] = .string(Report.setFormat)
        object["version"] = .int(Report.formatVersion)
        object["reports"] = .array(reports.map(\.jsonValue))
        return .object(object)
    }

    /// Canonical JSON text with a trailing newline.
    public func jsonText() -> String {
        jsonValue.serialized(.canonical) + "\n"
    }
}

extension Finding {
    var jsonValue: JSONValue {
        var object = JSONObject()
        object["rule"] = .string(rule)
        object["severity"] = .string(severity.rawValue)
        object["message"] = .string(message)
        if let registry { object["registry"] = .string(registry) }
        if let channel { object["channel"] = .string(channel) }
        if !objects.isEmpty { object["objects"] = .array(objects.map(JSONValue.string)) }
        if let step { object["step"] = .int(step) }
        if let site { object["site"] = .string(site.description) }
        if !events.isEmpty { object["events"] = .array(events.map(JSONValue.int)) }
        if let fix { object["fix"] = .string(fix) }
        return .object(object)
    }

    init(json: JSONValue) throws(ReportDecodingError) {
        guard let rule = json["rule"]?.stringValue, let severityText = json["severity"]?.stringValue,
              let severity = Severity(rawValue: severityText), let message = json["message"]?.stringValue else {
            throw ReportDecodingError("a finding needs \"rule\", \"severity\" and \"message\"")
        }
        self.init(rule: rule, severity: severity, message: message,
                  registry: json["registry"]?.stringValue, channel: json["channel"]?.stringValue,
                  objects: json["objects"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                  step: json["step"]?.intValue, site: json["site"]?.stringValue.flatMap(CallSite.init(parsing:)),
                  events: json["events"]?.arrayValue?.compactMap(\.intValue) ?? [],
                  fix: json["fix"]?.stringValue)
    }
}

/// A report file that is not a report.
struct ReportDecodingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
