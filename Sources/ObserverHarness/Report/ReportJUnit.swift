/// JUnit XML for CI test reporters: one test case per scenario, failing when
/// it has findings at or above the threshold. The full text of every finding
/// is in the element body, because some CI systems ignore the `message`
/// attribute.
extension ReportSet {
    /// - Parameter threshold: the least severe finding that fails a case
    ///   (`--fail-on`); nil: no case fails, findings are listed as output.
    package func junitText(failingAt threshold: Severity?) -> String {
        var cases: [String] = []
        var failures = 0
        for report in reports {
            let fails = { (finding: Finding) in threshold.map { finding.severity >= $0 } ?? false }
            let failing = report.findings.filter(fails)
            let other = report.findings.filter { !fails($0) }
            var body = ""
            if !failing.isEmpty {
                failures += 1
                let rules = Array(Set(failing.map(\.rule))).sorted().joined(separator: ", ")
                let message = "\(failing.count) finding\(failing.count == 1 ? "" : "s"): \(rules)"
                body +=
                    "      <failure message=\"\(Self.xmlEscaped(message, inAttribute: true))\" "
                    + "type=\"\(Self.xmlEscaped(rules, inAttribute: true))\">"
                    + Self.xmlEscaped(failing.map(Self.junitText).joined(separator: "\n\n")) + "</failure>\n"
            }
            var output = other.map(Self.junitText)
            output += report.suppressed.map { "suppressed (\($0.reason)): " + Self.junitText($0.finding) }
            if report.hiddenByBaseline > 0 {
                output.append("\(report.hiddenByBaseline) known finding(s) hidden by the baseline")
            }
            if !output.isEmpty {
                body += "      <system-out>" + Self.xmlEscaped(output.joined(separator: "\n\n")) + "</system-out>\n"
            }
            let name = Self.xmlEscaped(report.scenario, inAttribute: true)
            let file = report.file.map { " file=\"\(Self.xmlEscaped($0, inAttribute: true))\"" } ?? ""
            let opening = "    <testcase classname=\"observer-harness\" name=\"\(name)\"\(file) time=\"0\""
            cases.append(body.isEmpty ? opening + "/>" : opening + ">\n" + body + "    </testcase>")
        }
        let counts = "tests=\"\(reports.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="observer-harness" \(counts) time="0">
              <testsuite name="observer-harness" \(counts) time="0">
            \(cases.joined(separator: "\n"))
              </testsuite>
            </testsuites>

            """
    }

    /// The text line format (`Cart.swift:12: error: … [rule] (step 3)` and the fix).
    private static func junitText(_ finding: Finding) -> String {
        [finding.line(), finding.fixLine].compactMap { $0 }.joined(separator: "\n")
    }

    /// Escapes markup, and replaces what XML 1.0 cannot hold at all (control
    /// characters, unpaired surrogates cannot occur in Swift strings) with U+FFFD.
    /// A carriage return is a character reference (a parser turns a raw one
    /// into a newline), and so are a newline and a tab in an attribute (a
    /// parser turns raw ones into spaces): a name reads back as it was.
    static func xmlEscaped(_ text: String, inAttribute: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\r": result += "&#13;"
            case "\n": if inAttribute { result += "&#10;" } else { result.unicodeScalars.append(scalar) }
            case "\t": if inAttribute { result += "&#9;" } else { result.unicodeScalars.append(scalar) }
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
