import Foundation

extension Scenario {
    static let format = "observer-harness-scenario"
    static let formatVersion = 1

    /// Limits that keep hostile files from exhausting memory or time.
    public struct Limits: Sendable {
        public var maxBytes = 4 << 20
        public var maxDepth = 64
        public var maxSteps = 10_000
        public var maxObjects = 2_000
        public init() {}
    }

    /// Reads and validates a scenario file.
    ///
    /// - Throws: ``InputError`` naming the path, line and column of the first
    ///   problem. The path is `url.relativePath`, so a file given relative to
    ///   the current directory is quoted as it was written.
    public static func load(contentsOf url: URL, limits: Limits = Limits()) throws(InputError) -> Scenario {
        let path = url.isFileURL ? url.relativePath : url.path
        let bytes = try InputFile.read(url, path: path, maxBytes: limits.maxBytes, what: "scenario file")
        return try parse(bytes, path: path, limits: limits)
    }

    /// Parses scenario JSON; `path` names the file in errors and default sites.
    public static func parse(_ bytes: [UInt8], path: String, limits: Limits = Limits()) throws(InputError) -> Scenario {
        let input = try JSONInput(
            bytes, path: path, limits: .init(maxDepth: limits.maxDepth, maxBytes: limits.maxBytes))
        var parser = ScenarioParser(input: input, limits: limits)
        return try parser.scenario()
    }
}
