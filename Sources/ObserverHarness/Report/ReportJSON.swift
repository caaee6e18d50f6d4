/// The JSON form of reports: canonical, sorted keys, no
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
        // Only when they apply, so reports without them (golden files) keep their bytes.
        if !suppressed.isEmpty { summary["suppressed"] = .int(suppressed.count) }
        if hiddenByBaseline > 0 { summary["baselined"] = .int(hiddenByBaseline) }
        // Only where there was a choice to explore.
        if let orders { summary["orders"] = .int(orders) }
        object["summary"] = .object(summary)
        object["findings"] = .array(findings.map { $0.jsonValue(withLine: file != nil) })
        if !suppressed.isEmpty {
            object["suppressed"] = .array(
                suppressed.map { entry in
                    guard case .object(var finding) = entry.finding.jsonValue(withLine: file != nil) else {
                        return .null
                    }
                    finding["reason"] = .string(entry.reason)
                    return .object(finding)
                })
        }
        if let file { object["file"] = .string(file) }
        return .object(object)
    }

    /// Canonical JSON text with a trailing newline.
    public func jsonText() -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }

    /// ``jsonText()`` as UTF-8: a report with a million event numbers is
    /// written without a `String` copy of it.
    package func jsonBytes() -> [UInt8] {
        jsonValue.canonicalLine()
    }
}

extension JSONValue {
    /// Canonical JSON and a newline, as UTF-8.
    fileprivate func canonicalLine() -> [UInt8] {
        var bytes: [UInt8] = []
        write(into: &bytes, options: .canonical)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
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
        String(decoding: jsonBytes(), as: UTF8.self)
    }

    /// ``jsonText()`` as UTF-8.
    package func jsonBytes() -> [UInt8] {
        jsonValue.canonicalLine()
    }
}

extension Finding {
    /// `withLine`: the scenario line of the step, for reports that name their file.
    func jsonValue(withLine: Bool) -> JSONValue {
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
        if count > 1 { object["count"] = .int(count) }
        if !referenceChain.isEmpty { object["chain"] = .array(referenceChain.map(JSONValue.string)) }
        if withLine, let line { object["line"] = .int(line) }
        return .object(object)
    }
}
