import ObserverHarness

/// Where the command's result and its diagnostics go. Both streams are
/// written with write(2): a closed or full stream is an error that ends the
/// run with exit status 2, never a trap.
final class Output {
    /// Standard output, or the `--output` file.
    let file: String?
    /// A diagnostic could not be written: the run must not look successful.
    private(set) var errorStreamFailed = false

    init(file: String?) {
        self.file = file
    }

    var isTerminal: Bool { file == nil && StandardStreams.isTerminal(StandardStreams.output) }

    /// Writes the result. `escaping` replaces control characters from the
    /// input, for text a terminal shows; JSON, SARIF and JUnit escape their own.
    func write(_ text: String, escaping: Bool) throws(SystemError) {
        try write(.text(text), escaping: escaping)
    }

    func write(_ contents: OutputContents, escaping: Bool) throws(SystemError) {
        var contents = contents
        if escaping, case .text(let text) = contents { contents = .text(TerminalText.escapingControls(text)) }
        if let file {
            try OutputFile.write(contents, to: file)
        } else {
            try contents.write(to: StandardStreams.output)
        }
    }

    /// A diagnostic on standard error, control characters escaped.
    func error(_ text: String) {
        let line = TerminalText.escapingControls(text.hasSuffix("\n") ? text : text + "\n")
        do { try StandardStreams.write(line, to: StandardStreams.error) } catch { errorStreamFailed = true }
    }

    /// The diagnostic for a result that could not be written.
    func writeFailure(_ error: SystemError, what: String) -> String {
        if let file { return "\(file):1:1: error: cannot write the \(what): \(error.message)" }
        return "harness-cli: error: cannot write the \(what) to standard output: \(error.message)"
    }
}

/// Text safe to show on a terminal.
enum TerminalText {
    /// Control characters (but newline and tab), DEL, the C1 controls and
    /// the bidirectional controls (overrides, isolates and marks) become
    /// `\u{1B}`: a scenario cannot retitle the terminal, clear it or reorder
    /// what it shows.
    static func escapingControls(_ text: String) -> String {
        EscapedText.escaping(text, where: needsEscape)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }
}
