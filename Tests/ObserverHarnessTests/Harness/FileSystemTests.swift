import Foundation
import Testing

@testable import ObserverHarness

/// The POSIX calls behind output files.
@Suite struct FileSystemTests {
    /// A folder large enough that readdir fills its buffer more than once, so
    /// some record ends right at a buffer's end. Reading a name by copying the
    /// whole `dirent` read past that end; AddressSanitizer (`.ci/sanitizers
    /// address`) reported it, and `--output` into a crowded /tmp died with it.
    @Test func namesListsEveryEntryOfALargeFolderExactly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Names of every length from 1 to 40, so record sizes vary.
        let names = (0..<3_000).map { index in
            String(index) + "-" + String(repeating: "n", count: index % 40) + (index % 7 == 0 ? "é" : "")
        }
        for name in names {
            #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil))
        }
        #expect(FileSystem.names(in: folder.path).sorted() == names.sorted())
    }

    @Test func namesOfAMissingFolderIsEmpty() {
        #expect(FileSystem.names(in: "/no/such/folder/\(UUID().uuidString)").isEmpty)
    }
}
