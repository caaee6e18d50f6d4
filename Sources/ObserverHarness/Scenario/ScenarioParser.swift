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
    /// - Throws: ``InputError`` naming the path, line and column of the first problem.
    public static func load(contentsOf url: URL, limits: Limits = Limits()) throws(InputError) -> Scenario {
        let path = url.path
        let bytes = try InputFile.read(url, path: path, maxBytes: limits.maxBytes, what: "scenario file")
        return try parse(bytes, path: path, limits: limits)
    }

    /// Parses scenario JSON; `path` names the file in errors and default sites.
    public static func parse(_ bytes: [UInt8], path: String, limits: Limits = Limits()) throws(InputError) -> Scenario {
        let source = JSONSourceText(bytes: bytes)
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes, limits: .init(maxDepth: limits.maxDepth, maxBytes: limits.maxBytes))
        } catch {
            throw InputError(path: path, line: error.line, column: error.column, message: error.message)
        }
        var parser = ScenarioParser(path: path, source: source, limits: limits)
        return try parser.scenario(root)
    }
}

/// Turns a parsed JSON document into a ``Scenario``, checking every field and
/// every name (SPEC §2 "Invalid scenarios").
struct ScenarioParser {
    let path: String
    let source: JSONSourceText
    let limits: Scenario.Limits
    /// The file's last path component: default sites read `FILE:LINE`.
    let fileName: String
    private var registries: [String: RegistryDeclaration] = [:]
    /// Every object any `create` names, and the methods it defines.
    private var declaredObjects: [String: Set<String>] = [:]
    /// Every token any `observe` names.
    private var declaredTokens: Set<String> = []
    private var stepCount = 0

    init(path: String, source: JSONSourceText, limits: Scenario.Limits) {
        self.path = path
        self.source = source
        self.limits = limits
        fileName = path.split(separator: "/").last.map(String.init) ?? path
    }

    // MARK: Errors

    func error(_ message: String, at offset: Int) -> InputError {
        let position = source.position(ofOffset: offset)
        return InputError(path: path, line: position.line, column: position.column, message: message)
    }

    func position(_ offset: Int) -> ScenarioPosition {
        let position = source.position(ofOffset: offset)
        return ScenarioPosition(line: position.line, column: position.column)
    }

    // MARK: Document

    mutating func scenario(_ root: JSONNode) throws(InputError) -> Scenario {
        let object = try FieldReader(root, "the scenario", self)
        try object.allowOnly(["format", "version", "scenario", "description", "registries", "steps", "suppress"])
        let format = try object.requiredString("format")
        guard format.value == Scenario.format else {
            throw error("\"format\" must be \"\(Scenario.format)\", not \"\(format.value)\"", at: format.offset)
        }
        let version = try object.requiredInt("version")
        guard version.value == Scenario.formatVersion else {
            throw error("unsupported scenario version \(version.value) (this tool reads version \(Scenario.formatVersion))",
                        at: version.offset)
        }
        let name = try object.requiredString("scenario").value
        let description = try object.optionalString("description")
        if let registriesNode = object.node("registries") {
            guard case .object(let members) = registriesNode.kind else {
                throw error("\"registries\" must be an object mapping names to registries", at: registriesNode.offset)
            }
            for member in members { registries[member.key] = try registry(member) }
        }
        guard let stepsNode = object.node("steps") else {
            throw error("the scenario needs \"steps\"", at: root.offset)
        }
        let stepNodes = try array(stepsNode, "\"steps\"")
        try declare(stepNodes)
        var validator = NameValidator()
        let steps = try self.steps(stepNodes, validator: &validator)
        let suppressions = try object.node("suppress").map { node throws(InputError) in try self.suppressions(node) } ?? []
        return Scenario(name: name, description: description, path: path, suppressions: suppressions,
                        registries: registries, steps: steps)
    }

