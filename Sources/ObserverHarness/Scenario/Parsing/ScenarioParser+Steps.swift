/// Steps: the op names the kind (``StepKind``), each kind reads its own
/// fields. Object steps and `concurrently` are here; registrations and
/// deliveries have their own files.
extension ScenarioParser {
    /// Top-level (or branch) steps, checked in order for object lifetimes.
    /// A branch of `concurrently` runs neither `create` nor `concurrently`:
    /// an object made in one order and not another has no single name.
    func steps(_ nodes: [JSONNode], validator: inout NameValidator, inBranch: Bool = false)
        throws(InputError) -> [Step]
    {
        var steps: [Step] = []
        for node in nodes {
            if inBranch, case .object = node.kind, let op = try fields(node, "a step").node("op"),
                case .string(let name) = op.kind,
                name == StepKind.create.rawValue || name == StepKind.concurrently.rawValue
            {
                throw error(
                    "\"\(name)\" is a top-level step; a branch of \"concurrently\" cannot run it", at: node.offset)
            }
            steps.append(try step(node, context: .topLevel, validator: &validator))
        }
        return steps
    }

    func step(_ node: JSONNode, context: Context, validator: inout NameValidator) throws(InputError) -> Step {
        let object = try fields(node, "a step")
        let op = try object.requiredString("op")
        let site = try self.site(object)
        guard let kind = StepKind(rawValue: op.value) else {
            throw error("unknown op \"\(op.value)\"", at: op.offset)
        }
        try object.allowOnly(
            kind.fields.union(StepIsolation.ops.contains(kind) ? ["op", "site", "isolation"] : ["op", "site"]))
        if context != .topLevel, !kind.runsInHandlers {
            throw error("\"\(kind.rawValue)\" is a top-level step; handlers cannot run it", at: node.offset)
        }
        let isolation = try self.isolation(object, context: context)
        let operation: Step.Operation
        switch kind {
        case .create: operation = try create(object, validator: &validator)
        case .release: operation = try release(object, context: context, validator: &validator)
        case .retain:
            operation = .retain(
                holder: try objectName(object, "holder", context: context, validator: validator),
                target: try objectName(object, "target", context: context, validator: validator),
                tokenOwner: try object.optionalBool("tokenOwner") ?? false)
        case .observe: operation = .observe(try observation(object, context: context, validator: validator))
        case .remove: operation = .remove(try removal(object, context: context, validator: validator))
        case .dropToken: operation = .dropToken(try token(object))
        case .post: operation = try post(object, context: context, validator: validator)
        case .set: operation = try set(object, context: context, validator: validator)
        case .setDelegate: operation = try setDelegate(object, context: context, validator: validator)
        case .callDelegate: operation = try callDelegate(object, context: context, validator: validator)
        case .invoke: operation = try invoke(object, context: context, validator: validator)
        case .concurrently: operation = try concurrently(object, validator: &validator)
        case .openLoop: operation = .openLoop(try loopOpening(object, context: context, validator: validator))
        case .runLoop: operation = .runLoop(loop: try loop(object), count: try object.optionalCount("count"))
        case .cancelLoop: operation = .cancelLoop(try loop(object))
        }
        return Step(
            operation: operation, site: site, siteNumber: siteNumbers.number(site), position: position(node.offset),
            isolation: isolation)
    }

    /// `"isolation"`: where a top-level step runs. A handler's effects run
    /// where its delivery runs, so they cannot name one.
    private func isolation(_ object: JSONFields, context: Context) throws(InputError) -> StepIsolation? {
        guard let text = try object.optionalString("isolation") else { return nil }
        guard context == .topLevel else {
            throw error(
                "a handler runs where its delivery runs; \"isolation\" belongs on top-level steps",
                at: text.offset)
        }
        guard !text.value.isEmpty else {
            throw error("\"isolation\" must be \"main-actor\", \"background\" or an actor's name", at: text.offset)
        }
        return StepIsolation(text.value)
    }

    // MARK: Objects

    private func create(_ object: JSONFields, validator: inout NameValidator) throws(InputError) -> Step.Operation {
        let name = try object.requiredString("object")
        try validator.create(name.value, at: name.offset, self)
        let type = try object.optionalString("type")?.value ?? name.value
        var methods: [String: Handler] = [:]
        if let methodsNode = object.node("methods") {
            guard case .object(let members) = methodsNode.kind else {
                throw error("\"methods\" must map method names to handlers", at: methodsNode.offset)
            }
            for member in members {
                guard methods[member.key] == nil else {
                    throw error("method \"\(member.key)\" is defined twice", at: member.keyOffset)
                }
                methods[member.key] = try handler(member.value, selfObject: name.value)
            }
        }
        return .create(object: name.value, type: type, methods: methods)
    }

    private func release(_ object: JSONFields, context: Context, validator: inout NameValidator)
        throws(InputError) -> Step.Operation
    {
        let name = try objectName(object, "object", context: context, validator: validator)
        if context == .topLevel { validator.release(name) }
        return .release(object: name)
    }

    private func invoke(_ object: JSONFields, context: Context, validator: NameValidator)
        throws(InputError) -> Step.Operation
    {
        let target = try objectName(object, "object", context: context, validator: validator)
        let method = try object.requiredString("method")
        // `"self"` is checked as the object it names: a misspelt method is an error either way.
        if let object = context.resolve(target), let methods = declaredObjects[object], !methods.contains(method.value)
        {
            let named = target == object ? "object \"\(object)\"" : "\"self\" (object \"\(object)\")"
            throw error("\(named) has no method \"\(method.value)\"", at: method.offset)
        }
        return .invoke(object: target, method: method.value, payload: object.node("payload")?.value ?? .null)
    }

    // MARK: Concurrency

    private func concurrently(_ object: JSONFields, validator: inout NameValidator)
        throws(InputError) -> Step.Operation
    {
        guard let branchesNode = object.node("branches") else {
            throw error("\"concurrently\" needs \"branches\": a list of step lists", at: object.offset)
        }
        var branches: [[Step]] = []
        var after = validator
        for branchNode in try array(branchesNode, "\"branches\"") {
            var branchValidator = validator
            branches.append(try steps(try array(branchNode, "a branch"), validator: &branchValidator, inBranch: true))
            after.merge(branchValidator)
        }
        guard branches.count >= 2 else {
            throw error("\"concurrently\" needs at least two branches", at: branchesNode.offset)
        }
        validator = after
        return .concurrently(branches)
    }
}
