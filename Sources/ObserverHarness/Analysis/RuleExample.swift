/// A scenario snippet in a rule's descriptor: the `steps` array as JSON, with
/// `↓` before each top-level step whose line a finding is reported at.
///
/// ```swift
/// RuleExample("""
///     [ { "op": "create", "object": "screen" },
///       ↓{ "op": "release", "object": "screen" } ]
///     """)
/// ```
public struct RuleExample: Sendable, Hashable {
    /// Marks the step a finding names (as SwiftLint marks a violation).
    public static let marker: Character = "↓"

    /// The steps, markers included, as `explain` prints them.
    public let steps: String
    /// The `registries` object, when the example needs other than one of each kind.
    public let registries: String?

    init(_ steps: String, registries: String? = nil) {
        self.steps = steps
        self.registries = registries
    }

    /// One registry of each kind with its default `hold`, as examples use them.
    static let standardRegistries = """
        { "center": { "kind": "notification-center" }, "subject": { "kind": "subject" },
          "kvo": { "kind": "property" }, "slot": { "kind": "delegate" } }
        """

    /// The complete scenario document, markers removed.
    func document(name: String) -> String {
        """
        { "format": "observer-harness-scenario", "version": 1, "scenario": "\(name)",
          "registries": \(registries ?? Self.standardRegistries),
          "steps": \(steps.filter { $0 != Self.marker }) }
        """
    }

    /// The top-level step whose line a finding reported at `site` names: the
    /// step whose text holds that line of this example's document, or the
    /// step that declares `site` as its own `"site"` or one of its effects'.
    /// The marker stands there, so a reader marks expectations where the
    /// finding lands.
    func step(reportedAt site: CallSite, name: String) -> Int? {
        let bytes = Array(document(name: name).utf8)
        guard let root = try? JSONParser.parse(bytes), let steps = root["steps"], case .array(let elements) = steps.kind
        else { return nil }
        if site.file == "\(name).scenario.json" {
            let text = JSONSourceText(bytes: bytes)
            return elements.lastIndex { text.position(ofOffset: $0.offset).line <= site.line }
        }
        // Several steps at one line (a line run twice): the finding is about the latest.
        return elements.lastIndex { $0.declares(site: site.description) }
    }

    /// The indices of the marked top-level steps; nil when a marker stands
    /// anywhere but before a top-level step (or the steps are not a list).
    func markedSteps() -> [Int]? {
        var bytes: [UInt8] = []
        var markerOffsets: [Int] = []
        for character in steps {
            if character == Self.marker { markerOffsets.append(bytes.count) } else { bytes += character.utf8 }
        }
        guard let root = try? JSONParser.parse(bytes), case .array(let elements) = root.kind else { return nil }
        var marked: [Int] = []
        for offset in markerOffsets {
            var start = offset
            while start < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[start]) { start += 1 }
            guard let index = elements.firstIndex(where: { $0.offset == start }) else { return nil }
            marked.append(index)
        }
        return marked
    }
}

extension JSONNode {
    /// Whether this node, or a node inside it, has `"site": site`.
    fileprivate func declares(site: String) -> Bool {
        switch kind {
        case .object(let members):
            members.contains { member in
                if member.key == "site", case .string(let text) = member.value.kind, text == site { return true }
                return member.value.declares(site: site)
            }
        case .array(let elements): elements.contains { $0.declares(site: site) }
        default: false
        }
    }
}