    /// `"suppress": [{"rule": ID, "reason": TEXT}]`: a known rule, once, with a reason.
    private func suppressions(_ node: JSONNode) throws(InputError) -> [Suppression] {
        var result: [Suppression] = []
        for element in try array(node, "\"suppress\"") {
            let entry = try FieldReader(element, "a suppression", self)
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
        let object = try FieldReader(member.value, "registry \"\(member.key)\"", self)
        try object.allowOnly(["kind", "hold", "dedupe", "order"])
        let kindText = try object.requiredString("kind")
        guard let kind = RegistryKind(rawValue: kindText.value) else {
            throw error("unknown registry kind \"\(kindText.value)\" (expected notification-center, subject, "
                        + "property or delegate)", at: kindText.offset)
        }
        let hold = try object.optionalHold("hold") ?? kind.defaultHold
        let dedupe = try object.optionalBool("dedupe") ?? false
        var order = OrderPromise.unspecified
        if let orderText = try object.optionalStringWithOffset("order") {
            guard let promise = OrderPromise(rawValue: orderText.value) else {
                throw error("\"order\" must be \"registration\" or \"unspecified\"", at: orderText.offset)
            }
            order = promise
        }
        return RegistryDeclaration(name: member.key, kind: kind, hold: hold, dedupe: dedupe, order: order)
    }

    // MARK: Declarations (a first pass, so handlers may name later objects)

    private mutating func declare(_ nodes: [JSONNode]) throws(InputError) {
        for node in nodes {
            guard case .object = node.kind else { continue }
            stepCount += 1
            guard stepCount <= limits.maxSteps else {
                throw error("more than \(limits.maxSteps) steps", at: node.offset)
            }
            let op = node["op"].flatMap { if case .string(let text) = $0.kind { text } else { nil } }
            if op == "create", case .string(let name)? = node["object"]?.kind {
                var methods = declaredObjects[name] ?? []
                if case .object(let members)? = node["methods"]?.kind {
                    for member in members {
                        methods.insert(member.key)
                        if case .array(let effects) = member.value.kind { try declare(effects) }
                    }
                }
                declaredObjects[name] = methods
                guard declaredObjects.count <= limits.maxObjects else {
                    throw error("more than \(limits.maxObjects) objects", at: node.offset)
                }
            }
            if op == "observe", case .string(let token)? = node["token"]?.kind { declaredTokens.insert(token) }
            if case .array(let effects)? = node["handler"]?.kind { try declare(effects) }
            if case .array(let branches)? = node["branches"]?.kind {
                for branch in branches { if case .array(let steps) = branch.kind { try declare(steps) } }
            }
            // Effects nest steps under their op name.
            for key in ["post", "set", "call-delegate", "invoke", "observe", "remove", "set-delegate"] {
                if case .object? = node[key]?.kind, let nested = node[key] { try declare([nested.withOp(key)]) }
            }
        }
    }

    // MARK: Steps

    /// Top-level (or branch) steps, checked in order for object lifetimes.
    private func steps(_ nodes: [JSONNode], validator: inout NameValidator) throws(InputError) -> [Step] {
        var steps: [Step] = []
        for node in nodes {
            steps.append(try step(node, context: .topLevel, validator: &validator))
        }
        return steps
    }

    enum Context: Equatable {
        case topLevel
        /// Inside a handler or method; `selfAvailable` when `"self"` is defined.
        case handler(selfAvailable: Bool)
    }

    private func step(_ node: JSONNode, context: Context, validator: inout NameValidator) throws(InputError) -> Step {
        let object = try FieldReader(node, "a step", self)
        let opNode = try object.requiredString("op")
        let site = try self.site(object, node)
        let position = self.position(node.offset)
        func make(_ operation: Step.Operation) -> Step {
            Step(operation: operation, site: site, position: position)
        }
        switch opNode.value {
        case "create":
            try object.allowOnly(["op", "site", "object", "type", "methods"])
            guard context == .topLevel else {
                throw error("\"create\" is a top-level step; handlers cannot create objects", at: node.offset)
            }
            let name = try object.requiredString("object")
            try validator.create(name.value, at: name.offset, self)
            let type = try object.optionalString("type") ?? name.value
            var methods: [String: Handler] = [:]
            if let methodsNode = object.node("methods") {
                guard case .object(let members) = methodsNode.kind else {
                    throw error("\"methods\" must map method names to handlers", at: methodsNode.offset)
                }
                for member in members { methods[member.key] = try handler(member.value, selfAvailable: true) }
            }
            return make(.create(object: name.value, type: type, methods: methods))
        case "release":
            try object.allowOnly(["op", "site", "object"])
            let name = try objectName(object, "object", context: context, validator: validator)
            if context == .topLevel { validator.release(name) }
            return make(.release(object: name))
        case "retain":
            try object.allowOnly(["op", "site", "holder", "target"])
            return make(.retain(holder: try objectName(object, "holder", context: context, validator: validator),
                                target: try objectName(object, "target", context: context, validator: validator)))
        case "observe":
            return make(.observe(try observation(object, context: context, validator: validator)))
        case "remove":
            return make(.remove(try removal(object, context: context, validator: validator)))
        case "drop-token":
            try object.allowOnly(["op", "site", "token"])
            return make(.dropToken(try token(object)))
        case "post":
            try object.allowOnly(["op", "site", "registry", "channel", "sender", "payload"])
            let registry = try self.registry(object, kinds: [.notificationCenter, .subject], op: "post")
            var channel = try object.optionalStringWithOffset("channel")?.value
            if registry.kind == .notificationCenter, channel == nil {
                throw error("\"post\" to a notification-center needs a \"channel\" (the notification name)",
                            at: node.offset)
            }
            if registry.kind == .subject { channel = channel ?? "" }
            let sender = try optionalObjectName(object, "sender", context: context, validator: validator)
            return make(.post(registry: registry.name, channel: channel, sender: sender,
                              payload: object.node("payload")?.value ?? .null))
        case "set":
            try object.allowOnly(["op", "site", "registry", "object", "property", "value"])
            let registry = try self.registry(object, kinds: [.property], op: "set")
            let target = try objectName(object, "object", context: context, validator: validator)
            let property = try object.requiredString("property").value
            guard let valueNode = object.node("value") else {
                throw error("\"set\" needs a \"value\"", at: node.offset)
            }
            return make(.set(registry: registry.name, object: target, property: property,
                             value: try valueExpression(valueNode, inHandler: context != .topLevel)))
        case "set-delegate":
            try object.allowOnly(["op", "site", "registry", "owner", "delegate", "hold"])
            let registry = try self.registry(object, kinds: [.delegate], op: "set-delegate")
            let owner = try objectName(object, "owner", context: context, validator: validator)
            guard let delegateNode = object.node("delegate") else {
                throw error("\"set-delegate\" needs a \"delegate\" (an object, or null)", at: node.offset)
            }
            var delegate: String?
            if case .null = delegateNode.kind { delegate = nil } else {
                delegate = try objectName(object, "delegate", context: context, validator: validator)
            }
            return make(.setDelegate(registry: registry.name, owner: owner, delegate: delegate,
                                     hold: try object.optionalHold("hold")))
        case "call-delegate":
            try object.allowOnly(["op", "site", "registry", "owner", "method", "payload"])
            let registry = try self.registry(object, kinds: [.delegate], op: "call-delegate")
            return make(.callDelegate(registry: registry.name,
                                      owner: try objectName(object, "owner", context: context, validator: validator),
                                      method: try object.requiredString("method").value,
                                      payload: object.node("payload")?.value ?? .null))
        case "invoke":
            try object.allowOnly(["op", "site", "object", "method", "payload"])
            let target = try objectName(object, "object", context: context, validator: validator)
            let method = try object.requiredString("method")
            if target != "self", let methods = declaredObjects[target], !methods.contains(method.value) {
                throw error("object \"\(target)\" has no method \"\(method.value)\"", at: method.offset)
            }
            return make(.invoke(object: target, method: method.value, payload: object.node("payload")?.value ?? .null))
        case "concurrently":
            try object.allowOnly(["op", "site", "branches"])
            guard context == .topLevel else {
                throw error("\"concurrently\" is a top-level step", at: node.offset)
            }
            guard let branchesNode = object.node("branches") else {
                throw error("\"concurrently\" needs \"branches\": a list of step lists", at: node.offset)
            }
            var branches: [[Step]] = []
            var after = validator
            for branchNode in try array(branchesNode, "\"branches\"") {
                var branchValidator = validator
                branches.append(try steps(try array(branchNode, "a branch"), validator: &branchValidator))
                after.merge(branchValidator)
            }
            guard branches.count >= 2 else {
                throw error("\"concurrently\" needs at least two branches", at: branchesNode.offset)
            }
            validator = after
            return make(.concurrently(branches))
        default:
            throw error("unknown op \"\(opNode.value)\"", at: opNode.offset)
        }
    }

    private func observation(_ object: FieldReader, context: Context, validator: NameValidator)
        throws(InputError) -> Observation {
        try object.allowOnly(["op", "site", "registry", "observer", "channel", "sender", "object", "property",
                              "handler", "method", "hold", "token"])
        let registry = try self.registry(object, kinds: [.notificationCenter, .subject, .property], op: "observe")
        let observer = try objectName(object, "observer", context: context, validator: validator)
        var channel: String?
        var sender: String?
        switch registry.kind {
        case .property:
            for key in ["channel", "sender"] where object.node(key) != nil {
                throw error("a property registry observes \"object\" + \"property\", not \"\(key)\"",
                            at: object.keyOffset(key))
            }
            sender = try objectName(object, "object", context: context, validator: validator)
            channel = try object.requiredString("property").value
        default:
            for key in ["object", "property"] where object.node(key) != nil {
                throw error("\"\(key)\" belongs to property registries; this one is a \(registry.kind.rawValue)",
                            at: object.keyOffset(key))
            }
            channel = try object.optionalStringWithOffset("channel")?.value
            if registry.kind == .subject { channel = channel ?? "" }
            sender = try optionalObjectName(object, "sender", context: context, validator: validator)
        }
        let response: Observation.Response
        switch (object.node("handler"), object.node("method")) {
        case (let handlerNode?, nil):
            response = .handler(try handler(handlerNode, selfAvailable: true))
        case (nil, let methodNode?):
            guard case .string(let method) = methodNode.kind else {
                throw error("\"method\" must be a string", at: methodNode.offset)
            }
            if observer != "self", let methods = declaredObjects[observer], !methods.contains(method) {
                throw error("object \"\(observer)\" has no method \"\(method)\"", at: methodNode.offset)
            }
            response = .method(method)
        case (.some, .some):
            throw error("give \"handler\" or \"method\", not both", at: object.keyOffset("method"))
        case (nil, nil):
            throw error("\"observe\" needs a \"handler\" or a \"method\"", at: object.offset)
        }
        let token = try object.optionalStringWithOffset("token")?.value
        return Observation(registry: registry.name, observer: observer, channel: channel, sender: sender,
                           response: response, hold: try object.optionalHold("hold"), token: token)
    }

    private func removal(_ object: FieldReader, context: Context, validator: NameValidator)
        throws(InputError) -> Removal {
        try object.allowOnly(["op", "site", "registry", "token", "observer", "channel", "sender", "object", "property"])
        let registry = try self.registry(object, kinds: [.notificationCenter, .subject, .property], op: "remove")
        if object.node("token") != nil {
            for key in ["observer", "channel", "sender", "object", "property"] where object.node(key) != nil {
                throw error("remove by \"token\" or by \"observer\", not both", at: object.keyOffset(key))
            }
            return Removal(registry: registry.name, token: try token(object), observer: nil, channel: nil,
                           channelGiven: false, sender: nil)
        }
        guard object.node("observer") != nil else {
            throw error("\"remove\" needs a \"token\" or an \"observer\"", at: object.offset)
        }
        let observer = try objectName(object, "observer", context: context, validator: validator)
        if registry.kind == .property {
            for key in ["channel", "sender"] where object.node(key) != nil {
                throw error("a property registry removes by \"object\" + \"property\", not \"\(key)\"",
                            at: object.keyOffset(key))
            }
            let target = try optionalObjectName(object, "object", context: context, validator: validator)
            let property = try object.optionalStringWithOffset("property")?.value
            return Removal(registry: registry.name, token: nil, observer: observer, channel: property,
                           channelGiven: property != nil, sender: target)
        }
        for key in ["object", "property"] where object.node(key) != nil {
            throw error("\"\(key)\" belongs to property registries", at: object.keyOffset(key))
        }
        let channel = try object.optionalStringWithOffset("channel")?.value
        return Removal(registry: registry.name, token: nil, observer: observer, channel: channel,
                       channelGiven: channel != nil,
                       sender: try optionalObjectName(object, "sender", context: context, validator: validator))
    }

    // MARK: Handlers and effects

    private func handler(_ node: JSONNode, selfAvailable: Bool) throws(InputError) -> Handler {
        var effects: [Step] = []
        var validator = NameValidator()
        for effectNode in try array(node, "a handler") {
            effects.append(try effect(effectNode, selfAvailable: selfAvailable, validator: &validator))
        }
        return Handler(effects: effects)
    }

    private func effect(_ node: JSONNode, selfAvailable: Bool, validator: inout NameValidator)
        throws(InputError) -> Step {
        // The effect is named by its one key besides "value".
        guard case .object(let members) = node.kind,
              let first = members.first(where: { $0.key != "value" }) ?? members.first else {
            throw error("an effect must be an object such as {\"increment\": \"key\"}", at: node.offset)
        }
        let position = self.position(node.offset)
        let object = try FieldReader(node, "an effect", self)
        let defaultSite = CallSite(file: fileName, line: position.line, column: position.column)
        func state(_ effect: StateEffect) -> Step {
            Step(operation: .state(effect), site: defaultSite, position: position)
        }
        switch first.key {
        case "increment", "read":
            try object.allowOnly([first.key])
            let key = try object.requiredString(first.key).value
            return state(first.key == "increment" ? .increment(key) : .read(key))
        case "set" where isString(first.value), "append":
            try object.allowOnly([first.key, "value"])
            let key = try object.requiredString(first.key).value
            guard let valueNode = object.node("value") else {
                throw error("\"\(first.key)\" needs a \"value\"", at: node.offset)
            }
            let value = try valueExpression(valueNode, inHandler: true)
            return state(first.key == "set" ? .set(key, value) : .append(key, value))
        case "release":
            try object.allowOnly(["release"])
            guard case .string(let name) = first.value.kind else {
                throw error("\"release\" names an object", at: first.value.offset)
            }
            try checkHandlerName(name, at: first.value.offset, selfAvailable: selfAvailable)
            return Step(operation: .release(object: name), site: defaultSite, position: position)
        case "post", "set", "call-delegate", "invoke", "observe", "remove", "set-delegate", "drop-token", "retain":
            if first.key == "drop-token" || first.key == "retain" {
                // The step's own fields, written inline: {"drop-token": "t"}.
                try object.allowOnly([first.key])
                if first.key == "drop-token", case .string(let token) = first.value.kind {
                    guard declaredTokens.contains(token) else {
                        throw error("unknown token \"\(token)\"", at: first.value.offset)
                    }
                    return Step(operation: .dropToken(token), site: defaultSite, position: position)
                }
            } else {
                try object.allowOnly([first.key])
            }
            guard case .object = first.value.kind else {
                throw error("\"\(first.key)\" inside a handler takes the step's fields as an object", at: first.value.offset)
            }
            return try step(first.value.withOp(first.key), context: .handler(selfAvailable: selfAvailable),
                            validator: &validator)
        default:
            throw error("unknown effect \"\(first.key)\" (expected increment, set, append, read, post, "
                        + "call-delegate, invoke, observe, remove, set-delegate, drop-token, retain or release)",
                        at: first.keyOffset)
        }
    }

    private func isString(_ node: JSONNode) -> Bool {
        if case .string = node.kind { return true }
        return false
    }

    private func valueExpression(_ node: JSONNode, inHandler: Bool) throws(InputError) -> ValueExpression {
        if case .object(let members) = node.kind, members.count == 1, members[0].key == "payload" {
            guard case .string(let field) = members[0].value.kind else {
                throw error("{\"payload\": FIELD} names a payload field", at: members[0].value.offset)
            }
            guard inHandler else {
                throw error("{\"payload\": …} reads the notification being handled, so it only works in a handler",
                            at: node.offset)
            }
            return .payloadField(field)
        }
        return .literal(node.value)
    }

    // MARK: Names

    private func objectName(_ object: FieldReader, _ key: String, context: Context, validator: NameValidator)
        throws(InputError) -> String {
        let name = try object.requiredString(key)
        try checkName(name.value, at: name.offset, context: context, validator: validator)
        return name.value
    }

    private func optionalObjectName(_ object: FieldReader, _ key: String, context: Context, validator: NameValidator)
        throws(InputError) -> String? {
        guard let name = try object.optionalStringWithOffset(key) else { return nil }
        try checkName(name.value, at: name.offset, context: context, validator: validator)
        return name.value
    }

    private func checkName(_ name: String, at offset: Int, context: Context, validator: NameValidator)
        throws(InputError) {
        switch context {
        case .topLevel:
            try validator.checkLive(name, at: offset, self)
        case .handler(let selfAvailable):
            try checkHandlerName(name, at: offset, selfAvailable: selfAvailable)
        }
    }

    private func checkHandlerName(_ name: String, at offset: Int, selfAvailable: Bool) throws(InputError) {
        if name == "self" {
            guard selfAvailable else { throw error("\"self\" is only defined inside a handler", at: offset) }
            return
        }
        guard declaredObjects[name] != nil else {
            throw error("unknown object \"\(name)\" (no step creates it)", at: offset)
        }
    }

    private func token(_ object: FieldReader) throws(InputError) -> String {
        let token = try object.requiredString("token")
        guard declaredTokens.contains(token.value) else {
            throw error("unknown token \"\(token.value)\" (no observe names it)", at: token.offset)
        }
        return token.value
    }

    private func registry(_ object: FieldReader, kinds: Set<RegistryKind>, op: String)
        throws(InputError) -> RegistryDeclaration {
        let name = try object.requiredString("registry")
        guard let registry = registries[name.value] else {
            throw error("unknown registry \"\(name.value)\"", at: name.offset)
        }
        guard kinds.contains(registry.kind) else {
            throw error("\"\(op)\" does not apply to \(registry.kind.rawValue) registry \"\(name.value)\"",
                        at: name.offset)
        }
        return registry
    }

    private func site(_ object: FieldReader, _ node: JSONNode) throws(InputError) -> CallSite {
        guard let text = try object.optionalStringWithOffset("site") else {
            let position = self.position(node.offset)
            return CallSite(file: fileName, line: position.line, column: position.column)
        }
        guard let site = CallSite(parsing: text.value) else {
            throw error("\"site\" must look like \"File.swift:LINE\"", at: text.offset)
        }
        return site
    }

    func array(_ node: JSONNode, _ what: String) throws(InputError) -> [JSONNode] {
        guard case .array(let elements) = node.kind else {
            throw error("\(what) must be a list", at: node.offset)
        }
        return elements
    }
}

/// Tracks which objects are alive at each top-level step.
struct NameValidator {
    private var live: Set<String> = []
    private var released: Set<String> = []

