import Foundation

/// The parsed command line.
struct Arguments {
    enum Command: Equatable {
        case run(paths: [String])
        case analyze(trace: String)
        case goldenCheck(directory: String)
        case goldenUpdate(directory: String)
        case merge(reports: [String])
        case rules
        case explain(rule: String)
        /// The overview (nil), or one command's usage.
        case help(CommandUsage?)
        case version
    }

    enum Format: String { case json, text, sarif, junit, markdown, html }

    enum FailOn: String { case error, warning, note, never }

    var command: Command
    var format: Format?
    var output: String?
    var failOn: FailOn = .error
    var seed: UInt64 = 0
    /// Hide the findings this baseline file knows.
    var baseline: String?
    /// Write every finding's fingerprint to this file.
    var writeBaseline: String?

    /// Bad usage, which argument (an index into the words after the program
    /// name) it is about (nil: the end of the command line), and the usage to
    /// show with it (nil: the short overview).
    struct UsageError: Error {
        let message: String
        var argument: Int?
        var usage: CommandUsage?

        init(message: String, argument: Int? = nil, usage: CommandUsage? = nil) {
            self.message = message
            self.argument = argument
            self.usage = usage
        }

        /// `<command line>:1:COLUMN: error: MESSAGE`, the column being where
        /// the argument starts in `harness-cli WORD…` (as compilers report
        /// errors in their own arguments), so every input error reads alike.
        func diagnostic(_ words: [String]) -> String {
            var column = "harness-cli ".unicodeScalars.count + 1
            for word in words.prefix(argument ?? words.count) { column += word.unicodeScalars.count + 1 }
            return "<command line>:1:\(column): error: \(message)"
        }

        /// The diagnostic, then the usage of the command it is about.
        func text(_ words: [String]) -> String {
            diagnostic(words) + "\n\n" + (usage?.text ?? CommandUsage.shortOverview)
        }
    }

    /// An option as given: which, its value, and where each was.
    private struct GivenOption {
        let option: CommandOption
        let value: String
        let index: Int
        let valueIndex: Int
    }

    /// The words sorted out: operands (the command first) and options.
    private struct ScannedWords {
        var positional: [String] = []
        /// Where each positional word is in the words.
        var positionalIndexes: [Int] = []
        var options: [GivenOption] = []
        var wantsHelp = false
        var wantsVersion = false

        init(_ words: [String]) throws(UsageError) {
            var index = 0
            while index < words.count {
                let word = words[index]
                if word == "--" {
                    positional += words[(index + 1)...]
                    positionalIndexes += (index + 1)..<words.count
                    break
                }
                if word == "--help" || word == "-h" {
                    wantsHelp = true
                } else if word == "--version" {
                    wantsVersion = true
                } else if word.hasPrefix("-") && word != "-" {
                    // `--option=value` is the same as `--option value`.
                    let equals = word.hasPrefix("--") ? word.firstIndex(of: "=") : nil
                    let name = equals.map { String(word[..<$0]) } ?? word
                    guard let option = CommandOption.named(name) else {
                        throw UsageError(message: "unknown option '\(word)'", argument: index)
                    }
                    if let equals {
                        options.append(
                            GivenOption(
                                option: option, value: String(word[word.index(after: equals)...]),
                                index: index, valueIndex: index))
                    } else {
                        guard index + 1 < words.count else { throw UsageError(message: "\(name) needs a value") }
                        options.append(
                            GivenOption(
                                option: option, value: words[index + 1], index: index,
                                valueIndex: index + 1))
                        index += 1
                    }
                } else {
                    positional.append(word)
                    positionalIndexes.append(index)
                }
                index += 1
            }
        }
    }

    static func parse(_ words: [String]) throws(UsageError) -> Arguments {
        let scanned: ScannedWords
        do throws(UsageError) {
            scanned = try ScannedWords(words)
        } catch {
            // With the usage of the command the line names, when it names one.
            var error = error
            error.usage = words.lazy.compactMap(CommandUsage.init(rawValue:)).first
            throw error
        }
        let positional = scanned.positional, positionalIndexes = scanned.positionalIndexes
        let wantsHelp = scanned.wantsHelp, wantsVersion = scanned.wantsVersion
        if wantsVersion { return Arguments(command: .version) }
        guard let name = positional.first else {
            if wantsHelp { return Arguments(command: .help(nil)) }
            throw UsageError(message: "missing command")
        }
        guard let spec = CommandUsage(rawValue: name) else {
            throw UsageError(message: "unknown command '\(name)'", argument: positionalIndexes[0])
        }
        if wantsHelp { return Arguments(command: .help(spec)) }
        var arguments = Arguments(command: .version)
        do throws(UsageError) {
            arguments.command = try Self.command(spec, Array(positional.dropFirst()))
        } catch {
            // At the operand named (1 is the first after the command), else
            // at the command word when there are operands, else at the end.
            var error = error
            error.argument =
                error.argument.map { positionalIndexes[$0] }
                ?? (positional.count > 1 ? positionalIndexes[0] : nil)
            error.usage = error.usage ?? spec
            throw error
        }
        var given: [CommandOption] = []
        for option in scanned.options {
            guard spec.options.contains(option.option) else {
                throw UsageError(
                    message: "\(spec.name) does not take \(option.option.flag)", argument: option.index,
                    usage: spec)
            }
            // Each option once: a second value would silently replace the first.
            guard !given.contains(option.option) else {
                throw UsageError(message: "\(option.option.flag) is given twice", argument: option.index, usage: spec)
            }
            given.append(option.option)
            do throws(UsageError) {
                try arguments.set(option.option, option.value, formats: spec.formats)
            } catch {
                throw UsageError(message: error.message, argument: option.valueIndex, usage: spec)
            }
        }
        // A baseline may be rewritten in place (`--baseline F --write-baseline F`); nothing else read may be.
        if let output = arguments.output,
            let input = (arguments.inputs + [arguments.baseline].compactMap { $0 }).first(where: {
                Self.sameFile($0, output)
            })
        {
            throw UsageError(message: "--output '\(output)' would overwrite the input '\(input)'", usage: spec)
        }
        if let baseline = arguments.writeBaseline,
            let input = arguments.inputs.first(where: { Self.sameFile($0, baseline) })
        {
            throw UsageError(
                message: "--write-baseline '\(baseline)' would overwrite the input '\(input)'", usage: spec)
        }
        if let output = arguments.output, let baseline = arguments.writeBaseline, Self.sameFile(output, baseline) {
            throw UsageError(message: "--output and --write-baseline name the same file '\(output)'", usage: spec)
        }
        return arguments
    }

