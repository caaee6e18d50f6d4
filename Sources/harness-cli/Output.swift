import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command's result and its diagnostics go.
struct Output {
    /// Standard output, or the `--output` file (written atomically at the end).
    let file: String?

    var isTerminal: Bool { file == nil && isatty(STDOUT_FILENO) == 1 }

    func write(_ text: String) throws {
        if let file {
            try Self.writeAtomically(text, to: file)
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// A temporary file beside `path`, then a rename: a reader never sees half a file.
    static func writeAtomically(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
