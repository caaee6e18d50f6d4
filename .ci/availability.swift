// Finds uses of Apple APIs above a package's platform floor that no
// `@available`, `if #available` or `guard #available` scope covers, from a
// maintained table (.ci/availability-table.txt). Used by `.ci/availability`;
// needs only the toolchain, and runs on Linux, where the compiler cannot see
// these mistakes.
//
//     availability TABLE PATH...        check every .swift file under PATH
//                                       (floor: the nearest Package.swift)
//     availability TABLE --self-test DIR
//                                       run the fixtures in DIR: each names its
//                                       manifest on its first line and marks with
//                                       `// ✗` every line that must be reported
//
// It reads code, not types: a name in the table is matched wherever it appears
// outside comments and string literals, and scopes are found from braces.
import Foundation

let platforms = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]

/// SwiftPM's floor for a package that declares no `platforms:` (swift-tools-version 6).
let swiftPMDefaultFloor: [String: Version] = [
    "macOS": Version("10.13"), "iOS": Version("12.0"), "tvOS": Version("12.0"),
    "watchOS": Version("4.0"), "visionOS": Version("1.0"),
]

struct Version: Comparable, CustomStringConvertible {
    var parts: [Int]
    init(_ text: String) { parts = text.split(separator: ".").map { Int($0) ?? 0 } }
    init(parts: [Int]) { self.parts = parts }
    static let unavailableEverywhere = Version(parts: [Int.max])
    static func < (a: Version, b: Version) -> Bool {
        for index in 0..<max(a.parts.count, b.parts.count) {
            let (x, y) = (index < a.parts.count ? a.parts[index] : 0, index < b.parts.count ? b.parts[index] : 0)
            if x != y { return x < y }
        }
        return false
    }
    static func == (a: Version, b: Version) -> Bool { !(a < b) && !(b < a) }
    var description: String { parts.count == 1 ? "\(parts[0]).0" : parts.map(String.init).joined(separator: ".") }
}

/// What a scope guarantees: the lowest version per platform (absent: the floor).
typealias Gate = [String: Version]

func merged(_ a: Gate, _ b: Gate) -> Gate { a.merging(b) { max($0, $1) } }

struct Entry {
    let pattern: NSRegularExpression
    let source: String
    /// nil: unavailable on that platform.
    let versions: [String: Version?]
    let what: String
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("availability: \(message)\n".utf8))
    exit(2)
}

func readTable(_ path: String) -> [Entry] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    var entries: [Entry] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = fields.first, !first.hasPrefix("#") else { continue }
        guard fields.count >= 7,
            let pattern = try? NSRegularExpression(pattern: first, options: [.anchorsMatchLines])
        else { fail("\(path):\(index + 1): expected PATTERN and five versions, then a description") }
        var versions: [String: Version?] = [:]
        for (platform, field) in zip(platforms, fields[1...5]) {
            versions[platform] = field == "-" ? nil : Version(field)
        }
        entries.append(
            Entry(pattern: pattern, source: first, versions: versions, what: fields[6...].joined(separator: " ")))
    }
    return entries
}

/// The floor a manifest declares in `platforms:`, or SwiftPM's default.
func floor(ofManifest path: String) -> Gate {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    let declared = try! NSRegularExpression(pattern: #"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+)(?:_(\d+))?\)"#)
    var floor = swiftPMDefaultFloor
    for match in declared.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        let group = { (index: Int) -> String? in Range(match.range(at: index), in: text).map { String(text[$0]) } }
        floor[group(1)!] = Version("\(group(2)!).\(group(3) ?? "0")")
    }
    return floor
}

