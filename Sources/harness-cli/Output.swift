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
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
