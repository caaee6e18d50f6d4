/// A first pass over every step and handler, so a handler may name an object
/// created later, and a token is known (and declared once) before any step
/// uses it. Shapes are not checked here: the second pass does that.
extension ScenarioParser {
    mutating func declare(_ nodes: [JSONNode]) throws(InputError) {
        for node in nodes {
            guard case .object = node.kind else { continue }
            stepCount += 1
            guard stepCount <= limits.maxSteps else {
                throw error("more than \(limits.maxSteps) steps", at: node.offset)
            }
            let kind = node["op"].flatMap {
                if case .string(let text) = $0.kind { StepKind(rawValue: text) } else { nil }
            }
            if kind == .create, case .string(let name)? = node["object"]?.kind {
                try declareObject(name, node)
            }
            if kind == .observe, let token = node["token"], case .string(let name) = token.kind {
                guard declaredTokens.insert(name).inserted else {
                    throw error(
                        "token \"\(name)\" is declared twice (each observe names its own token)",
                        at: token.offset)
                }
            }
            if kind == .openLoop, let loop = node["loop"], case .string(let name) = loop.kind {
                guard declaredLoops.insert(name).inserted else {
                    throw error(
                        "loop \"\(name)\" is declared twice (each open-loop names its own loop)",
                        at: loop.offset)
                }
            }
            if case .array(let effects)? = node["handler"]?.kind { try declare(effects) }
            if case .array(let branches)? = node["branches"]?.kind {
                for branch in branches { if case .array(let steps) = branch.kind { try declare(steps) } }
            }
            // A handler's effects nest steps under their op name.
            for nested in StepKind.allCases where nested.takesFieldsInHandlers {
                if let step = node[nested.rawValue], case .object = step.kind {
                    try declare([step.withOp(nested.rawValue)])
                }
            }
        }
    }

    private mutating func declareObject(_ name: String, _ node: JSONNode) throws(InputError) {
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
}

extension JSONNode {
    /// This object with `"op": op` added, so a handler's `{"post": {...}}`
    /// parses as the step of the same name.
    func withOp(_ op: String) -> JSONNode {
        guard case .object(var members) = kind, !members.contains(where: { $0.key == "op" }) else { return self }
        members.insert(
            JSONMember(key: "op", keyOffset: offset, value: JSONNode(kind: .string(op), offset: offset)),
            at: 0)
        return JSONNode(kind: .object(members), offset: offset)
    }
}
