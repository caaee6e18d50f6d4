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
        case help(topic: String?)
        case version
    }

    enum Format: String { case json, text, sarif, junit }

    var command: Command
    var format: Format?
    var output: String?
    var failOn: FailOn = .error
    var seed: UInt64 = 0
    /// Hide the findings this baseline file knows.
    var baseline: String?
    /// Write every finding's fingerprint to this file.
    var writeBaseline: String?

    enum FailOn: String { case error, warning, note, never }

    /// Bad usage, and which argument (an index into the words after the
    /// program name) it is about; nil means the end of the command line.
    struct UsageError: Error {
        let message: String
        var argument: Int?

        init(message: String, argument: Int? = nil) {
            self.message = message
            self.argument = argument
        }

        /// `<command line>:1:COLUMN: error: MESSAGE`, the column being where
        /// the argument starts in `harness-cli WORD…` (as compilers report
        /// errors in their own arguments), so every input error reads alike.
        func diagnostic(_ words: [String]) -> String {
            var column = "harness-cli ".unicodeScalars.count + 1
            for word in words.prefix(argument ?? words.count) { column += word.unicodeScalars.count + 1 }
            return "<command line>:1:\(column): error: \(message)"
        }
    }

    static func parse(_ words: [String]) throws(UsageError) -> Arguments {
        var positional: [String] = []
        /// Where each positional word is in `words`.
        var positionalIndexes: [Int] = []
        var format: Format?
        var output: String?
        var failOn = FailOn.error
        var seed: UInt64 = 0
        var baseline: String?
        var writeBaseline: String?
        var wantsHelp = false
        var wantsVersion = false
        var index = 0
        func value(for option: String) throws(UsageError) -> String {
            index += 1
            guard index < words.count else { throw UsageError(message: "\(option) needs a value") }
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            // `--option=value` is the same as `--option value`.
            var name = word
            var inline: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inline = String(word[word.index(after: equals)...])
            }
            func optionValue() throws(UsageError) -> String {
                if let inline { return inline }
                return try value(for: name)
            }
            do throws(UsageError) {
                switch name {
                case "--help", "-h": wantsHelp = true
                case "--version": wantsVersion = true
                case "--format":
                    let text = try optionValue()
                    guard let parsed = Format(rawValue: text) else {
                        throw UsageError(message: "--format must be json, text, sarif or junit, not '\(text)'")
                    }
                    format = parsed
                case "--output", "-o": output = try optionValue()
                case "--baseline": baseline = try optionValue()
                case "--write-baseline": writeBaseline = try optionValue()
                case "--fail-on":
                    let text = try optionValue()
                    guard let parsed = FailOn(rawValue: text) else {
                        throw UsageError(message: "--fail-on must be error, warning, note or never, not '\(text)'")
                    }
                    failOn = parsed
                case "--seed":
                    let text = try optionValue()
                    // Digits only: no sign, no space (`UInt64` alone takes "+5" and "-0").
                    guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                          let parsed = UInt64(text) else {
                        throw UsageError(message: "--seed must be a whole number from 0 to \(UInt64.max), not '\(text)'")
                    }
                    seed = parsed
                case "--":
                    positional += words[(index + 1)...]
                    positionalIndexes += (index + 1)..<words.count
                    index = words.count
                    continue
                default:
                    if word.hasPrefix("-") && word != "-" { throw UsageError(message: "unknown option '\(word)'") }
                    positional.append(word)
                    positionalIndexes.append(index)
                }
            } catch {
                // At the word being read: the option, its separate value, or
                // the end when the value is missing.
                var error = error
                error.argument = error.argument ?? min(index, words.count)
                throw error
            }
            index += 1
        }
        let command: Command
        if wantsVersion {
            command = .version
        } else if wantsHelp {
            command = .help(topic: positional.first)
        } else {
            do throws(UsageError) {
                command = try Self.command(positional)
            } catch {
                // At the word named, else at the command word (or the end, when missing).
                var error = error
                error.argument = error.argument.map { positionalIndexes[$0] } ?? positionalIndexes.first
                throw error
            }
        }
        return Arguments(command: command, format: format, output: output, failOn: failOn, seed: seed,
                         baseline: baseline, writeBaseline: writeBaseline)
    }

    private static func command(_ words: [String]) throws(UsageError) -> Command {
        guard let name = words.first else { throw UsageError(message: "missing command") }
        let rest = Array(words.dropFirst())
        switch name {
        case "run":
            guard !rest.isEmpty else { throw UsageError(message: "run needs at least one scenario file or folder") }
            return .run(paths: rest)
        case "analyze":
            guard rest.count == 1 else {
                throw UsageError(message: "analyze takes exactly one trace file", argument: rest.isEmpty ? nil : 2)
            }
            return .analyze(trace: rest[0])
        case "golden":
            guard let action = rest.first, rest.count <= 2 else {
                throw UsageError(message: "golden needs 'check' or 'update', and at most one folder")
            }
            let directory = rest.count == 2 ? rest[1] : "Golden"
            switch action {
            case "check": return .goldenCheck(directory: directory)
            case "update": return .goldenUpdate(directory: directory)
            default: throw UsageError(message: "golden needs 'check' or 'update', not '\(action)'", argument: 1)
            }
        case "merge":
            guard !rest.isEmpty else { throw UsageError(message: "merge needs at least one report file") }
            return .merge(reports: rest)
        case "rules":
            guard rest.isEmpty else { throw UsageError(message: "rules takes no arguments", argument: 1) }
            return .rules
        case "explain":
            guard rest.count == 1 else {
                throw UsageError(message: "explain takes exactly one rule id", argument: rest.isEmpty ? nil : 2)
            }
            return .explain(rule: rest[0])
        case "help":
            return .help(topic: rest.first)
        default:
            throw UsageError(message: "unknown command '\(name)'", argument: 0)
        }
    }
}

let version = "0.1.0"

let usage = """
    OVERVIEW: find observer-pattern misuse: replay scenarios, analyse traces, compare golden reports.

    USAGE: harness-cli <command> [options]

    COMMANDS:
      run PATH...            replay scenario files (a folder: every *.scenario.json under it)
      analyze TRACE          analyse a trace recorded by the library (JSON Lines)
      golden check [DIR]     compare every scenario's report with its golden file (default DIR: Golden)
      golden update [DIR]    rewrite the golden reports
      merge REPORT...        combine JSON reports (from sharded runs) into one report set
      rules                  list the rules
      explain RULE           what a rule means, why it matters, how to fix it

    OPTIONS:
      --format json|text|sarif|junit
                                output format (default: text on a terminal, json otherwise)
      --output FILE             write the report to FILE (atomically) instead of standard output
      --fail-on error|warning|note|never
                                exit 1 when a finding is at least this severe (default: error)
      --seed N                  seed for sampled orders (default: 0)
      --baseline FILE           hide the findings FILE already knows (by fingerprint); report only new ones
      --write-baseline FILE     write the fingerprints of every finding to FILE
      --help, --version

    EXIT STATUS: 0 no finding at or above --fail-on; 1 such findings, or a golden mismatch;
                 2 bad usage or invalid input.
    """
