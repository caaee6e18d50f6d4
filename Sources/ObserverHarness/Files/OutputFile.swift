/// Writes a result file the way `--output`, `--write-baseline` and
/// `golden update` promise: a regular file (or a new one) is replaced
/// atomically, through a temporary file in the same folder and a rename, so
/// a reader never sees half a file; a device or a FIFO is written in place
/// (renaming over `/dev/null` would replace the device); a symbolic link is
/// followed to its target, which is then treated the same way; a folder is
/// an error.
///
/// The temporary file is `.NAME.harness-tmp-PID-RANDOM`. A run that is
/// killed between writing and renaming leaves it behind; the next write to
/// the same file removes those whose process no longer runs.
package enum OutputFile {
    static let temporaryMarker = ".harness-tmp-"

    /// How many links are followed before giving up (the kernel's own bound).
    static let maxLinkHops = 32

    package static func write(_ text: String, to path: String) throws(SystemError) {
        try write(.text(text), to: path)
    }

    package static func write(_ contents: OutputContents, to path: String) throws(SystemError) {
        let target = try resolveLinks(path)
        switch try FileSystem.kind(target) {
        case .folder:
            throw .isFolder
        case .other:
            let descriptor = try FileSystem.openForWriting(target, create: false)
            do throws(SystemError) {
                try contents.write(to: descriptor)
            } catch {
                try? FileSystem.close(descriptor)
                throw error
            }
            try FileSystem.close(descriptor)
        case .missing, .regular, .symbolicLink:
            try replace(target, with: contents)
        }
    }

    /// The file a chain of symbolic links ends at (the path itself when it is none).
    static func resolveLinks(_ path: String) throws(SystemError) -> String {
        var current = path
        for _ in 0..<maxLinkHops {
            guard try FileSystem.kind(current) == .symbolicLink else { return current }
            let destination = try FileSystem.readLink(current)
            current = destination.hasPrefix("/") ? destination : folder(of: current) + "/" + destination
        }
        throw .tooManyLinks
    }

    private static func replace(_ target: String, with contents: OutputContents) throws(SystemError) {
        let folder = folder(of: target)
        let name = String(target.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        let prefix = "." + name + temporaryMarker
        removeStaleTemporaries(in: folder, prefix: prefix)
        let temporary =
            folder + "/" + prefix + "\(FileSystem.processID)-"
            + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let descriptor = try FileSystem.openForWriting(temporary, create: true)
        do throws(SystemError) {
            // A replaced file keeps its permissions; a new one gets 0666 less the umask.
            if let mode = FileSystem.mode(target) { FileSystem.setMode(descriptor, mode) }
            try contents.write(to: descriptor)
            try FileSystem.close(descriptor)
        } catch {
            try? FileSystem.close(descriptor)
            FileSystem.remove(temporary)
            throw error
        }
        do throws(SystemError) {
            try FileSystem.rename(temporary, to: target)
        } catch {
            FileSystem.remove(temporary)
            throw error
        }
    }

    /// Removes `PREFIX` + `PID-…` files left by processes that no longer run.
    private static func removeStaleTemporaries(in folder: String, prefix: String) {
        for name in FileSystem.names(in: folder) where name.hasPrefix(prefix) {
            let owner = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let id = Int32(owner), !FileSystem.processIsRunning(id) else { continue }
            FileSystem.remove(folder + "/" + name)
        }
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// What a result holds: text, or UTF-8 bytes already made, so a large JSON
/// report is written without a `String` copy of its bytes.
package enum OutputContents: Sendable {
    case text(String)
    case bytes([UInt8])

    package func write(to descriptor: Int32) throws(SystemError) {
        switch self {
        case .text(let text): try StandardStreams.write(text, to: descriptor)
        case .bytes(let bytes): try StandardStreams.write(bytes, to: descriptor)
        }
    }
}