    mutating func create(_ name: String, at offset: Int, _ parser: ScenarioParser) throws(InputError) {
        guard name != "self" else { throw parser.error("\"self\" is reserved for handlers", at: offset) }
        guard !live.contains(name) else {
            throw parser.error("object \"\(name)\" already exists (object names must be unique while alive)",
                               at: offset)
        }
        live.insert(name)
        released.remove(name)
    }

    mutating func release(_ name: String) {
        live.remove(name)
        released.insert(name)
    }

    func checkLive(_ name: String, at offset: Int, _ parser: ScenarioParser) throws(InputError) {
        guard !live.contains(name) else { return }
        if name == "self" { throw parser.error("\"self\" is only defined inside a handler", at: offset) }
        if released.contains(name) {
            throw parser.error("object \"\(name)\" is used after its release", at: offset)
        }
        throw parser.error("object \"\(name)\" is used before its create", at: offset)
    }

    /// After concurrent branches: alive only if no branch released it.
    mutating func merge(_ branch: NameValidator) {
        live.formUnion(branch.live.subtracting(branch.released))
        live.subtract(branch.released)
        released.formUnion(branch.released)
    }
}

/// Reads an object's fields with precise errors.
struct FieldReader {
    let members: [JSONMember]
    let offset: Int
    let what: String
    let parser: ScenarioParser

