/// GitHub-flavoured Markdown for CI job summaries and pull-request comments:
/// a summary table, then per finding its message, fix and site and a Mermaid
/// `sequenceDiagram` of its story (GitHub draws those blocks).
extension ReportSet {
    /// - Parameter stories: per report (same order), the stories of its
    ///   findings; a report without them (a merged JSON report) lists its
    ///   findings with their event numbers and no diagram.
    package func markdownText(stories: [ReportStories?] = []) -> String {
        var lines = ["# ObserverHarness report", ""]
        lines.append("| scenario | errors | warnings | notes | events | replays |")
        lines.append("|---|--:|--:|--:|--:|--:|")
        for report in reports {
            lines.append(
                "| \(Markdown.inline(report.scenario)) | \(report.count(.error)) | \(report.count(.warning)) "
                    + "| \(report.count(.note)) | \(report.eventCount) | \(report.replays) |")
        }
        var budget = DrawingBudget(pictures: MermaidSequence.maxDiagrams, bytes: MermaidSequence.maxDiagramBytes)
        for (index, report) in reports.enumerated() {
            let reportStories = index < stories.count ? stories[index] : nil
            lines.append("")
            lines += report.markdownLines(stories: reportStories, budget: &budget)
        }
        if budget.leftOut > 0 {
            lines += [
                "",
                "_\(budget.leftOut) diagrams left out: a report draws at most \(MermaidSequence.maxDiagrams) "
                    + "and \(MermaidSequence.maxDiagramBytes / 1000) kB of them, so the summary stays within a CI "
                    + "job summary's size limit; `--format html` draws more._",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Report {
    fileprivate func markdownLines(stories: ReportStories?, budget: inout DrawingBudget) -> [String] {
        var lines = ["## " + Markdown.inline(scenario)]
        if let file { lines += ["", "File: " + Markdown.code(file)] }
        if findings.isEmpty { lines += ["", "No findings."] }
        for finding in findings {
            lines.append("")
            lines += finding.markdownLines(story: stories?[finding], hasStories: stories != nil, budget: &budget)
        }
        if !suppressed.isEmpty {
            lines += ["", "Suppressed:", ""]
            for entry in suppressed {
                lines.append(
                    "- \(entry.finding.severity.rawValue) \(Markdown.code(entry.finding.rule)): "
                        + "\(Markdown.inline(entry.finding.message)) — \(Markdown.inline(entry.reason))")
            }
        }
        if hiddenByBaseline > 0 {
            lines += [
                "", "\(hiddenByBaseline) known finding\(hiddenByBaseline == 1 ? "" : "s") hidden by the baseline.",
            ]
        }
        return lines
    }
}

extension Finding {
    fileprivate func markdownLines(story: FindingStory?, hasStories: Bool, budget: inout DrawingBudget) -> [String] {
        let repeats = count > 1 ? " (×\(count))" : ""
        var lines = ["### \(severity.rawValue): \(Markdown.code(rule))\(repeats)", "", Markdown.inline(message)]
        if let fix { lines += ["", "**Fix:** " + Markdown.inline(fix)] }
        if !referenceChain.isEmpty {
            lines +=
                ["", "**Reference chain:**", ""]
                + referenceChain.enumerated().map {
                    "\(String(repeating: "  ", count: $0.offset))- " + ($0.offset == 0 ? "" : "↳ ")
                        + Markdown.code($0.element)
                }
        }
        var place: [String] = []
        if let site { place.append("site " + Markdown.code(site.description)) }
        if let step { place.append("step \(step)") }
        if !events.isEmpty { place.append("events " + events.map(String.init).joined(separator: ", ")) }
        if !place.isEmpty { lines += ["", place.joined(separator: " · ")] }
        if let comparison = story?.comparison { lines += [""] + Markdown.comparisonTable(comparison) }
        if let story, !story.steps.isEmpty {
            let diagram = MermaidSequence.diagram(story)
            guard budget.admits(diagram.reduce(0) { $0 + $1.utf8.count + 1 }) else { return lines }
            lines += ["", "```mermaid"] + diagram + ["```"]
            let leftOut = story.leftOut
            if leftOut > 0 {
                lines += [
                    "",
                    "_\(leftOut) event\(leftOut == 1 ? "" : "s") left out: the story keeps the finding's events "
                        + "(highlighted) and their nearest context._",
                ]
            }
        } else if !hasStories, !events.isEmpty {
            lines += [
                "", "_No diagram: this report was read from JSON, which keeps event numbers but not the events._",
            ]
        }
        return lines
    }
}

/// Escaping for Markdown text.
enum Markdown {
    /// Text that Markdown shows as written: no emphasis, links, HTML or table breaks.
    static func inline(_ text: String) -> String {
        var result = ""
        for character in text {
            // Every line break, "\r\n" (one character) and U+2028 included: a row stays one row.
            if character.isNewline {
                result += " "
                continue
            }
            switch character {
            case "\\", "`", "*", "_", "[", "]", "#", "|", "~", "!": result += "\\" + String(character)
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Inline code, fenced with more backticks than the text holds.
    static func code(_ text: String) -> String {
        let flat = text.replacingControls
        var longest = 0, run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = flat.hasPrefix("`") || flat.hasSuffix("`") ? " " : ""
        return fence + pad + flat + pad + fence
    }

    /// The two orders side by side, with what each ended with.
    static func comparisonTable(_ comparison: FindingStory.OrderComparison) -> [String] {
        var lines = ["| | first order | other order |", "|---|---|---|"]
        lines.append(
            "| order | " + comparison.first.map(inline).joined(separator: "; ") + " | "
                + comparison.other.map(inline).joined(separator: "; ") + " |")
        for difference in comparison.differences {
            lines.append(
                "| \(inline(difference.what)) | \(inline(difference.first)) | \(inline(difference.other)) |")
        }
        return lines
    }
}

extension String {
    /// Newlines and other controls as spaces: one line of output.
    fileprivate var replacingControls: String {
        String(map { $0.isNewline || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) ? " " : $0 })
    }
}

/// A Mermaid `sequenceDiagram` of a story. Participants get ids `P0`, `P1`,
/// … and their names as aliases; every text is reduced to characters Mermaid
/// reads literally, the rest written as entity codes (`#35;`).
enum MermaidSequence {
    static let highlight = "rect rgb(255, 228, 225)"
    /// Diagrams one Markdown report draws at most: GitHub takes 1 MiB of job
    /// summary per step, and a diagram is a few kilobytes.
    static let maxDiagrams = 100
    /// And at most this many bytes of them, leaving room for the text.
    static let maxDiagramBytes = 600_000

    static func diagram(_ story: FindingStory) -> [String] {
        var lines = ["sequenceDiagram"]
        for (index, participant) in story.participants.enumerated() {
            lines.append("    participant P\(index) as \(escaped(participant.name))")
        }
        var inHighlight = false
        for step in story.steps {
            if step.leftOutBefore > 0 {
                if inHighlight {
                    lines.append("    end")
                    inHighlight = false
                }
                let count = step.leftOutBefore
                lines.append("    Note over \(span(story)): \(count) event\(count == 1 ? "" : "s") left out")
            }
            if step.highlighted != inHighlight {
                lines.append(step.highlighted ? "    " + highlight : "    end")
                inHighlight = step.highlighted
            }
            lines.append("    " + line(step))
        }
        if inHighlight { lines.append("    end") }
        if let comparison = story.comparison {
            let outcome = { (values: [String]) in values.isEmpty ? "same outcome" : values.joined(separator: ", ") }
            lines.append("    alt first order, " + escaped(comparison.first.joined(separator: "; ")))
            lines.append(
                "        Note over \(span(story)): "
                    + escaped(outcome(comparison.differences.map { "\($0.what) = \($0.first)" })))
            lines.append("    else other order, " + escaped(comparison.other.joined(separator: "; ")))
            lines.append(
                "        Note over \(span(story)): "
                    + escaped(outcome(comparison.differences.map { "\($0.what) = \($0.other)" })))
            lines.append("    end")
        }
        return lines
    }

    /// `P0,P3`: a note across every participant.
    private static func span(_ story: FindingStory) -> String {
        story.participants.count > 1 ? "P0,P\(story.participants.count - 1)" : "P0"
    }

    private static func line(_ step: FindingStory.Step) -> String {
        let text = escaped("[\(step.sequence)] \(step.text)")
        let from = "P\(step.from)", to = "P\(step.to)"
        switch step.action {
        case .registration, .post, .delivery: return "\(from)->>\(to): \(text)"
        case .removal: return "\(from)-->>\(to): \(text)"
        case .deadDelivery: return "\(from)-x\(to): \(text)"
        case .skippedDelivery: return "\(from)--x\(to): \(text)"
        case .create, .release, .dealloc, .other: return "Note over \(from): \(text)"
        }
    }

    /// Letters, digits, spaces and plain punctuation as they are; anything
    /// else as a Mermaid entity code, so no name can end a statement, open a
    /// block or inject markup.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if isLiteral(scalar) {
                result.unicodeScalars.append(scalar)
            } else if scalar == "\"" {
                result += "#quot;"
            } else {
                result += "#\(scalar.value);"
            }
        }
        return result
    }

    /// The characters a Mermaid text may hold literally.
    static func isLiteral(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", " ", ".", ",", "(", ")", "/", "'", "_", "-", "?", "!", "@", "=", "+",
            "*", "[", "]", "$", "^", "~":
            true
        default:
            scalar.value > 0x7F && scalar.properties.isAlphabetic
        }
    }
}