/// The text with comments and string literals blanked out (newlines kept), so
/// offsets and line numbers stay those of the file.
func code(of text: String) -> [UInt8] {
    var bytes = Array(text.utf8)
    var index = 0
    func blank(_ range: Range<Int>) {
        for position in range where bytes[position] != UInt8(ascii: "\n") { bytes[position] = UInt8(ascii: " ") }
    }
    func starts(_ literal: String, at position: Int) -> Bool {
        let pattern = Array(literal.utf8)
        return position + pattern.count <= bytes.count && Array(bytes[position..<position + pattern.count]) == pattern
    }
    while index < bytes.count {
        if starts("//", at: index) {
            var end = index
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            blank(index..<end)
            index = end
        } else if starts("/*", at: index) {
            var depth = 0, end = index
            repeat {
                if starts("/*", at: end) {
                    depth += 1
                    end += 2
                } else if starts("*/", at: end) {
                    depth -= 1
                    end += 2
                } else {
                    end += 1
                }
            } while depth > 0 && end < bytes.count
            blank(index..<end)
            index = end
        } else if bytes[index] == UInt8(ascii: "#") || bytes[index] == UInt8(ascii: "\"") {
            // A string literal, raw (`#"…"#`) or not, single- or multi-line.
            var hashes = 0, start = index
            while start < bytes.count && bytes[start] == UInt8(ascii: "#") {
                hashes += 1
                start += 1
            }
            guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else {
                index = start + (hashes == 0 ? 1 : 0)
                continue
            }
            let multiline = starts("\"\"\"", at: start)
            let close = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
            var end = start + (multiline ? 3 : 1)
            while end < bytes.count && !starts(close, at: end) {
                if hashes == 0 && bytes[end] == UInt8(ascii: "\\") { end += 1 }
                if !multiline && bytes[end] == UInt8(ascii: "\n") { break }
                end += 1
            }
            end = min(end + close.utf8.count, bytes.count)
            blank(index..<end)
            index = end
        } else {
            index += 1
        }
    }
    return bytes
}

/// The platform versions an `@available(…)` or `#available(…)` argument list
/// guarantees; `*, unavailable` guarantees everything.
func gate(fromArguments arguments: String) -> Gate {
    let items = arguments.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    var gate: Gate = [:]
    if items.first == "*" {
        if items.contains("unavailable") { for platform in platforms { gate[platform] = .unavailableEverywhere } }
        return gate
    }
    if items.count >= 2, platforms.contains(items[0]) {  // the long form: `macOS, introduced: 14`
        if items[1] == "unavailable" { gate[items[0]] = .unavailableEverywhere }
        for item in items.dropFirst() where item.hasPrefix("introduced:") {
            gate[items[0]] = Version(item.dropFirst("introduced:".count).trimmingCharacters(in: .whitespaces))
        }
        return gate
    }
    for item in items {
        let words = item.split(separator: " ")
        if words.count == 2, platforms.contains(String(words[0])) { gate[String(words[0])] = Version(String(words[1])) }
    }
    return gate
}

struct Finding: CustomStringConvertible {
    let file: String
    let line: Int
    let column: Int
    let message: String
    var description: String { "\(file):\(line):\(column): error: \(message)" }
}

