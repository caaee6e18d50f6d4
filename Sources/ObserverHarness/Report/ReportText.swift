/// The terminal rendering: findings grouped by severity, each line starting
/// with its call site (`File.swift:12:`) so editors can jump to it.
extension Report {
    public func text() -> String {
        var lines: [String] = []
        let summary =
            "\(count(.error)) error\(count(.error) == 1 ? "" : "s"), "
            + "\(count(.warning)) warning\(count(.warning) == 1 ? "" : "s"), "
            + "\(count(.note)) note\(count(.note) == 1 ? "" : "s")"
        var replayText = replays == 1 ? "" : ", \(replays) replays"
        if let orders {
            replayText += " of \(orders == Int.max ? "more than \(Int.max.grouped)" : orders.grouped) orders"
        }
        lines.append("\(scenario): \(summary) (\(eventCount) events\(replayText))")
        for severity in Severity.allCases {
            let group = findings.filter { $0.severity == severity }
            guard !group.isEmpty else { continue }
            lines.append("")
            for finding in group {
                lines.append(finding.line())
                if let fix = finding.fixLine { lines.append("    \(fix)") }
            }
        }
        if !suppressed.isEmpty {
            lines.append("")
            for entry in suppressed {
                let place = entry.finding.site.map { "\($0): " } ?? ""
                lines.append(
                    "\(place)suppressed \(entry.finding.severity.rawValue): \(entry.finding.message) "
                        + "[\(entry.finding.rule)] — \(entry.reason)")
            }
        }
        if hiddenByBaseline > 0 {
            lines.append("")
            lines.append("\(hiddenByBaseline) known finding\(hiddenByBaseline == 1 ? "" : "s") hidden by the baseline")
        }
        return lines.map(EscapedText.oneLine).joined(separator: "\n") + "\n"
    }
}

extension ReportSet {
    public func text() -> String {
        reports.map { $0.text() }.joined(separator: "\n")
    }
}
