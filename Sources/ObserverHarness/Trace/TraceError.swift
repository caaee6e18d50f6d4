/// The reader's name for the ``InputError`` a trace that cannot be read
/// throws: `line` is the JSON Lines line; `column` counts Unicode scalars.
typealias TraceError = InputError

/// Something a reader skipped or suspects, with the rest of the trace read:
/// a truncated last line, or fewer events than the header declares.
///
/// Its description is `PATH:LINE:1: warning: MESSAGE`.
public struct TraceWarning: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// The 1-based JSON Lines line the warning is about.
    public var line: Int
    public var message: String

    package init(path: String, line: Int, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String { "\(path):\(line):1: warning: \(message)" }
}

/// What ``Recording/readTrace(from:)`` read: the recording, the name its
/// header gave, and any warnings.
///
/// ```swift
/// let trace = try Recording.readTrace(from: url)
/// for warning in trace.warnings { print(warning) }
/// print(trace.analyze().jsonText())
/// ```
public struct TraceReadResult: Sendable {
    /// The name the trace's header gave (its reports' `scenario`).
    public var name: String
    public var recording: Recording
    public var warnings: [TraceWarning]

    package init(name: String, recording: Recording, warnings: [TraceWarning]) {
        self.name = name
        self.recording = recording
        self.warnings = warnings
    }

    /// The report for the recording, under the trace's name: the same report
    /// the recording gave in process.
    public func analyze() -> Report { recording.analyze(name: name) }
}