/// The uses in one file that no gate covers.
func check(file: String, floor: Gate, entries: [Entry]) -> [Finding] {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { fail("cannot read \(file)") }
    // A newline first, so a directive on the first line reads as one on any other.
    let bytes = code(of: "\n" + text)
    let stripped = String(decoding: bytes, as: UTF8.self)
    let range = NSRange(stripped.startIndex..., in: stripped)
    var uses: [(offset: Int, entry: Entry, name: String)] = []
    for entry in entries {
        for match in entry.pattern.matches(in: stripped, range: range) {
            let matched = Range(match.range, in: stripped)!
            let offset = stripped.utf8.distance(from: stripped.startIndex, to: matched.lowerBound)
            uses.append((offset, entry, stripped[matched].trimmingCharacters(in: .whitespaces)))
        }
    }
    uses.sort { $0.offset < $1.offset }

    struct Scope {
        var gate: Gate
        var parens = 0
        /// Set on a `guard #available … else { … }` block: the rest of the
        /// enclosing scope gets it when the block closes.
        var guardGate: Gate?
    }
    var scopes = [Scope(gate: [:])]
    var declarationGate: (gate: Gate, boundAt: Int?)?
    var conditionGate: (gate: Gate, isGuard: Bool)?
    var statementKeyword = ""
    var conditions: [String] = []  // the `#if` conditions around this point
    var findings: [Finding] = []
    var line = 0, lineStart = 0, index = 0, nextUse = 0
    let declarationKeywords: Set<String> = [
        "func", "var", "let", "init", "deinit", "subscript", "struct", "class", "enum", "extension", "protocol",
        "actor", "typealias", "case", "macro",
    ]

    func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }
    /// The text between the parenthesis at `open` and its match; the index after it.
    func arguments(from open: Int) -> (String, Int) {
        var depth = 0, end = open
        repeat {
            if bytes[end] == UInt8(ascii: "(") { depth += 1 }
            if bytes[end] == UInt8(ascii: ")") { depth -= 1 }
            end += 1
        } while depth > 0 && end < bytes.count
        return (String(decoding: bytes[(open + 1)..<max(open + 1, end - 1)], as: UTF8.self), end)
    }
    func report(_ use: (offset: Int, entry: Entry, name: String)) {
        // Code built only off Apple's systems (`#if !canImport(Darwin)`, or the
        // `#else` of `#if canImport(Darwin)`) needs no Apple version.
        if conditions.contains("!canImport(Darwin)") { return }
        var guaranteed = scopes.last!.gate
        if let declarationGate { guaranteed = merged(guaranteed, declarationGate.gate) }
        var missing: [String] = []
        var unavailableOn: [String] = []
        for platform in platforms {
            guard let needed = use.entry.versions[platform] else { continue }
            guard let needed else {
                unavailableOn.append(platform)
                continue
            }
            let has = max(guaranteed[platform] ?? floor[platform]!, floor[platform]!)
            if has < needed { missing.append("\(platform) \(needed) (this scope: \(has))") }
        }
        if !unavailableOn.isEmpty {
            // Covered by an `#if` that names only platforms where it exists.
            let covered = conditions.contains { condition in
                let names = condition.components(separatedBy: "os(").dropFirst().map { $0.prefix { $0 != ")" } }
                return !names.isEmpty && !condition.contains("!")
                    && names.allSatisfy { !unavailableOn.contains(String($0)) }
            }
            if covered { unavailableOn = [] }
        }
        guard !missing.isEmpty || !unavailableOn.isEmpty else { return }
        let column = use.offset - lineStart + 1
        var message = "`\(use.name)` (\(use.entry.what))"
        if !missing.isEmpty {
            let gate = platforms.compactMap { platform in
                (use.entry.versions[platform] ?? nil).map { "\(platform) \($0)" }
            }
            message +=
                " needs \(missing.joined(separator: ", ")): gate it with @available(\(gate.joined(separator: ", ")), *) or #available"
        }
        if !unavailableOn.isEmpty {
            message +=
                (missing.isEmpty ? "" : "; it")
                + " does not exist on \(unavailableOn.joined(separator: ", ")): put it inside #if os(macOS) || os(Linux) || os(Windows)"
        }
        findings.append(Finding(file: file, line: line, column: column, message: message))
    }

    while index < bytes.count {
        while nextUse < uses.count && uses[nextUse].offset <= index {
            report(uses[nextUse])
            nextUse += 1
        }
        let byte = bytes[index]
        if byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
            index += 1
            // A compiler directive takes its whole line.
            var start = lineStart
            while start < bytes.count && (bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t")) {
                start += 1
            }
            if start < bytes.count && bytes[start] == UInt8(ascii: "#") {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                let directive = String(decoding: bytes[start..<end], as: UTF8.self)
                let words = directive.split(separator: " ", maxSplits: 1).map(String.init)
                switch words[0] {
                case "#if": conditions.append(words.count > 1 ? words[1] : "")
                case "#elseif":
                    if !conditions.isEmpty {
                        conditions[conditions.count - 1] = "!" + (words.count > 1 ? words[1] : "")
                    }
                case "#else": if !conditions.isEmpty { conditions[conditions.count - 1] = "!" + conditions.last! }
                case "#endif": _ = conditions.popLast()
                default: continue
                }
                while nextUse < uses.count && uses[nextUse].offset < end {
                    report(uses[nextUse])
                    nextUse += 1
                }
                index = end
            }
            continue
        }
        if byte == UInt8(ascii: "@") || byte == UInt8(ascii: "#") {
            var end = index + 1
            while end < bytes.count && isIdentifier(bytes[end]) { end += 1 }
            let word = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            if (word == "available" || word == "unavailable") && end < bytes.count && bytes[end] == UInt8(ascii: "(") {
                let (text, after) = arguments(from: end)
                let gate = word == "unavailable" ? [:] : gate(fromArguments: text)
                if byte == UInt8(ascii: "@") {
                    if let existing = declarationGate, existing.boundAt == nil {
                        declarationGate = (merged(existing.gate, gate), nil)
                    } else {
                        declarationGate = (gate, nil)
                    }
                } else {
                    conditionGate = (gate, statementKeyword == "guard")
                }
                for newline in bytes[index..<after] where newline == UInt8(ascii: "\n") { _ = newline; line += 1 }
                if let last = bytes[index..<after].lastIndex(of: UInt8(ascii: "\n")) { lineStart = last + 1 }
                index = after
                continue
            }
            index = end
            continue
        }
        if isIdentifier(byte) {
            var end = index
            while end < bytes.count && isIdentifier(bytes[end]) { end += 1 }
            let word = String(decoding: bytes[index..<end], as: UTF8.self)
            if scopes.last!.parens == 0 {
                if word == "if" || word == "guard" || word == "while" { statementKeyword = word }
                if declarationKeywords.contains(word), let pending = declarationGate {
                    if pending.boundAt == nil {
                        declarationGate = (pending.gate, scopes.count)
                    } else if pending.boundAt == scopes.count {
                        declarationGate = nil  // the next declaration: the attribute was the last one's
                    }
                }
            }
            index = end
            continue
        }
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: "["):
            scopes[scopes.count - 1].parens += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"):
            scopes[scopes.count - 1].parens -= 1
        case UInt8(ascii: "{"):
            var scope = Scope(gate: scopes.last!.gate)
            if scopes.last!.parens == 0 {
                if let condition = conditionGate {
                    if condition.isGuard {
                        scope.guardGate = condition.gate
                    } else {
                        scope.gate = merged(scope.gate, condition.gate)
                    }
                    conditionGate = nil
                } else if let declaration = declarationGate, declaration.boundAt ?? scopes.count == scopes.count {
                    scope.gate = merged(scope.gate, declaration.gate)
                    declarationGate = nil
                }
                statementKeyword = ""
            }
            scopes.append(scope)
        case UInt8(ascii: "}"):
            if scopes.count > 1 {
                let closed = scopes.removeLast()
                if let guardGate = closed.guardGate {
                    scopes[scopes.count - 1].gate = merged(scopes.last!.gate, guardGate)
                }
            }
            if let declaration = declarationGate, (declaration.boundAt ?? 0) > scopes.count { declarationGate = nil }
        default:
            break
        }
        index += 1
    }
    while nextUse < uses.count {
        report(uses[nextUse])
        nextUse += 1
    }
    return findings
}

