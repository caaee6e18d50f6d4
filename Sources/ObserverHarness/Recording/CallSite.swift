/// Where in the user's code something happened: a `#fileID` and line, or the
/// `"site"` a scenario step names. A finding's only location.
///
/// ```swift
/// for finding in harness.analyze().findings {
///     if let site = finding.site { print("\(site): \(finding.message)") }   // ShopApp/Cart.swift:42: …
/// }
/// ```
public struct CallSite: Hashable, Sendable, CustomStringConvertible {
    /// `Module/File.swift` for code, or whatever file name a scenario gave.
    public var file: String
    public var line: Int
    public var column: Int
    /// The caller's location as test frameworks need it (`#filePath`), when
    /// recorded in process: test failures are reported there. Not part of equality.
    package var codeLocation: CodeLocation?

    public init(file: String, line: Int, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The site the caller's location names, keeping the location when it is
    /// a line of source (not a stand-in such as a post made straight on
    /// Foundation's center, which has no line a test framework could show).
    package init(_ location: CodeLocation) {
        self.init(file: "\(location.fileID)", line: Int(location.line), column: Int(location.column))
        if Self.isSourceLine(location) { codeLocation = location }
    }

    public static func == (lhs: CallSite, rhs: CallSite) -> Bool {
        lhs.line == rhs.line && lhs.column == rhs.column && lhs.file == rhs.file
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(column)
    }

    /// Captures the caller's location; pass it through from a public API's
    /// `#fileID`/`#line` defaults.
    public init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
        self.init(file: "\(fileID)", line: Int(line), column: Int(column))
    }

    /// Parses `"File.swift:LINE"` (and `FILE:LINE:COLUMN`); nil for anything else.
    public init?(parsing text: String) {
        self.init(parsing: text, lowestLine: 1)
    }

    /// Parses as ``init(parsing:)`` does, taking lines from `lowestLine` up: a
    /// report's site may be line 0 (a post made straight on Foundation's
    /// center is sited at `NotificationCenter.default:0`), a scenario's may not.
    package init?(parsing text: String, lowestLine: Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]),
            line >= lowestLine, column >= 0
        {
            self.init(file: parts.dropLast(2).joined(separator: ":"), line: line, column: column)
        } else if parts.count >= 2, let line = Int(parts[parts.count - 1]), line >= lowestLine {
            self.init(file: parts.dropLast().joined(separator: ":"), line: line)
        } else {
            return nil
        }
    }

    /// `File.swift:LINE`, the form reports quote.
    public var description: String { "\(file):\(line)" }
}

extension CodeLocation {
    var callSite: CallSite { CallSite(file: "\(fileID)", line: Int(line), column: Int(column)) }
}

/// A call site as registries receive it: the caller's location (interned on
/// use), or a site a scenario step already interned.
enum SiteReference {
    case location(CodeLocation)
    case interned(UInt32)
}

extension CallSite {
    /// Whether `location` names a line of a source file, as `#fileID` and
    /// `#line` give: Swift Testing stops the process on any other location.
    package static func isSourceLine(_ location: CodeLocation) -> Bool {
        location.line > 0 && location.fileID.withUTF8Buffer { $0.contains(UInt8(ascii: "/")) }
    }
}
