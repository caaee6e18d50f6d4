/// Turns a parsed JSON document into a ``Scenario``, checking every field and
/// every name. One file per concern: declarations (a first pass over every
/// name), steps by kind, handler effects, names.
struct ScenarioParser {
    let input: JSONInput
    let limits: Scenario.Limits
    /// The file's last path component: default sites read `FILE:LINE`.
    let fileName: String
    var registries: [String: RegistryDeclaration] = [:]
    /// Every object any `create` names, and the methods it defines.
    var declaredObjects: [String: Set<String>] = [:]
    /// Every token an `observe` names, each declared once.
    var declaredTokens: Set<String> = []
    /// Every loop an `open-loop` names, each declared once.
    var declaredLoops: Set<String> = []
    var stepCount = 0
    /// The steps' distinct call sites, numbered as they are met.
    let siteNumbers = SiteNumbering()

    init(input: JSONInput, limits: Scenario.Limits) {
        self.input = input
        self.limits = limits
        fileName = input.path.split(separator: "/").last.map(String.init) ?? input.path
    }

    /// Where a step runs: names resolve differently at the top level (object
    /// lifetimes are checked in order) and inside a handler.
    enum Context: Equatable {
        case topLevel
        /// Inside a handler or method; `selfObject` is the object `"self"`
        /// names there (nil where it is not defined).
        case handler(selfObject: String?)

        /// The object a name means here: `"self"` resolved, nil where undefined.
        func resolve(_ name: String) -> String? {
            guard name == "self" else { return name }
            if case .handler(let selfObject) = self { return selfObject }
            return nil
        }
    }

    // MARK: Errors and positions

    func error(_ message: String, at offset: Int) -> InputError { input.error(message, at: offset) }

    func position(_ offset: Int) -> ScenarioPosition {
        let position = input.position(ofOffset: offset)
        return ScenarioPosition(line: position.line, column: position.column)
    }

    func fields(_ node: JSONNode, _ what: String) throws(InputError) -> JSONFields { try input.fields(node, what) }

    func array(_ node: JSONNode, _ what: String) throws(InputError) -> [JSONNode] { try input.array(node, what) }

    // MARK: Document

    mutating func scenario() throws(InputError) -> Scenario {
        let root = input.root
        let document = try fields(root, "the scenario")
        try document.allowOnly(["format", "version", "scenario", "description", "registries", "steps", "suppress"])
        try document.checkFormat(Scenario.format)
        try document.checkVersion(Scenario.formatVersion, of: "scenario")
        let name = try document.requiredString("scenario").value
        let description = try document.optionalString("description")?.value
        if let registriesNode = document.node("registries") {
            guard case .object(let members) = registriesNode.kind else {
                throw error("\"registries\" must be an object mapping names to registries", at: registriesNode.offset)
            }
            for member in members {
                // Names compare as Swift strings: "café" written two ways is one name.
                guard registries[member.key] == nil else {
                    throw error("registry \"\(member.key)\" is declared twice", at: member.keyOffset)
                }
                registries[member.key] = try registry(member)
            }
        }
        guard let stepsNode = document.node("steps") else {
            throw error("the scenario needs \"steps\"", at: root.offset)
        }
        let stepNodes = try array(stepsNode, "\"steps\"")
        try declare(stepNodes)
        var validator = NameValidator()
        let steps = try self.steps(stepNodes, validator: &validator)
        let suppressions =
            try document.node("suppress").map { node throws(InputError) in try self.suppressions(node) } ?? []
        return Scenario(
            name: name, description: description, path: input.path, suppressions: suppressions,
            registries: registries, steps: steps, siteCount: siteNumbers.count)
    }

    /// `"suppress": [{"rule": ID, "reason": TEXT}]`: a known rule, once, with a reason.
    private func suppressions(_ node: JSONNode) throws(InputError) -> [Suppression] {
        var result: [Suppression] = []
        for element in try array(node, "\"suppress\"") {
            let entry = try fields(element, "a suppression")
            try entry.allowOnly(["rule", "reason"])
            let rule = try entry.requiredString("rule")
            guard RuleCatalog.descriptor(id: rule.value) != nil else {
                throw error("unknown rule \"\(rule.value)\" (`harness-cli rules` lists them)", at: rule.offset)
            }
            guard !result.contains(where: { $0.rule == rule.value }) else {
                throw error("\"\(rule.value)\" is suppressed twice", at: rule.offset)
            }
            let reason = try entry.requiredString("reason")
            guard reason.value.contains(where: { !$0.isWhitespace }) else {
                throw error("a suppression needs a \"reason\": say why this finding is accepted", at: reason.offset)
            }
            result.append(Suppression(rule: rule.value, reason: reason.value))
        }
        return result
    }

    private func registry(_ member: JSONMember) throws(InputError) -> RegistryDeclaration {
        let object = try fields(member.value, "registry \"\(member.key)\"")
        try object.allowOnly(["kind", "hold", "dedupe", "order"])
        let kindText = try object.requiredString("kind")
        guard let kind = RegistryKind(rawValue: kindText.value) else {
            throw error(
                "unknown registry kind \"\(kindText.value)\" (expected notification-center, subject, "
                    + "property or delegate)", at: kindText.offset)
        }
        let hold = try hold(object)
        if kind == .observable, hold == .unowned {
            throw error(Self.observableHoldMessage, at: object.keyOffset("hold"))
        }
        return RegistryDeclaration(
            name: member.key, kind: kind, hold: hold ?? kind.defaultHold,
            dedupe: try object.optionalBool("dedupe") ?? false,
            order: try object.optionalChoice("order", "\"registration\" or \"unspecified\"") ?? .unspecified)
    }

    /// An `onChange` captures its observer strongly (`self`) or weakly (`[weak self]`).
    static let observableHoldMessage =
        "an observable registry's onChange holds its observer \"strong\" or \"weak\" ([weak self]), not \"unowned\""

    func hold(_ object: JSONFields) throws(InputError) -> Hold? {
        try object.optionalChoice("hold", "\"strong\", \"weak\" or \"unowned\"")
    }

    /// `"site": "File.swift:LINE"`, or the step's own position in the file.
    func site(_ object: JSONFields) throws(InputError) -> CallSite {
        guard let text = try object.optionalString("site") else {
            let position = self.position(object.offset)
            return CallSite(file: fileName, line: position.line, column: position.column)
        }
        guard let site = CallSite(parsing: text.value) else {
            // Reports write line 0 for no line of source; a step is made at a line.
            if CallSite(parsing: text.value, lowestLine: 0) != nil {
                throw error(
                    "\"site\" names line 0, no line of source: a step's site is a line, 1 or more", at: text.offset)
            }
            throw error("\"site\" must look like \"File.swift:LINE\" (or FILE:LINE:COLUMN)", at: text.offset)
        }
        return site
    }
}

/// Numbers call sites 0, 1, 2, … in the order they are first given. A class,
/// so the parser's non-mutating step readers can share it.
final class SiteNumbering {
    private var numbers: [CallSite: Int32] = [:]

    var count: Int { numbers.count }

    func number(_ site: CallSite) -> Int32 {
        if let number = numbers[site] { return number }
        let number = Int32(numbers.count)
        numbers[site] = number
        return number
    }
}
