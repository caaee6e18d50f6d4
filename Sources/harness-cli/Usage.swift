/// An option a command may take (`--help` and `--version` go everywhere).
enum CommandOption: String, CaseIterable {
    case format
    case output
    case failOn = "fail-on"
    case seed
    case baseline
    case writeBaseline = "write-baseline"

    var flag: String { "--" + rawValue }

    /// `-o` is `--output`.
    static func named(_ name: String) -> CommandOption? {
        name == "-o" ? .output : name.hasPrefix("--") ? CommandOption(rawValue: String(name.dropFirst(2))) : nil
    }

    /// `--format json|text`, `--output FILE`: the option with its value.
    func synopsis(formats: [Arguments.Format]) -> String {
        switch self {
        case .format: flag + " " + formats.map(\.rawValue).joined(separator: "|")
        case .output, .baseline, .writeBaseline: flag + " FILE"
        case .failOn: flag + " error|warning|note|never"
        case .seed: flag + " N"
        }
    }

    var help: String {
        switch self {
        case .format: "output format (default: text on a terminal, json otherwise)"
        case .output: "write to FILE instead of standard output (a regular file is replaced atomically)"
        case .failOn: "exit 1 when a finding is at least this severe (default: error)"
        case .seed: "seed for sampled delivery orders (default: 0)"
        case .baseline: "hide the findings FILE already knows (by fingerprint); report only new ones"
        case .writeBaseline: "write the fingerprints of every finding to FILE"
        }
    }
}

/// The commands, each with its operands, the options it takes and its usage
/// text (`harness-cli help COMMAND`, and after a usage error).
enum CommandUsage: String, CaseIterable {
    case run, analyze, golden, merge, rules, explain, help

    /// The command as errors name it.
    var name: String { rawValue }

    /// The synopsis lines, without `harness-cli ` and options.
    private var synopses: [String] {
        switch self {
        case .run: ["run PATH..."]
        case .analyze: ["analyze TRACE"]
        case .golden: ["golden check [DIR]", "golden update [DIR]"]
        case .merge: ["merge REPORT..."]
        case .rules: ["rules"]
        case .explain: ["explain RULE"]
        case .help: ["help [COMMAND]"]
        }
    }

    /// One line for the overview's command list.
    private var abstract: String {
        switch self {
        case .run: "replay scenario files (a folder: every *.scenario.json under it)"
        case .analyze: "analyse a trace recorded by the library (JSON Lines)"
        case .golden: "compare every scenario's report with its golden file, or rewrite them"
        case .merge: "combine JSON reports (from sharded runs) into one report set"
        case .rules: "list the rules"
        case .explain: "what a rule means, why it matters, how to fix it"
        case .help: "the usage of one command, or this overview"
        }
    }

    private var arguments: [(String, String)] {
        switch self {
        case .run: [("PATH...", "scenario files, or folders: every *.scenario.json under each")]
        case .analyze: [("TRACE", "a JSON Lines trace the library wrote (Recording.writeTrace)")]
        case .golden:
            [
                ("check", "compare each NAME.scenario.json's report with NAME.report.json beside it"),
                ("update", "rewrite every NAME.report.json (read the diff before committing it)"),
                ("DIR", "the folder of golden files (default: Golden)"),
            ]
        case .merge: [("REPORT...", "JSON reports or report sets; the same scenario in two must agree")]
        case .rules: []
        case .explain: [("RULE", "a rule id, as `harness-cli rules` lists them")]
        case .help: [("COMMAND", "one of: " + CommandUsage.allCases.map(\.name).joined(separator: ", "))]
        }
    }

    /// The options this command takes.
    var options: [CommandOption] {
        switch self {
        case .run: [.format, .output, .failOn, .seed, .baseline, .writeBaseline]
        case .analyze, .merge: [.format, .output, .failOn, .baseline, .writeBaseline]
        case .golden: [.seed]
        case .rules: [.format, .output]
        case .explain: [.output]
        case .help: []
        }
    }

    /// The values `--format` takes for this command.
    var formats: [Arguments.Format] {
        self == .rules ? [.text, .json] : [.text, .json, .sarif, .junit, .markdown, .html]
    }

    /// The command's whole usage.
    var text: String {
        let prefix = "USAGE: "
        let usage = synopses.enumerated().map { index, synopsis in
            (index == 0 ? prefix : String(repeating: " ", count: prefix.count)) + "harness-cli " + synopsis
                + (options.isEmpty ? "" : " [options]")
        }
        var lines = ["OVERVIEW: " + abstract, ""] + usage
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"] + arguments.map { Self.entry($0.0, $0.1) }
        }
        lines += ["", "OPTIONS:"]
        lines += options.map { Self.entry($0.synopsis(formats: formats), $0.help) }
        lines.append(Self.entry("--help", "print this usage"))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The overview: every command, and where each one's options are.
    static var overview: String {
        var lines = [
            "OVERVIEW: find observer-pattern misuse: replay scenarios, analyse traces, compare golden reports.",
            "", "USAGE: harness-cli <command> [options]", "", "COMMANDS:",
        ]
        for command in allCases {
            for (index, synopsis) in command.synopses.enumerated() {
                lines.append(entry(synopsis, index == 0 ? command.abstract : ""))
            }
        }
        lines += ["", "OPTIONS:"]
        lines += CommandOption.allCases.map { option in
            let takers = allCases.filter { $0.options.contains(option) }.map(\.name)
            return entry(option.synopsis(formats: CommandUsage.run.formats), option.help)
                + "\n" + String(repeating: " ", count: helpColumn) + "(" + both(takers) + ")"
        }
        lines.append(entry("--help, --version", "everywhere"))
        lines += ["", "See 'harness-cli help COMMAND' for one command's usage.", "", exitStatus]
        return lines.joined(separator: "\n") + "\n"
    }

    /// After a usage error with no command to describe.
    static var shortOverview: String {
        "USAGE: harness-cli <command> [options]\n\nCOMMANDS: " + allCases.map(\.name).joined(separator: ", ")
            + "\n\nSee 'harness-cli help' for the overview, 'harness-cli help COMMAND' for one command.\n"
    }

    private static let exitStatus = """
        EXIT STATUS: 0 no finding at or above --fail-on; 1 such findings, or a golden mismatch;
                     2 bad usage or invalid input.
        """

    /// `  NAME    help`, the help in a column, or on the next line when NAME is long.
    private static let helpColumn = 26

    private static func entry(_ name: String, _ help: String) -> String {
        let column = helpColumn
        let lead = "  " + name
        guard !help.isEmpty else { return lead }
        if lead.count < column { return lead + String(repeating: " ", count: column - lead.count) + help }
        return lead + "\n" + String(repeating: " ", count: column) + help
    }

    /// `a`, `a or b`, `a, b or c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]
    }

    /// `a`, `a and b`, `a, b and c`.
    static func both(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