    /// The files and folders the command reads, but a baseline (a folder's
    /// files are not listed: no output can be a folder).
    private var inputs: [String] {
        switch command {
        case .run(let paths): paths
        case .analyze(let trace): [trace]
        case .merge(let reports): reports
        default: []
        }
    }

    /// Whether two paths name one file (`-` is standard output, never a file).
    private static func sameFile(_ first: String, _ second: String) -> Bool {
        guard first != "-", second != "-" else { return false }
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        return resolved(first) == resolved(second)
    }

    private mutating func set(_ option: CommandOption, _ text: String, formats: [Format]) throws(UsageError) {
        switch option {
        case .format:
            guard let parsed = Format(rawValue: text), formats.contains(parsed) else {
                throw UsageError(
                    message: "--format must be \(CommandUsage.list(formats.map(\.rawValue))), not '\(text)'")
            }
            format = parsed
        case .output, .baseline, .writeBaseline:
            guard !text.isEmpty else { throw UsageError(message: "\(option.flag) needs a path, not an empty word") }
            switch option {
            case .output: output = text
            case .baseline: baseline = text
            default: writeBaseline = text
            }
        case .failOn:
            guard let parsed = FailOn(rawValue: text) else {
                throw UsageError(message: "--fail-on must be error, warning, note or never, not '\(text)'")
            }
            failOn = parsed
        case .seed:
            // Digits only: no sign, no space (`UInt64` alone takes "+5" and "-0").
            guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let parsed = UInt64(text)
            else {
                throw UsageError(message: "--seed must be a whole number from 0 to \(UInt64.max), not '\(text)'")
            }
            seed = parsed
        }
    }

    /// The command's operands (the words after its name), checked. An
    /// error's `argument` counts the command word as 0.
    private static func command(_ spec: CommandUsage, _ operands: [String]) throws(UsageError) -> Command {
        // An empty word (`analyze ""`, an unset shell variable) would read as the current folder.
        if [.run, .analyze, .golden, .merge].contains(spec), let empty = operands.firstIndex(of: "") {
            throw UsageError(message: "a path is empty", argument: empty + 1)
        }
        switch spec {
        case .run:
            guard !operands.isEmpty else { throw UsageError(message: "run needs at least one scenario file or folder") }
            return .run(paths: operands)
        case .analyze:
            guard operands.count == 1 else {
                throw UsageError(message: "analyze takes exactly one trace file", argument: operands.isEmpty ? nil : 2)
            }
            return .analyze(trace: operands[0])
        case .golden:
            guard let action = operands.first, operands.count <= 2 else {
                throw UsageError(
                    message: "golden needs 'check' or 'update', and at most one folder",
                    argument: operands.isEmpty ? nil : 3)
            }
            let directory = operands.count == 2 ? operands[1] : "Golden"
            switch action {
            case "check": return .goldenCheck(directory: directory)
            case "update": return .goldenUpdate(directory: directory)
            default: throw UsageError(message: "golden needs 'check' or 'update', not '\(action)'", argument: 1)
            }
        case .merge:
            guard !operands.isEmpty else { throw UsageError(message: "merge needs at least one report file") }
            return .merge(reports: operands)
        case .rules:
            guard operands.isEmpty else { throw UsageError(message: "rules takes no arguments", argument: 1) }
            return .rules
        case .explain:
            guard operands.count == 1 else {
                throw UsageError(message: "explain takes exactly one rule id", argument: operands.isEmpty ? nil : 2)
            }
            return .explain(rule: operands[0])
        case .help:
            guard let name = operands.first else { return .help(nil) }
            guard let topic = CommandUsage(rawValue: name) else {
                throw UsageError(message: "no command named '\(name)'; `harness-cli help` lists them", argument: 1)
            }
            // `help golden check` reads as `help golden`.
            let isGoldenAction = topic == .golden && operands.count == 2 && ["check", "update"].contains(operands[1])
            guard operands.count == 1 || isGoldenAction else {
                throw UsageError(message: "help takes one command", argument: 2)
            }
            return .help(topic)
        }
    }
}

let version = "0.1.0"
