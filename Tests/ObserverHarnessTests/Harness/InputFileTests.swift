import Foundation
import Testing

@testable import ObserverHarness

/// Every input file is read with a bound, so a file that is too
/// large or never ends costs at most the bound, and a path that is not a
/// file is an error at `PATH:1:1`.
@Suite struct InputFileTests {
    private func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url
    }

    private func readError(_ url: URL, maxBytes: Int) -> InputError? {
        do {
            let bytes = try InputFile.read(url, path: url.path, maxBytes: maxBytes, what: "thing")
            Issue.record("expected an InputError, read \(bytes.count) bytes")
            return nil
        } catch {
            return error
        }
    }

    @Test func aFileUpToTheLimitIsReadWhole() throws {
        let url = try temporaryFile(Array(repeating: 7, count: 3_000_000))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try InputFile.read(url, path: "p", maxBytes: 3_000_000, what: "thing").count == 3_000_000)
    }

    @Test func oneByteOverTheLimitIsAnErrorAtTheStartOfTheFile() throws {
        let url = try temporaryFile(Array(repeating: 7, count: 1025))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(
            readError(url, maxBytes: 1024)?.description
                == "\(url.path):1:1: error: the thing is larger than 1 KiB, the limit")
    }

    @Test func anEndlessDeviceStopsAtTheLimit() {
        let error = readError(URL(fileURLWithPath: "/dev/zero"), maxBytes: 1000)
        #expect(error?.description == "/dev/zero:1:1: error: the thing is larger than 1000 bytes, the limit")
    }

    @Test func aPipeIsReadLikeAFile() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("{}\n".utf8))
        try pipe.fileHandleForWriting.close()
        let url = URL(fileURLWithPath: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)")
        #expect(try InputFile.read(url, path: "p", maxBytes: 100, what: "thing") == Array("{}\n".utf8))
    }

    @Test func aFolderOrAMissingFileIsAnErrorNotACrash() throws {
        let folder = FileManager.default.temporaryDirectory
        #expect(
            readError(folder, maxBytes: 10)?.description
                == "\(folder.path):1:1: error: cannot read the thing: it is a folder, not a file")
        let missing = folder.appendingPathComponent("no-such-\(UUID().uuidString)")
        #expect(
            readError(missing, maxBytes: 10)?.description
                == "\(missing.path):1:1: error: cannot read the thing: no such file")
    }

    @Test func sizesAreDescribedInTheirLargestWholeUnit() {
        #expect(InputBytes.describeSize(1 << 30) == "1 GiB")
        #expect(InputBytes.describeSize(4 << 20) == "4 MiB")
        #expect(InputBytes.describeSize(16 << 10) == "16 KiB")
        #expect(InputBytes.describeSize(1000) == "1000 bytes")
        #expect(InputBytes.describeSize(1) == "1 byte")
    }
}
