/// Async observation: `open-loop`, `run-loop`, `cancel-loop`, and the
/// `"typed"` flag of `observe` and `post` (Foundation's typed messages).
extension ScenarioParser {
    func loopOpening(_ object: JSONFields, context: Context, validator: NameValidator)
        throws(InputError) -> LoopOpening
    {
        let registry = try self.registry(object, kinds: [.notificationCenter], op: .openLoop)
        let loop = try object.requiredString("loop").value
        let owner = try optionalObjectName(object, "owner", context: context, validator: validator)
        let channel = try object.requiredString("channel").value
        let sender = try optionalObjectName(object, "sender", context: context, validator: validator)
        let typed = try object.optionalBool("typed") ?? false
        let bufferSize = try object.optionalCount("bufferSize")
        if let bufferSize {
            guard typed else {
                throw error(
                    "\"bufferSize\" belongs to typed loops (messages(of:for:bufferSize:)); "
                        + "postedNotifications(named:) buffers without limit", at: object.keyOffset("bufferSize"))
            }
            guard bufferSize >= 1 else {
                // At the value, as a negative count's error is.
                throw error(
                    "\"bufferSize\" must be at least 1",
                    at: object.node("bufferSize")?.offset ?? object.keyOffset("bufferSize"))
            }
        }
        let hold = try self.hold(object) ?? .weak
        guard hold != .unowned else {
            throw error(
                "a loop's \"hold\" is \"strong\" (its task captures self) or \"weak\"", at: object.keyOffset("hold"))
        }
        let handler =
            try object.node("handler").map { node throws(InputError) in
                try self.handler(node, selfObject: owner.flatMap(context.resolve))
            } ?? Handler(effects: [])
        return LoopOpening(
            registry: registry.name, loop: loop, owner: owner, channel: channel, sender: sender,
            typed: typed, bufferSize: typed ? bufferSize ?? 10 : nil, hold: hold, handler: handler)
    }

    func loop(_ object: JSONFields) throws(InputError) -> String {
        let loop = try object.requiredString("loop")
        guard declaredLoops.contains(loop.value) else {
            throw error("unknown loop \"\(loop.value)\" (no open-loop names it)", at: loop.offset)
        }
        return loop.value
    }

    /// `"typed": true`: Foundation's typed messages, named by `channel` (the
    /// message type), in a notification center only.
    func typedMessage(_ object: JSONFields, registry: RegistryKind, channel: String?) throws(InputError) -> Bool {
        guard let typed = try object.optionalBool("typed"), typed else { return false }
        guard registry == .notificationCenter else {
            throw error(
                "\"typed\" belongs to notification-center registries; this one is a \(registry.rawValue)",
                at: object.keyOffset("typed"))
        }
        guard channel != nil else {
            throw error("a typed message is named by its \"channel\" (the message type)", at: object.keyOffset("typed"))
        }
        if object.has("senderValue") {
            throw error(
                "a typed message's subject is an object (\"sender\"), not a value",
                at: object.keyOffset("senderValue"))
        }
        return true
    }
}
