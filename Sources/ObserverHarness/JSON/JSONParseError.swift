/// A syntax error in a JSON document, with its position.
///
/// The description has the form `LINE:COLUMN: MESSAGE`, so a caller that knows
/// the file can print `PATH:` followed by it.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in lower case without a trailing period; for example
    /// `expected ',' or '}' after object member`.
    package var message: String

    /// The byte offset at which the error was detected.
    package var offset: Int

    /// The 1-based line of `offset`.
    package var line: Int

    /// The 1-based column of `offset`, counted in Unicode scalars.
    package var column: Int

    /// Creates an error.
    package init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    package var description: String {
        "\(line):\(column): \(message)"
    }
}

/// A parse error before its line and column are known; computing those is
/// deferred because most parses succeed.
struct JSONSyntaxError: Error {
    var message: String
    var offset: Int
}

extension JSONParseError {
    init(_ error: JSONSyntaxError, in bytes: UnsafeBufferPointer<UInt8>) {
        let position = JSONSourceText.position(in: bytes, ofOffset: error.offset)
        self.init(message: error.message, offset: error.offset, line: position.line, column: position.column)
    }
}
