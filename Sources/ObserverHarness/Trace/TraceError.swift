/// A trace that cannot be read: bad JSON, an unknown kind or version, an id
/// no table defines, events out of order, or a file that cannot be opened.
///
/// Its description is `PATH:LINE:COLUMN: error: MESSAGE`, the form editors
/// and CI logs link to (`1:1` for a file that cannot be read at all).
public struct TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the caller named it.
    public var path: String
    /// The 1-based JSON Lines line.
    public var line: Int
    /// The 1-based column (Unicode scalars) within ``line``.
    public var column: Int
    /// What is wrong, in lower case without a trailing period.
    public var message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(path):\(line):\(column): error: \(message)" }
}

/// Something a reader skipped or suspects, with the rest of the trace read:
/// a truncated last line, or fewer events than the header declares.
///
/// Its description is `PATH:LINE:1: warning: MESSAGE`.
public struct TraceWarning: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// The 1-based JSON Lines line the warning is about.
    public var line: Int
    public var message: String

    public init(path: String, line: Int, message: String) {
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

    public init(name: String, recording: Recording, warnings: [TraceWarning]) {
        self.name = name
        self.recording = recording
        self.warnings = warnings
    }

    /// The report for the recording, under the trace's name: the same report
    /// the recording gave in process.
    public func analyze() -> Report { recording.analyze(name: name) }
}
