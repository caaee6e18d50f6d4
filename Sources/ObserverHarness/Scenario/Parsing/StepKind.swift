/// Every op a scenario step can name — the one list the parser reads — with
/// the fields each takes and how a handler writes it.
enum StepKind: String, CaseIterable {
    case create, release, retain, observe, remove
    case dropToken = "drop-token"
    case post, set
    case setDelegate = "set-delegate"
    case callDelegate = "call-delegate"
    case invoke, concurrently
    case openLoop = "open-loop"
    case runLoop = "run-loop"
    case cancelLoop = "cancel-loop"

    /// The fields a step of this kind may carry, besides `op` and `site`.
    var fields: Set<String> {
        switch self {
        case .create: ["object", "type", "methods"]
        case .release: ["object"]
        case .retain: ["holder", "target", "tokenOwner"]
        case .observe:
            [
                "registry", "observer", "channel", "sender", "senderValue", "object", "property", "handler", "method",
                "hold",
                "token", "typed",
            ]
        case .remove: ["registry", "token", "observer", "channel", "sender", "senderValue", "object", "property"]
        case .dropToken: ["token"]
        case .post: ["registry", "channel", "sender", "senderValue", "payload", "typed"]
        case .set: ["registry", "object", "property", "value"]
        case .setDelegate: ["registry", "owner", "delegate", "hold"]
        case .callDelegate: ["registry", "owner", "method", "payload"]
        case .invoke: ["object", "method", "payload"]
        case .concurrently: ["branches"]
        case .openLoop: ["registry", "loop", "owner", "channel", "sender", "typed", "bufferSize", "hold", "handler"]
        case .runLoop: ["loop", "count"]
        case .cancelLoop: ["loop"]
        }
    }

    /// Whether a handler may run it: `{"post": {…}}`. Creating objects and
    /// forking branches are top-level only.
    var runsInHandlers: Bool { self != .create && self != .concurrently }

    /// The one field a handler may give inline instead of an object:
    /// `{"release": "cell"}`, `{"drop-token": "t"}`.
    var inlineField: String? {
        switch self {
        case .release: "object"
        case .dropToken: "token"
        case .runLoop, .cancelLoop: "loop"
        default: nil
        }
    }

    /// Whether a handler may give the step's fields as an object (`release`
    /// only names its object).
    var takesFieldsInHandlers: Bool { runsInHandlers && self != .release }
}

/// The effects on the scenario's shared state a handler can run.
enum StateEffectKind: String, CaseIterable {
    case increment, set, append, read
}
