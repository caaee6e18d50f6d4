/// One self-contained HTML page: inline CSS and SVG, no scripts, no fonts or
/// anything else from the network. The summary table, then per finding its
/// message, fix and site and an SVG timeline of its story: one lane per
/// object from creation to deallocation, registrations as spans on their
/// registry's lane, posts as marks with their deliveries, the finding's own
/// events highlighted. Only stories are drawn, never the whole recording, so
/// the page stays small for any trace.
extension ReportSet {
    /// - Parameter stories: per report (same order), the stories of its
    ///   findings; without them (a merged JSON report) there are no timelines.
    package func htmlText(stories: [ReportStories?] = []) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>ObserverHarness report</title>
            <style>\(HTMLTimeline.css)</style>
            </head>
            <body>
            <h1>ObserverHarness report</h1>
            <table class="summary">
            <thead><tr><th>scenario</th><th>errors</th><th>warnings</th><th>notes</th><th>events</th><th>replays</th></tr></thead>
            <tbody>

            """
        for report in reports {
            let worst = report.findings.map(\.severity).max().map(\.rawValue) ?? "clean"
            html +=
                "<tr class=\"\(worst)\"><td>\(HTML.escaped(report.scenario))</td><td>\(report.count(.error))</td>"
                + "<td>\(report.count(.warning))</td><td>\(report.count(.note))</td><td>\(report.eventCount)</td>"
                + "<td>\(report.replays)</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        var budget = DrawingBudget(pictures: HTMLTimeline.maxTimelines, bytes: HTMLTimeline.maxTimelineBytes)
        for (index, report) in reports.enumerated() {
            html += report.htmlSection(stories: index < stories.count ? stories[index] : nil, budget: &budget)
        }
        if budget.leftOut > 0 {
            html +=
                "<p class=\"note\">\(budget.leftOut) timelines left out: the page draws at most "
                + "\(HTMLTimeline.maxTimelines) timelines and \(HTMLTimeline.maxTimelineBytes / 1_000_000) MB of them, "
                + "so it stays small and opens quickly.</p>\n"
        }
        html += "</body>\n</html>\n"
        return html
    }
}

extension Report {
    fileprivate func htmlSection(stories: ReportStories?, budget: inout DrawingBudget) -> String {
        var html = "<section class=\"report\">\n<h2>\(HTML.escaped(scenario))</h2>\n"
        if let file { html += "<p class=\"file\">\(HTML.escaped(file))</p>\n" }
        if findings.isEmpty { html += "<p class=\"clean\">No findings.</p>\n" }
        for finding in findings {
            html += finding.htmlArticle(story: stories?[finding], hasStories: stories != nil, budget: &budget)
        }
        if !suppressed.isEmpty {
            html += "<h3>Suppressed</h3>\n<ul class=\"suppressed\">\n"
            for entry in suppressed {
                html +=
                    "<li>\(entry.finding.severity.rawValue) <code>\(HTML.escaped(entry.finding.rule))</code>: "
                    + "\(HTML.escaped(entry.finding.message)) — \(HTML.escaped(entry.reason))</li>\n"
            }
            html += "</ul>\n"
        }
        if hiddenByBaseline > 0 {
            html +=
                "<p>\(hiddenByBaseline) known finding\(hiddenByBaseline == 1 ? "" : "s") hidden by the baseline.</p>\n"
        }
        return html + "</section>\n"
    }
}

extension Finding {
    fileprivate func htmlArticle(story: FindingStory?, hasStories: Bool, budget: inout DrawingBudget) -> String {
        let repeats = count > 1 ? " (×\(count))" : ""
        var html = "<article class=\"finding \(severity.rawValue)\">\n"
        html +=
            "<h3><span class=\"severity\">\(severity.rawValue)</span> <code>\(HTML.escaped(rule))</code>"
            + "\(repeats)</h3>\n"
        html += "<p class=\"message\">\(HTML.escaped(message))</p>\n"
        if let fix { html += "<p class=\"fix\"><b>Fix:</b> \(HTML.escaped(fix))</p>\n" }
        if !referenceChain.isEmpty {
            html += "<p class=\"chain\"><b>Reference chain:</b></p>\n<ol class=\"chain\">\n"
            html += referenceChain.map { "<li><code>\(HTML.escaped($0))</code></li>\n" }.joined() + "</ol>\n"
        }
        var place: [String] = []
        if let site { place.append("site <code>\(HTML.escaped(site.description))</code>") }
        if let step { place.append("step \(step)") }
        if !events.isEmpty { place.append("events " + events.map(String.init).joined(separator: ", ")) }
        if !place.isEmpty { html += "<p class=\"site\">\(place.joined(separator: " · "))</p>\n" }
        if let comparison = story?.comparison { html += HTMLTimeline.comparison(comparison) }
        if let story, !story.steps.isEmpty {
            let picture = HTMLTimeline.svg(story) + HTMLTimeline.stepTable(story)
            if budget.admits(picture.utf8.count) { html += picture }
        } else if !hasStories, !events.isEmpty {
            html +=
                "<p class=\"note\">No timeline: this report was read from JSON, which keeps event numbers but not the events.</p>\n"
        }
        return html + "</article>\n"
    }
}

enum HTML {
    /// Text and attribute values: `&`, `<`, `>`, quotes, and controls as spaces.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    result += " "
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}

/// The SVG timeline of a story.
enum HTMLTimeline {
    /// Timelines one page draws at most (each is about 10 kB).
    static let maxTimelines = 300
    /// And at most this many bytes of them: the page stays under 5 MB.
    static let maxTimelineBytes = 4_000_000
    static let labelWidth = 190
    static let columnWidth = 64
    static let laneHeight = 40
    static let spanHeight = 6
    static let top = 48

    static let css = """

        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1f2328;background:#fff;max-width:1400px}
        h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}h3{font-size:15px;margin:0 0 6px}
        code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f6f8fa;padding:1px 4px;border-radius:4px}
        table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
        table.summary td:nth-child(n+2){text-align:right}tr.error td:first-child{border-left:4px solid #cf222e}
        tr.warning td:first-child{border-left:4px solid #bf8700}tr.note td:first-child{border-left:4px solid #0969da}
        tr.clean td:first-child{border-left:4px solid #1a7f37}
        .finding{border:1px solid #d0d7de;border-left:6px solid #0969da;border-radius:6px;padding:10px 14px;margin:14px 0}
        .finding.error{border-left-color:#cf222e}.finding.warning{border-left-color:#bf8700}
        .severity{text-transform:uppercase;font-size:11px;letter-spacing:.05em;color:#fff;background:#0969da;border-radius:3px;padding:1px 5px}
        .error .severity{background:#cf222e}.warning .severity{background:#bf8700}
        .site,.file,.note{color:#57606a}.timeline{overflow-x:auto;margin:8px 0}
        table.steps{font-size:12px}table.steps tr.own{background:#ffebe9;font-weight:600}
        .orders{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin:8px 0}
        .orders>div{border:1px solid #d0d7de;border-radius:6px;padding:6px 10px;background:#f6f8fa}
        .orders h4{margin:0 0 4px;font-size:13px}.orders ul{margin:0;padding-left:18px}
        svg text{font:11px system-ui,-apple-system,"Segoe UI",sans-serif;fill:#1f2328}
        svg .lane-label{font-weight:600}svg .registry-label{fill:#8250df}svg .seq{fill:#57606a;font-size:10px}svg .word{fill:#57606a;font-size:10px;font-style:italic}
        svg .lifeline{stroke:#8c959f;stroke-width:2}svg .lifeline.before{stroke-dasharray:3 3}
        svg .registry-line{stroke:#c297ff;stroke-width:2}svg .span{fill:#8250df;opacity:.55}
        svg .own{fill:#ffebe9}svg .link{stroke:#57606a;stroke-width:1.2}svg .link.dead{stroke:#cf222e;stroke-width:2}
        svg .link.skipped{stroke-dasharray:3 2}svg .link.remove{stroke-dasharray:4 2}
        svg .mark{fill:#0969da}svg .mark.hl{fill:#cf222e}svg .dealloc{stroke:#cf222e;stroke-width:2.5}
        svg .release{fill:#bf8700}svg .gap{stroke:#8c959f;stroke-dasharray:1 3}svg .gap-text{fill:#57606a;font-size:9px}

        """

    /// The column's heading under its event number.
    private static func word(_ step: FindingStory.Step) -> String {
        switch step.action {
        case .create: "create"
        case .registration: "add"
        case .removal: "remove"
        case .post: step.text.hasPrefix("call ") ? "call" : step.text.hasPrefix("set ") ? "set" : "post"
        case .delivery: "deliver"
        case .deadDelivery: "to dead"
        case .skippedDelivery: "skipped"
        case .release: "release"
        case .dealloc: "dealloc"
        case .other: HTML.escaped(step.text.split(separator: " ").first.map(String.init) ?? "")
        }
    }

    /// `x` of a step's column centre.
    private static func x(_ column: Int) -> Int { labelWidth + column * columnWidth + columnWidth / 2 }

    /// The `y` of a lane's line.
    private static func y(_ lane: Int) -> Int { top + lane * laneHeight + laneHeight / 2 }

    static func svg(_ story: FindingStory) -> String {
        let columns = story.steps.count
        let width = labelWidth + columns * columnWidth + 12
        let height = top + story.participants.count * laneHeight + 8
        var svg = "<div class=\"timeline\">\n"
        svg +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"story\" width=\"\(width)\" height=\"\(height)\" "
            + "viewBox=\"0 0 \(width) \(height)\" role=\"img\" data-lanes=\"\(story.participants.count)\" "
            + "aria-label=\"timeline of \(story.participants.count) lanes and \(columns) events\">\n"
        // The finding's own events: a column band behind everything.
        for (column, step) in story.steps.enumerated() where step.highlighted {
            svg +=
                "<rect class=\"own\" x=\"\(labelWidth + column * columnWidth + 2)\" y=\"\(top - 30)\" "
                + "width=\"\(columnWidth - 4)\" height=\"\(height - top + 26)\" rx=\"4\"/>\n"
        }
        for (column, step) in story.steps.enumerated() {
            svg +=
                "<text class=\"seq\" x=\"\(x(column))\" y=\"\(top - 18)\" text-anchor=\"middle\">\(step.sequence)</text>"
                + "<text class=\"word\" x=\"\(x(column))\" y=\"\(top - 6)\" text-anchor=\"middle\">\(word(step))</text>\n"
            if step.leftOutBefore > 0 {
                let gapX = labelWidth + column * columnWidth
                svg += "<line class=\"gap\" x1=\"\(gapX)\" y1=\"\(top - 36)\" x2=\"\(gapX)\" y2=\"\(height)\"/>\n"
                svg +=
                    "<text class=\"gap-text\" x=\"\(gapX)\" y=\"\(top - 38)\" text-anchor=\"middle\">"
                    + "…\(step.leftOutBefore)…<title>events left out</title></text>\n"
            }
        }
        // Lanes: an object's lifeline from creation to deallocation; a registry's line throughout.
        let endX = labelWidth + columns * columnWidth
        for (lane, participant) in story.participants.enumerated() {
            let label = participant.name.count > 26 ? String(participant.name.prefix(25)) + "…" : participant.name
            let labelClass = participant.role == .registry ? "lane-label registry-label" : "lane-label"
            svg +=
                "<g class=\"lane \(participant.role.rawValue)\"><text class=\"\(labelClass)\" x=\"6\" y=\"\(y(lane) + 4)\">"
                + "\(HTML.escaped(label))<title>\(HTML.escaped(participant.name))</title></text>\n"
            if participant.role == .registry {
                svg +=
                    "<line class=\"registry-line\" x1=\"\(labelWidth)\" y1=\"\(y(lane))\" x2=\"\(endX)\" y2=\"\(y(lane))\"/>\n"
            } else {
                let start = participant.createdAt.map { x($0) } ?? labelWidth
                let end = participant.deallocatedAt.map { x($0) } ?? endX
                let before = participant.createdAt == nil ? " before" : ""
                svg +=
                    "<line class=\"lifeline\(before)\" x1=\"\(start)\" y1=\"\(y(lane))\" x2=\"\(end)\" y2=\"\(y(lane))\"/>\n"
            }
            svg += "</g>\n"
        }
        svg += spans(story)
        for (column, step) in story.steps.enumerated() { svg += mark(step, column: column) }
        svg += "</svg>\n</div>\n"
        return svg
    }

    /// Each registration as a span on its registry's lane, from its add to
    /// its removal (or the story's end), stacked below the lane's line.
    private static func spans(_ story: FindingStory) -> String {
        var svg = ""
        var stack: [Int: Int] = [:]
        for (column, step) in story.steps.enumerated() where step.action == .registration {
            let end =
                story.steps.indices.first { later in
                    later > column && story.steps[later].action == .removal
                        && story.steps[later].registration == step.registration && step.registration != 0
                } ?? story.steps.count
            let level = stack[step.to, default: 0]
            stack[step.to] = (level + 1) % 3
            let spanY = y(step.to) + 3 + level * (spanHeight + 1)
            let endX = end == story.steps.count ? labelWidth + end * columnWidth : x(end)
            svg +=
                "<rect class=\"span\" x=\"\(x(column))\" y=\"\(spanY)\" width=\"\(max(2, endX - x(column)))\" "
                + "height=\"\(spanHeight)\"><title>\(HTML.escaped(story.participants[step.from].name)): "
                + "\(HTML.escaped(step.text))</title></rect>\n"
        }
        return svg
    }

    private static func mark(_ step: FindingStory.Step, column: Int) -> String {
        let cx = x(column), from = y(step.from), to = y(step.to)
        let hl = step.highlighted ? " hl" : ""
        let title =
            "<title>\(step.sequence): \(HTML.escaped(step.text))\(step.site.map { " at " + HTML.escaped($0) } ?? "")</title>"
        switch step.action {
        case .post:
            return "<g class=\"post\"><line class=\"link\" x1=\"\(cx)\" y1=\"\(from)\" x2=\"\(cx)\" y2=\"\(to)\"/>"
                + "<path class=\"mark\(hl)\" d=\"M\(cx) \(from - 6)l6 6l-6 6l-6 -6z\">\(title)</path></g>\n"
        case .delivery, .deadDelivery, .skippedDelivery:
            let kind = step.action == .deadDelivery ? " dead" : step.action == .skippedDelivery ? " skipped" : ""
            var mark =
                "<g class=\"delivery\"><line class=\"link\(kind)\" x1=\"\(cx)\" y1=\"\(from)\" x2=\"\(cx)\" y2=\"\(to)\"/>"
            if step.action == .deadDelivery {
                mark += "<path class=\"dealloc\" d=\"M\(cx - 5) \(to - 5)l10 10m0 -10l-10 10\">\(title)</path>"
            } else {
                mark += "<circle class=\"mark\(hl)\" cx=\"\(cx)\" cy=\"\(to)\" r=\"4\">\(title)</circle>"
            }
            return mark + "</g>\n"
        case .registration, .removal:
            let kind = step.action == .removal ? " remove" : ""
            return "<g class=\"\(step.action.rawValue)\"><line class=\"link\(kind)\" x1=\"\(cx)\" y1=\"\(from)\" "
                + "x2=\"\(cx)\" y2=\"\(to)\"/><rect class=\"mark\(hl)\" x=\"\(cx - 4)\" y=\"\(from - 4)\" width=\"8\" "
                + "height=\"8\">\(title)</rect></g>\n"
        case .dealloc:
            return "<path class=\"dealloc\" d=\"M\(cx - 6) \(from - 6)l12 12m0 -12l-12 12\">\(title)</path>\n"
        case .release:
            return "<path class=\"release\" d=\"M\(cx - 5) \(from - 6)h10l-5 8z\">\(title)</path>\n"
        case .create:
            return "<circle class=\"mark\(hl)\" cx=\"\(cx)\" cy=\"\(from)\" r=\"3\">\(title)</circle>\n"
        case .other:
            return
                "<circle class=\"mark\(hl)\" cx=\"\(cx)\" cy=\"\(from)\" r=\"3\" fill-opacity=\".5\">\(title)</circle>\n"
        }
    }

    /// The steps as text, with their sites: what the picture shows, to read and to search.
    static func stepTable(_ story: FindingStory) -> String {
        var html =
            "<table class=\"steps\">\n<thead><tr><th>event</th><th>who</th><th>what</th><th>site</th></tr></thead>\n<tbody>\n"
        for step in story.steps {
            if step.leftOutBefore > 0 {
                let count = step.leftOutBefore
                html +=
                    "<tr class=\"gap\"><td colspan=\"4\">… \(count) event\(count == 1 ? "" : "s") left out …</td></tr>\n"
            }
            let from = story.participants[step.from].name, to = story.participants[step.to].name
            let who = step.from == step.to ? HTML.escaped(from) : "\(HTML.escaped(from)) → \(HTML.escaped(to))"
            html +=
                "<tr\(step.highlighted ? " class=\"own\"" : "")><td>\(step.sequence)</td><td>\(who)</td>"
                + "<td>\(HTML.escaped(step.text))</td><td>\(step.site.map { "<code>\(HTML.escaped($0))</code>" } ?? "")</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// The two orders side by side, with what each ended with.
    static func comparison(_ comparison: FindingStory.OrderComparison) -> String {
        func column(_ title: String, _ order: [String], _ values: [String]) -> String {
            var html = "<div><h4>\(title)</h4><ul>\n"
            for line in order { html += "<li>\(HTML.escaped(line))</li>\n" }
            html += "</ul><p>ends with:</p><ul>\n"
            for value in values { html += "<li>\(HTML.escaped(value))</li>\n" }
            return html + "</ul></div>\n"
        }
        let differences = comparison.differences
        return "<div class=\"orders\">\n"
            + column("first order", comparison.first, differences.map { "\($0.what) = \($0.first)" })
            + column("other order", comparison.other, differences.map { "\($0.what) = \($0.other)" })
            + "</div>\n"
    }
}