    init(_ node: JSONNode, _ what: String, _ parser: ScenarioParser) throws(InputError) {
        guard case .object(let members) = node.kind else {
            throw parser.error("\(what) must be an object", at: node.offset)
        }
        self.members = members
        self.offset = node.offset
        self.what = what
        self.parser = parser
    }

    func node(_ key: String) -> JSONNode? { members.first { $0.key == key }?.value }
    func keyOffset(_ key: String) -> Int { members.first { $0.key == key }?.keyOffset ?? offset }

    func allowOnly(_ keys: Set<String>) throws(InputError) {
        for member in members where !keys.contains(member.key) {
            throw parser.error("unknown field \"\(member.key)\" in \(what)", at: member.keyOffset)
        }
    }

    func requiredString(_ key: String) throws(InputError) -> (value: String, offset: Int) {
        guard let node = node(key) else {
            throw parser.error("\(what) needs \"\(key)\"", at: offset)
        }
        guard case .string(let value) = node.kind else {
            throw parser.error("\"\(key)\" must be a string", at: node.offset)
        }
        return (value, node.offset)
    }

    func optionalStringWithOffset(_ key: String) throws(InputError) -> (value: String, offset: Int)? {
        guard let node = node(key) else { return nil }
        if case .null = node.kind { return nil }
        guard case .string(let value) = node.kind else {
            throw parser.error("\"\(key)\" must be a string", at: node.offset)
        }
        return (value, node.offset)
    }