/// The types a package declares above its floor (`@available(macOS 14.0, …)`
/// right before `class`, `struct`, `enum`, `protocol`, `actor` or
/// `typealias`), as table entries: Apple's compiler rejects a use of one
/// outside a gate as it rejects an SDK API's, and the Linux compiler does not
/// see that either. A name declared twice in a package is left out (the text
/// cannot tell which one a use means).
func ownDeclarations(in files: [String], floor: Gate) -> [Entry] {
    let declaration = try! NSRegularExpression(
        pattern:
            #"((?:@\w+(?:\([^()]*\))?\s*)+)(?:(?:public|package|internal|fileprivate|private|final|open|nonisolated|indirect)\s+)*(class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)"#
    )
    let available = try! NSRegularExpression(pattern: #"@available\(([^()]*)\)"#)
    let anyDeclaration = try! NSRegularExpression(
        pattern: #"\b(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)"#)
    var found: [String: Entry] = [:]
    var declaredCount: [String: Int] = [:]
    for file in files {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { fail("cannot read \(file)") }
        let code = String(decoding: code(of: text), as: UTF8.self)
        let whole = NSRange(code.startIndex..., in: code)
        for match in anyDeclaration.matches(in: code, range: whole) {
            declaredCount[String(code[Range(match.range(at: 1), in: code)!]), default: 0] += 1
        }
        for match in declaration.matches(in: code, range: whole) {
            let attributes = String(code[Range(match.range(at: 1), in: code)!])
            let name = String(code[Range(match.range(at: 3), in: code)!])
            var declared: Gate = [:]
            let attributeRange = NSRange(attributes.startIndex..., in: attributes)
            for attribute in available.matches(in: attributes, range: attributeRange) {
                let arguments = String(attributes[Range(attribute.range(at: 1), in: attributes)!])
                declared = merged(declared, gate(fromArguments: arguments))
            }
            var versions: [String: Version?] = [:]
            var aboveFloor = false
            for platform in platforms {
                guard let version = declared[platform] else { continue }
                if version == .unavailableEverywhere {
                    versions[platform] = .some(nil)
                    aboveFloor = true
                } else if version > floor[platform]! {
                    versions[platform] = version
                    aboveFloor = true
                }
            }
            guard aboveFloor else { continue }
            let line = code[..<Range(match.range(at: 3), in: code)!.lowerBound].filter { $0 == "\n" }.count + 1
            found[name] = Entry(
                pattern: try! NSRegularExpression(pattern: "\\b\(name)\\b"), source: name, versions: versions,
                what: "declared at \((file as NSString).lastPathComponent):\(line)")
        }
    }
    return found.filter { declaredCount[$0.key, default: 0] == 1 }.sorted { $0.key < $1.key }.map(\.value)
}

/// The nearest Package.swift at or above `directory`.
func manifest(above directory: URL) -> String? {
    var directory = directory.standardizedFileURL
    while true {
        let candidate = directory.appendingPathComponent("Package.swift").path
        if FileManager.default.fileExists(atPath: candidate) { return candidate }
        let parent = directory.deletingLastPathComponent()
        if parent.path == directory.path { return nil }
        directory = parent
    }
}

func swiftFiles(under path: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { fail("no such path: \(path)") }
    guard isDirectory.boolValue else { return [path] }
    let enumerator = FileManager.default.enumerator(atPath: path)!
    var files: [String] = []
    while let relative = enumerator.nextObject() as? String {
        let components = relative.split(separator: "/")
        if components.contains(where: { $0.hasPrefix(".") }) { continue }
        if relative.hasSuffix(".swift") && !relative.hasSuffix("Package.swift") { files.append(path + "/" + relative) }
    }
    return files.sorted()
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else { fail("usage: availability TABLE PATH... | availability TABLE --self-test DIR") }
let entries = readTable(arguments[0])

if arguments[1] == "--self-test" {
    guard arguments.count == 3 else { fail("usage: availability TABLE --self-test DIR") }
    let directory = arguments[2]
    let fixtures = try! FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift.txt") }
    var failures = 0
    for fixture in fixtures.sorted() {
        let path = directory + "/" + fixture
        let text = try! String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.hasPrefix("// manifest: ") else {
            fail("\(path):1: expected // manifest: FILE")
        }
        let floor = floor(ofManifest: directory + "/" + first.dropFirst("// manifest: ".count))
        let expected = Set(lines.indices.filter { lines[$0].hasSuffix("// ✗") }.map { $0 + 1 })
        let findings = check(file: path, floor: floor, entries: entries + ownDeclarations(in: [path], floor: floor))
        let reported = Set(findings.map(\.line))
        for line in expected.subtracting(reported).sorted() {
            print("\(path):\(line): self-test failed: this use was not reported")
            failures += 1
        }
        for finding in findings where !expected.contains(finding.line) {
            print(
                "\(finding.file):\(finding.line): self-test failed: reported, but not marked // ✗: \(finding.message)")
            failures += 1
        }
    }
    if failures > 0 { exit(1) }
    print("availability self-test: \(fixtures.count) fixtures pass")
    exit(0)
}

var findings: [Finding] = []
var checked = 0
// Files by package: each package's own gated types are checked across all of its files.
var filesByManifest: [String: [String]] = [:]
for root in arguments.dropFirst() {
    for file in swiftFiles(under: root) {
        guard let manifest = manifest(above: URL(fileURLWithPath: file).deletingLastPathComponent()) else {
            fail("\(file): no Package.swift above it")
        }
        filesByManifest[manifest, default: []].append(file)
    }
}
for (manifest, files) in filesByManifest.sorted(by: { $0.key < $1.key }) {
    let floor = floor(ofManifest: manifest)
    let packageEntries = entries + ownDeclarations(in: files, floor: floor)
    for file in files {
        findings += check(file: file, floor: floor, entries: packageEntries)
        checked += 1
    }
}
for finding in findings { print(finding) }
if !findings.isEmpty {
    print("error: \(findings.count) use(s) above the platform floor without a gate (.ci/availability-table.txt)")
    exit(1)
}
print("availability: \(checked) files, every use above the platform floor is gated")
