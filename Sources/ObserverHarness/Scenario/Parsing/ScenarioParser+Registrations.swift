/// `observe` and `remove`: what a registration listens to and how it ends.
extension ScenarioParser {
    func observation(_ object: JSONFields, context: Context, validator: NameValidator)
        throws(InputError) -> Observation
    {
        let registry = try self.registry(
            object, kinds: [.notificationCenter, .subject, .property, .observable],
            op: .observe)
        let observer = try objectName(object, "observer", context: context, validator: validator)
        var channel: String?
        var sender: String?
        if registry.kind == .observable {
            // withObservationTracking: no handle to keep, no removal.
            if object.has("token") {
                throw error(
                    "an observable registry's observation is one-shot; it takes no \"token\"",
                    at: object.keyOffset("token"))
            }
            if try hold(object) == .unowned {
                throw error(Self.observableHoldMessage, at: object.keyOffset("hold"))
            }
        }
        switch registry.kind {
        case .property, .observable:
            for key in ["channel", "sender"] where object.has(key) {
                throw error(
                    "a property registry observes \"object\" + \"property\", not \"\(key)\"",
                    at: object.keyOffset(key))
            }
            sender = try objectName(object, "object", context: context, validator: validator)
            channel = try object.requiredString("property").value
        default:
            for key in ["object", "property"] where object.has(key) {
                throw error(
                    "\"\(key)\" belongs to property registries; this one is a \(registry.kind.rawValue)",
                    at: object.keyOffset(key))
            }
            // Every name is asked for with `null`: a forgotten field must not make a wildcard observer.
            if registry.kind == .notificationCenter, !object.has("channel") {
                throw error(
                    "\"observe\" on a notification-center needs a \"channel\" (a name, or null for every name)",
                    at: object.offset)
            }
            channel = try object.optionalString("channel")?.value
            if registry.kind == .subject { channel = channel ?? "" }
            sender = try optionalObjectName(object, "sender", context: context, validator: validator)
        }
        let response: Observation.Response
        switch (object.node("handler"), object.node("method")) {
        case (let handlerNode?, nil):
            response = .handler(try handler(handlerNode, selfObject: context.resolve(observer)))
        case (nil, let methodNode?):
            guard case .string(let method) = methodNode.kind else {
                throw error("\"method\" must be a string", at: methodNode.offset)
            }
            if let object = context.resolve(observer), let methods = declaredObjects[object], !methods.contains(method)
            {
                let named = observer == object ? "object \"\(object)\"" : "\"self\" (object \"\(object)\")"
                throw error("\(named) has no method \"\(method)\"", at: methodNode.offset)
            }
            response = .method(method)
        case (.some, .some):
            throw error("give \"handler\" or \"method\", not both", at: object.keyOffset("method"))
        case (nil, nil):
            throw error("\"observe\" needs a \"handler\" or a \"method\"", at: object.offset)
        }
        let token = try object.optionalString("token")?.value
        let typed = try typedMessage(object, registry: registry.kind, channel: channel)
        return Observation(
            registry: registry.name, observer: observer, channel: channel, sender: sender,
            response: response, hold: try hold(object), token: token,
            senderValue: try senderValue(object, registry: registry.kind), typed: typed)
    }

    func removal(_ object: JSONFields, context: Context, validator: NameValidator) throws(InputError) -> Removal {
        let registry = try self.registry(object, kinds: [.notificationCenter, .subject, .property], op: .remove)
        if object.has("token") {
            for key in ["observer", "channel", "sender", "senderValue", "object", "property"] where object.has(key) {
                throw error("remove by \"token\" or by \"observer\", not both", at: object.keyOffset(key))
            }
            return Removal(
                registry: registry.name, token: try token(object), observer: nil, channel: nil,
                channelGiven: false, sender: nil)
        }
        guard object.has("observer") else {
            throw error("\"remove\" needs a \"token\" or an \"observer\"", at: object.offset)
        }
        let observer = try objectName(object, "observer", context: context, validator: validator)
        if registry.kind == .property {
            for key in ["channel", "sender"] where object.has(key) {
                throw error(
                    "a property registry removes by \"object\" + \"property\", not \"\(key)\"",
                    at: object.keyOffset(key))
            }
            let target = try optionalObjectName(object, "object", context: context, validator: validator)
            let property = try object.optionalString("property")?.value
            return Removal(
                registry: registry.name, token: nil, observer: observer, channel: property,
                channelGiven: property != nil, sender: target)
        }
        for key in ["object", "property"] where object.has(key) {
            throw error("\"\(key)\" belongs to property registries", at: object.keyOffset(key))
        }
        let channel = try object.optionalString("channel")?.value
        return Removal(
            registry: registry.name, token: nil, observer: observer, channel: channel,
            channelGiven: channel != nil,
            sender: try optionalObjectName(object, "sender", context: context, validator: validator),
            senderValue: try senderValue(object, registry: registry.kind))
    }

    /// `senderValue`: a value (string, number, boolean, list, object) given
    /// as a notification's `object:`, where `sender` names an object.
    func senderValue(_ object: JSONFields, registry: RegistryKind) throws(InputError) -> JSONValue? {
        guard let node = object.node("senderValue") else { return nil }
        guard registry == .notificationCenter else {
            throw error(
                "\"senderValue\" belongs to notification-center registries; this one is a \(registry.rawValue)",
                at: object.keyOffset("senderValue"))
        }
        if object.has("sender") {
            throw error(
                "give \"sender\" (an object) or \"senderValue\" (a value), not both",
                at: object.keyOffset("senderValue"))
        }
        if node.value.isNull {
            throw error("\"senderValue\" must be a value; leave it out for no sender", at: node.offset)
        }
        return node.value
    }
}
