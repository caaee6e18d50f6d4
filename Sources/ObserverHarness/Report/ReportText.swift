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
        return lines.map(Self.oneLine).joined(separator: "\n") + "\n"
    }

    /// `line` with the line breaks a name from the app may hold written as
    /// `\u{A}`, as a terminal's escaping writes other controls: one finding,
    /// one line.
    static func oneLine(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: isLineBreak) else { return line }
        var result = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            if isLineBreak(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}

extension ReportSet {
    public func text() -> String {
        reports.map { $0.text() }.joined(separator: "\n")
    }
}
