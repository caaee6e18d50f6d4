/// An invalid input file — a scenario, a trace, a report — as
/// `PATH:LINE:COLUMN: error: MESSAGE`, the form editors and CI logs link to
/// (`1:1` for a file that cannot be read at all).
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let line: Int
    public let column: Int
    public let message: String

    package init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// The compiler-style line editors and CI annotate: one line, whatever
    /// the input quoted in it holds (a line break in a field's name would
    /// start a line a CI problem matcher reads as an error of its own).
    public var description: String {
        EscapedText.oneLine("\(path):\(line):\(column): error: \(message)")
    }
}
