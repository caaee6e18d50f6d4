/// Names a step uses — objects, tokens, registries — checked against what
/// the scenario declares. Names compare as Swift strings (canonical
/// equivalence): `"caf\u00e9"` and `"cafe\u0301"` are one name.
extension ScenarioParser {
    func objectName(_ object: JSONFields, _ key: String, context: Context, validator: NameValidator)
        throws(InputError) -> String
    {
        let name = try object.requiredString(key)
        try checkName(name.value, at: name.offset, context: context, validator: validator)
        return name.value
    }

    func optionalObjectName(_ object: JSONFields, _ key: String, context: Context, validator: NameValidator)
        throws(InputError) -> String?
    {
        guard let name = try object.optionalString(key) else { return nil }
        try checkName(name.value, at: name.offset, context: context, validator: validator)
        return name.value
    }

    private func checkName(_ name: String, at offset: Int, context: Context, validator: NameValidator)
        throws(InputError)
    {
        switch context {
        case .topLevel:
            try validator.checkLive(name, at: offset, self)
        case .handler(let selfObject):
            if name == "self" {
                guard selfObject != nil else { throw error("\"self\" is only defined inside a handler", at: offset) }
                return
            }
            guard declaredObjects[name] != nil else {
                throw error("unknown object \"\(name)\" (no step creates it)", at: offset)
            }
        }
    }

    func token(_ object: JSONFields) throws(InputError) -> String {
        let token = try object.requiredString("token")
        guard declaredTokens.contains(token.value) else {
            throw error("unknown token \"\(token.value)\" (no observe names it)", at: token.offset)
        }
        return token.value
    }

    func registry(_ object: JSONFields, kinds: Set<RegistryKind>, op: StepKind) throws(InputError)
        -> RegistryDeclaration
    {
        let name = try object.requiredString("registry")
        guard let registry = registries[name.value] else {
            throw error("unknown registry \"\(name.value)\"", at: name.offset)
        }
        guard kinds.contains(registry.kind) else {
            throw error(
                "\"\(op.rawValue)\" does not apply to \(registry.kind.rawValue) registry \"\(name.value)\"",
                at: name.offset)
        }
        return registry
    }
}

/// Tracks which objects are alive at each top-level step.
struct NameValidator {
    private var live: Set<String> = []
    private var released: Set<String> = []

    mutating func create(_ name: String, at offset: Int, _ parser: ScenarioParser) throws(InputError) {
        guard name != "self" else { throw parser.error("\"self\" is reserved for handlers", at: offset) }
        guard !live.contains(name) else {
            throw parser.error(
                "object \"\(name)\" already exists (object names must be unique while alive)",
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