    func optionalString(_ key: String) throws(InputError) -> String? {
        try optionalStringWithOffset(key)?.value
    }

    func requiredInt(_ key: String) throws(InputError) -> (value: Int, offset: Int) {
        guard let node = node(key) else { throw parser.error("\(what) needs \"\(key)\"", at: offset) }
        guard case .int(let value) = node.kind else {
            throw parser.error("\"\(key)\" must be an integer", at: node.offset)
        }
        return (value, node.offset)
    }

    func optionalBool(_ key: String) throws(InputError) -> Bool? {
        guard let node = node(key) else { return nil }
        guard case .bool(let value) = node.kind else {
            throw parser.error("\"\(key)\" must be true or false", at: node.offset)
        }
        return value
    }

    func optionalHold(_ key: String) throws(InputError) -> Hold? {
        guard let text = try optionalStringWithOffset(key) else { return nil }
        guard let hold = Hold(rawValue: text.value) else {
            throw parser.error("\"\(key)\" must be \"strong\", \"weak\" or \"unowned\"", at: text.offset)
        }
        return hold
    }
}

extension JSONNode {
    /// This object with `"op": op` added, so a handler's `{"post": {...}}`
    /// parses as the step of the same name.
    func withOp(_ op: String) -> JSONNode {
        guard case .object(var members) = kind, !members.contains(where: { $0.key == "op" }) else { return self }
        members.insert(JSONMember(key: "op", keyOffset: offset, value: JSONNode(kind: .string(op), offset: offset)),
                       at: 0)
        return JSONNode(kind: .object(members), offset: offset)
    }
}
