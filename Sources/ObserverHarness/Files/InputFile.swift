import Foundation

/// Reads the files the harness is handed — scenarios, traces, reports,
/// baselines, golden files — without trusting them.
///
/// At most `maxBytes` are read (plus one, to notice more), so a file that is
/// too large, `/dev/zero` or an endless pipe ends in an ``InputError`` instead
/// of exhausting memory; a folder or an unreadable file is an error at `1:1`.
/// Pipes and process substitutions (`<(…)`) work like files.
package enum InputFile {
    /// Why nothing is at `path`: missing, or a link that leads to no file.
    package static func missingReason(_ path: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil
            ? "no such file" : "it is a symbolic link that leads to no file (a missing target, or a loop of links)"
    }

    static func read(_ url: URL, path: String, maxBytes: Int, what: String) throws(InputError) -> [UInt8] {
        func failure(_ message: String) -> InputError {
            InputError(path: path, line: 1, column: 1, message: message)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw failure("cannot read the \(what): \(missingReason(url.path))")
        }
        guard !isFolder.boolValue else { throw failure("cannot read the \(what): it is a folder, not a file") }
        guard let file = ReadableFile(path: url.path) else {
            throw failure("cannot read the \(what): \(ReadableFile.lastError)")
        }
        defer { file.closeFile() }
        let tooLarge = failure("the \(what) is larger than \(InputBytes.describeSize(maxBytes)), the limit")
        // Up to `capacity` bytes, or fewer at the end of the file.
        func next(_ capacity: Int) throws(InputError) -> [UInt8] {
            var failed = false
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = 0
                while count < capacity {
                    let rest = UnsafeMutableBufferPointer(rebasing: buffer[count...])
                    guard let read = file.readSome(into: UnsafeMutableRawBufferPointer(rest))
                    else { failed = true; return }
                    if read == 0 { return }
                    count += read
                }
            }
            if failed { throw failure("cannot read the \(what): \(ReadableFile.lastError)") }
            return bytes
        }
        // A regular file's size is known: refused unread when too large, else
        // read in one go (one byte more notices a file that is growing).
        var bytes: [UInt8] = []
        if let size = file.regularFileSize {
            guard size <= maxBytes else { throw tooLarge }
            bytes = try next(size + 1)
            if bytes.count <= size { return bytes }
        }
        // A pipe, a device, a growing file: a chunk at a time, up to the limit.
        while bytes.count <= maxBytes {
            let chunk = try next(min(1 << 20, maxBytes + 1 - bytes.count))
            if chunk.isEmpty { break }
            bytes += chunk
        }
        guard bytes.count <= maxBytes else { throw tooLarge }
        return bytes
    }
}
