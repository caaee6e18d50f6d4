/// Handlers and method bodies: a list of effects, each named by its one key
/// (besides `"value"`) — a ``StateEffectKind`` on the shared state, or a
/// ``StepKind`` run from inside the handler.
extension ScenarioParser {
    /// `selfObject`: the object `"self"` names in the handler (nil: not defined).
    func handler(_ node: JSONNode, selfObject: String?) throws(InputError) -> Handler {
        var effects: [Step] = []
        var validator = NameValidator()
        for effectNode in try array(node, "a handler") {
            effects.append(try effect(effectNode, selfObject: selfObject, validator: &validator))
        }
        return Handler(effects: effects)
    }

    private func effect(_ node: JSONNode, selfObject: String?, validator: inout NameValidator)
        throws(InputError) -> Step
    {
        guard case .object(let members) = node.kind,
            let first = members.first(where: { $0.key != "value" }) ?? members.first
        else {
            throw error("an effect must be an object such as {\"increment\": \"key\"}", at: node.offset)
        }
        let object = try fields(node, "an effect")
        if members.contains(where: { $0.key == Self.hopKey }) {
            return try hopEffect(object, selfObject: selfObject)
        }
        // `{"set": "key", …}` changes shared state; `{"set": {…}}` sets a property.
        if let state = StateEffectKind(rawValue: first.key), state != .set || first.value.isString {
            return try stateEffect(state, object)
        }
        guard let kind = StepKind(rawValue: first.key), kind.runsInHandlers else {
            let names =
                StateEffectKind.allCases.map(\.rawValue)
                + StepKind.allCases.filter { $0.runsInHandlers && $0 != .set }.map(\.rawValue) + [Self.hopKey]
            throw error(
                "unknown effect \"\(first.key)\" (expected "
                    + names.dropLast().joined(separator: ", ") + " or \(names.last ?? ""))", at: first.keyOffset)
        }
        try object.allowOnly([first.key])
        let context = Context.handler(selfObject: selfObject)
        if let field = kind.inlineField, first.value.isString {
            // `{"release": "cell"}`: the step with its one field.
            let fieldMember = JSONMember(key: field, keyOffset: first.value.offset, value: first.value)
            let stepNode = JSONNode(kind: .object([fieldMember]), offset: node.offset).withOp(kind.rawValue)
            return try step(stepNode, context: context, validator: &validator)
        }
        guard kind.takesFieldsInHandlers, case .object = first.value.kind else {
            let expected =
                kind.takesFieldsInHandlers
                ? "inside a handler takes the step's fields as an object"
                : "names an object"
            throw error("\"\(first.key)\" \(expected)", at: first.value.offset)
        }
        // The key is the step's kind: an "op" inside may only repeat it.
        if let op = first.value["op"], case .string(let name) = op.kind, name != kind.rawValue {
            throw error(
                "\"op\": \"\(name)\" inside a \"\(kind.rawValue)\" effect: the effect's key names its step, "
                    + "so drop \"op\" or write {\"\(name)\": {…}}", at: op.offset)
        }
        return try step(first.value.withOp(kind.rawValue), context: context, validator: &validator)
    }

    static let hopKey = "hop"

    /// `{"hop": ISOLATION, "handler": [EFFECTS]}`: the handler starts a
    /// `Task` that runs the effects at ISOLATION (`"main-actor"`, an actor's
    /// name, or `"background"` for a detached task) once the step ends.
    private func hopEffect(_ object: JSONFields, selfObject: String?) throws(InputError) -> Step {
        try object.allowOnly([Self.hopKey, "handler"])
        let target = try object.requiredString(Self.hopKey)
        var effects = Handler(effects: [])
        if let handlerNode = object.node("handler") { effects = try handler(handlerNode, selfObject: selfObject) }
        let position = self.position(object.offset)
        let site = CallSite(file: fileName, line: position.line, column: position.column)
        return Step(
            operation: .hop(isolation: StepIsolation(target.value), handler: effects), site: site,
            siteNumber: siteNumbers.number(site), position: position)
    }

    private func stateEffect(_ kind: StateEffectKind, _ object: JSONFields) throws(InputError) -> Step {
        let position = self.position(object.offset)
        let site = CallSite(file: fileName, line: position.line, column: position.column)
        let key = kind.rawValue
        let effect: StateEffect
        switch kind {
        case .increment, .read:
            try object.allowOnly([key])
            let name = try object.requiredString(key).value
            effect = kind == .increment ? .increment(name) : .read(name)
        case .set, .append:
            try object.allowOnly([key, "value"])
            let name = try object.requiredString(key).value
            guard let valueNode = object.node("value") else {
                throw error("\"\(key)\" needs a \"value\"", at: object.offset)
            }
            let value = try valueExpression(valueNode, inHandler: true)
            effect = kind == .set ? .set(name, value) : .append(name, value)
        }
        return Step(operation: .state(effect), site: site, siteNumber: siteNumbers.number(site), position: position)
    }

    func valueExpression(_ node: JSONNode, inHandler: Bool) throws(InputError) -> ValueExpression {
        if case .object(let members) = node.kind, members.count == 1, members[0].key == "payload" {
            guard case .string(let field) = members[0].value.kind else {
                throw error("{\"payload\": FIELD} names a payload field", at: members[0].value.offset)
            }
            guard inHandler else {
                throw error(
                    "{\"payload\": …} reads the notification being handled, so it only works in a handler",
                    at: node.offset)
            }
            return .payloadField(field)
        }
        return .literal(node.value)
    }
}

extension JSONNode {
    var isString: Bool {
        if case .string = kind { return true }
        return false
    }
}
