// The POSIX calls behind writing files and standard streams, so the policy
// (``OutputFile``) and the command line stay free of platform imports.
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed system call, by its `errno`, with a message in plain English.
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    package let code: Int32

    package init(code: Int32) { self.code = code }

    /// The current `errno`.
    static var last: SystemError { SystemError(code: errno) }

    static let isFolder = SystemError(code: EISDIR)
    static let tooManyLinks = SystemError(code: ELOOP)

    package var description: String { message }

    /// What went wrong, lower case, for `cannot write FILE: …`.
    package var message: String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case ENOENT: "no such file or folder"
        case ENOTDIR: "a part of the path is not a folder"
        case EISDIR: "it is a folder"
        case ENOSPC: "no space left on the device"
        case EDQUOT: "the disk quota is used up"
        case EROFS: "the file system is read-only"
        case EPIPE: "the reading end of the pipe is closed"
        case EBADF: "it is closed"
        case EIO: "input/output error"
        case ENAMETOOLONG: "the name is too long"
        case ELOOP: "too many symbolic links"
        case ENXIO: "no process is reading it"
        case EFBIG: "the file is too large"
        case ETXTBSY: "the file is busy"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}

/// The kinds of file the output policy tells apart.
package enum FileKind: Sendable, Equatable {
    case missing, regular, folder, symbolicLink, other
}

package enum FileSystem {
    /// What `path` itself is (a link is not followed).
    package static func kind(_ path: String) throws(SystemError) -> FileKind {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return .missing }
            throw .last
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .folder
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// The permission bits of an existing file.
    package static func mode(_ path: String) -> UInt32? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return UInt32(status.st_mode) & 0o7777
    }

    package static func readLink(_ path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw .last }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Opens for writing. `create` makes a new file that must not exist yet
    /// (a temporary file); otherwise the file is written in place from its start.
    package static func openForWriting(_ path: String, create: Bool, mode: UInt32 = 0o666)
        throws(SystemError) -> Int32
    {
        while true {
            let flags = create ? (O_WRONLY | O_CREAT | O_EXCL) : (O_WRONLY | O_TRUNC)
            let descriptor = open(path, flags | O_CLOEXEC, mode_t(mode))
            if descriptor >= 0 { return descriptor }
            if errno != EINTR { throw .last }
        }
    }

    /// Writes every byte, retrying short and interrupted writes.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw .last
            }
            offset += written
        }
    }

    package static func close(_ descriptor: Int32) throws(SystemError) {
        #if canImport(Darwin)
            guard Darwin.close(descriptor) == 0 || errno == EINTR else { throw .last }
        #elseif canImport(Glibc)
            guard Glibc.close(descriptor) == 0 || errno == EINTR else { throw .last }
        #else
            guard Musl.close(descriptor) == 0 || errno == EINTR else { throw .last }
        #endif
    }

    package static func setMode(_ descriptor: Int32, _ mode: UInt32) {
        _ = fchmod(descriptor, mode_t(mode))
    }

    package static func rename(_ from: String, to: String) throws(SystemError) {
        #if canImport(Darwin)
            guard Darwin.rename(from, to) == 0 else { throw .last }
        #elseif canImport(Glibc)
            guard Glibc.rename(from, to) == 0 else { throw .last }
        #else
            guard Musl.rename(from, to) == 0 else { throw .last }
        #endif
    }

    package static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// Names in a folder (not `.` and `..`); empty when it cannot be read.
    package static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        // `d_name` is read in place, up to its NUL: a record is only as long as
        // its name, so copying the struct (its whole 256-byte `d_name`) reads
        // past the end of the last record in readdir's buffer.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    package static var processID: Int32 { getpid() }

    /// Whether a process with this id still runs (a temporary file's owner).
    package static func processIsRunning(_ id: Int32) -> Bool {
        id > 0 && (kill(id, 0) == 0 || errno == EPERM)
    }
}

/// Standard output and error, written with write(2) so a closed or full
/// stream is an error the caller handles, never a trap.
package enum StandardStreams {
    package static let output: Int32 = 1
    package static let error: Int32 = 2

    /// Ignores SIGPIPE, so a closed pipe is an EPIPE error, not a silent
    /// death; and parks `/dev/null` (read-only) on any of descriptors 0–2
    /// that is closed, so no file opened later takes its number and writes
    /// meant for the stream fail with EBADF instead of landing in that file.
    package static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
            let placeholder = open("/dev/null", O_RDONLY)
            // The lowest free number: `descriptor` itself, as 0–2 are filled in order.
            if placeholder >= 0 && placeholder != descriptor {
                _ = dup2(placeholder, descriptor)
                try? FileSystem.close(placeholder)
            }
        }
    }

    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    package static func write(_ bytes: [UInt8], to descriptor: Int32) throws(SystemError) {
        let result: Result<Void, SystemError> = bytes.withUnsafeBytes { buffer in
            do throws(SystemError) {
                try FileSystem.writeAll(descriptor, buffer)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    package static func write(_ text: String, to descriptor: Int32) throws(SystemError) {
        var text = text
        let result: Result<Void, SystemError> = text.withUTF8 { buffer in
            do throws(SystemError) {
                try FileSystem.writeAll(descriptor, UnsafeRawBufferPointer(buffer))
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
