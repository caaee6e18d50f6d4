/// `post`, `set`, `set-delegate` and `call-delegate`: the steps that make a
/// registry deliver.
extension ScenarioParser {
    func post(_ object: JSONFields, context: Context, validator: NameValidator) throws(InputError) -> Step.Operation {
        let registry = try self.registry(object, kinds: [.notificationCenter, .subject], op: .post)
        var channel = try object.optionalString("channel")?.value
        if registry.kind == .notificationCenter, channel == nil {
            throw error(
                "\"post\" to a notification-center needs a \"channel\" (the notification name)",
                at: object.offset)
        }
        if registry.kind == .subject { channel = channel ?? "" }
        let sender = try optionalObjectName(object, "sender", context: context, validator: validator)
        return .post(
            registry: registry.name, channel: channel, sender: sender,
            payload: object.node("payload")?.value ?? .null,
            senderValue: try senderValue(object, registry: registry.kind),
            typed: try typedMessage(object, registry: registry.kind, channel: channel))
    }

    func set(_ object: JSONFields, context: Context, validator: NameValidator) throws(InputError) -> Step.Operation {
        let registry = try self.registry(object, kinds: [.property, .observable], op: .set)
        let target = try objectName(object, "object", context: context, validator: validator)
        let property = try object.requiredString("property").value
        guard let valueNode = object.node("value") else {
            throw error("\"set\" needs a \"value\"", at: object.offset)
        }
        return .set(
            registry: registry.name, object: target, property: property,
            value: try valueExpression(valueNode, inHandler: context != .topLevel))
    }

    func setDelegate(_ object: JSONFields, context: Context, validator: NameValidator)
        throws(InputError) -> Step.Operation
    {
        let registry = try self.registry(object, kinds: [.delegate], op: .setDelegate)
        let owner = try objectName(object, "owner", context: context, validator: validator)
        guard let delegateNode = object.node("delegate") else {
            throw error("\"set-delegate\" needs a \"delegate\" (an object, or null)", at: object.offset)
        }
        var delegate: String?
        if case .null = delegateNode.kind {
            delegate = nil
        } else {
            delegate = try objectName(object, "delegate", context: context, validator: validator)
        }
        return .setDelegate(registry: registry.name, owner: owner, delegate: delegate, hold: try hold(object))
    }

    func callDelegate(_ object: JSONFields, context: Context, validator: NameValidator)
        throws(InputError) -> Step.Operation
    {
        let registry = try self.registry(object, kinds: [.delegate], op: .callDelegate)
        return .callDelegate(
            registry: registry.name,
            owner: try objectName(object, "owner", context: context, validator: validator),
            method: try object.requiredString("method").value,
            payload: object.node("payload")?.value ?? .null)
    }
}
