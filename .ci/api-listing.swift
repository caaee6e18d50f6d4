// Turns a `swift-api-digester -dump-sdk` JSON file into a sorted listing, one
// public declaration a line, so the committed API baseline reads and diffs
// like source. Used by `.ci/api-check`; needs only the toolchain.
//
//     api-listing DUMP.json > api/Module.txt
//     swift package dump-package | api-listing --library-targets
//         prints the targets of the package's library products, one a line
import Foundation

typealias Node = [String: Any]

func string(_ node: Node, _ key: String) -> String? { node[key] as? String }
func children(_ node: Node, _ key: String = "children") -> [Node] { node[key] as? [Node] ?? [] }

/// Conformances every type has; listing them would only add noise.
let implicitConformances: Set<String> = ["Copyable", "Escapable", "SendableMetatype"]

func signature(_ node: Node) -> String {
    let kind = string(node, "declKind") ?? "?"
    var words: [String] = []
    if node["static"] as? Bool == true { words.append("static") }
    if let attributes = node["declAttributes"] as? [String] {
        for attribute in ["Final", "DiscardableResult", "Nonisolated"] where attributes.contains(attribute) {
            words.append(attribute.lowercased())
        }
    }
    if string(node, "funcSelfKind") == "Mutating" { words.append("mutating") }
    let types = children(node).map { string($0, "printedName") ?? "?" }
    switch kind {
    case "Var":
        words.append(node["isLet"] as? Bool == true ? "let" : "var")
        words.append(": " + (types.first ?? "?"))
        let accessors = children(node, "accessors").compactMap { string($0, "accessorKind") }
        if accessors.contains("set") { words.append("{ get set }") }
    case "Func", "Constructor", "Subscript":
        words.append(kind == "Constructor" ? "init" : kind.lowercased())
        let parameters = children(node).dropFirst().map { parameter in
            (string(parameter, "printedName") ?? "?") + (parameter["hasDefaultArg"] as? Bool == true ? " = default" : "")
        }
        words.append("(" + parameters.joined(separator: ", ") + ")")
        if node["throwing"] as? Bool == true { words.append("throws") }
        words.append("-> " + (types.first ?? "?"))
    case "TypeAlias":
        words.append("typealias = " + (types.first ?? "?"))
    case "EnumElement":
        // The element's type is `(Enum.Type) -> Enum`, or `… -> (Payload) -> Enum`.
        words.append("case")
        if let type = types.first, let arrow = type.range(of: " -> ") {
            let payload = type[arrow.upperBound...]
            if payload.contains("->") { words.append(String(payload)) }
        }
    default:
        words.append(kind.lowercased())
        let conformances = children(node, "conformances").compactMap { string($0, "printedName") }
            .filter { !implicitConformances.contains($0) }.sorted()
        if !conformances.isEmpty { words.append(": " + conformances.joined(separator: ", ")) }
    }
    if let generic = string(node, "genericSig") { words.append(generic) }
    return words.joined(separator: " ")
}

/// Whether `node` is another module's type that this module extends with
/// nothing public (an internal protocol's conformance): no API of this module.
func addsNothingPublic(_ node: Node, module: String) -> Bool {
    guard node["isExternal"] as? Bool == true, children(node).isEmpty else { return false }
    let ours = "s:\(module.utf8.count)\(module)"
    return !children(node, "conformances").contains { string($0, "usr")?.hasPrefix(ours) == true }
}

func walk(_ node: Node, path: [String], module: String, into lines: inout [String]) {
    for child in children(node) {
        // `isInternal` marks `package` declarations: not public API.
        guard let kind = string(child, "declKind"), kind != "Import", kind != "Accessor",
              child["isInternal"] as? Bool != true, !addsNothingPublic(child, module: module) else { continue }
        let name = string(child, "printedName") ?? "?"
        let here = path + [name]
        lines.append(here.joined(separator: ".") + "  " + signature(child))
        walk(child, path: here, module: module, into: &lines)
    }
}

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--library-targets" {
    let package = (try? JSONSerialization.jsonObject(with: FileHandle.standardInput.readDataToEndOfFile())) as? Node
    var targets: [String] = []
    for product in children(package ?? [:], "products") {
        guard let type = product["type"] as? Node, type["library"] != nil else { continue }
        for target in product["targets"] as? [String] ?? [] where !targets.contains(target) { targets.append(target) }
    }
    guard !targets.isEmpty else {
        FileHandle.standardError.write(Data("api-listing: no library product in `swift package dump-package`\n".utf8))
        exit(2)
    }
    print(targets.joined(separator: "\n"))
    exit(0)
}
guard arguments.count == 2, let data = FileManager.default.contents(atPath: arguments[1]),
      let root = (try? JSONSerialization.jsonObject(with: data)) as? Node,
      let module = root["ABIRoot"] as? Node else {
    FileHandle.standardError.write(Data("usage: api-listing DUMP.json (a swift-api-digester -dump-sdk file)\n".utf8))
    exit(2)
}
var lines: [String] = []
walk(module, path: [], module: string(module, "name") ?? "", into: &lines)
print(lines.sorted().joined(separator: "\n"))
