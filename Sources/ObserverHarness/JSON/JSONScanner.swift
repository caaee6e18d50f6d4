/// Makes the values a ``JSONScanner`` recognizes, so one scanner serves both
/// ``JSONValue`` and ``JSONNode`` without a cost to either.
protocol JSONTreeBuilder {
    associatedtype Value
    func makeNull(at offset: Int) -> Value
    func makeBool(_ value: Bool, at offset: Int) -> Value
    func makeInt(_ value: Int, at offset: Int) -> Value
    func makeDouble(_ value: Double, at offset: Int) -> Value
    /// Makes a string value; also used for object keys.
    func makeString(_ value: String, at offset: Int) -> Value
    func makeArray(_ elements: ArraySlice<Value>, at offset: Int) -> Value
    /// Makes an object from alternating keys, made by `makeString`, and values.
    func makeObject(_ keysAndValues: ArraySlice<Value>, at offset: Int) -> Value
    /// The string of a key made by `makeString`.
    func keyString(_ key: Value) -> String
}

/// The parsing state machine.
///
/// Open containers live on explicit stacks instead of the call stack, so the
/// depth of the input never risks a stack overflow. The stacks are shared by
/// all containers to keep allocations per document low: parsing a flat object
/// allocates only a stack and the object itself.
struct JSONScanner<Builder: JSONTreeBuilder> {
    let bytes: UnsafeBufferPointer<UInt8>
    let builder: Builder
    private let maxDepth: Int
    /// The offset of the next byte to read.
    var position = 0

    /// An open array or object.
    private struct Frame {
        var isObject: Bool
        var offset: Int
        /// Where this container's contents start on `stack`.
        var base: Int
    }

    /// The innermost open container.
    private var current: Frame?
    /// The containers enclosing `current`, outermost first.
    private var enclosing: [Frame] = []
    /// The finished contents of all open containers, innermost last; object
    /// keys and values alternate.
    private var stack: [Builder.Value] = []
    /// Key sets for open objects, by depth, built once an object is large
    /// enough that a linear duplicate check would be quadratic.
    private var keySets: [Int: Set<JSONKey>] = [:]
    /// Reused buffer for strings with escapes.
    var scratch: [UInt8] = []

    private static var linearKeyCheckLimit: Int { 8 }

    init(bytes: UnsafeBufferPointer<UInt8>, builder: Builder, maxDepth: Int) {
        self.bytes = bytes
        self.builder = builder
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> Builder.Value {
        position = InputBytes.byteOrderMarkLength(bytes)
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else {
            throw unexpected("unexpected text after JSON value")
        }
        return value
    }

    // MARK: Structure

    /// Parses one value at `position`, which must not be whitespace.
    private mutating func parseValue() throws(JSONSyntaxError) -> Builder.Value {
        nextValue: while true {
            guard position < bytes.count else { throw endOfInput() }
            let start = position
            var value: Builder.Value
            switch bytes[position] {
            case UInt8(ascii: "["):
                try open(isObject: false)
                skipWhitespace()
                guard peek(UInt8(ascii: "]")) else { continue nextValue }
                position += 1
                value = close()
            case UInt8(ascii: "{"):
                try open(isObject: true)
                skipWhitespace()
                guard peek(UInt8(ascii: "}")) else {
                    try parseKey(afterComma: nil)
                    continue nextValue
                }
                position += 1
                value = close()
            case UInt8(ascii: "\""):
                value = builder.makeString(try parseString(), at: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case UInt8(ascii: "t"):
                try parseLiteral("true")
                value = builder.makeBool(true, at: start)
            case UInt8(ascii: "f"):
                try parseLiteral("false")
                value = builder.makeBool(false, at: start)
            case UInt8(ascii: "n"):
                try parseLiteral("null")
                value = builder.makeNull(at: start)
            default:
                throw unexpected("expected value")
            }

            // Add the value to its container; close containers that end here.
            while let frame = current {
                push(value)
                skipWhitespace()
                guard position < bytes.count else { throw endOfInput() }
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    let comma = position
                    position += 1
                    skipWhitespace()
                    if frame.isObject {
                        try parseKey(afterComma: comma)
                    } else if peek(UInt8(ascii: "]")) {
                        throw JSONSyntaxError(message: "trailing comma in array", offset: comma)
                    }
                    continue nextValue
                }
                if byte == (frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    value = close()
                    continue
                }
                throw unexpected(
                    frame.isObject
                        ? "expected ',' or '}' after object member"
                        : "expected ',' or ']' after array element")
            }
            return value
        }
    }

    private mutating func push(_ value: Builder.Value) {
        if stack.capacity == 0 {
            // Typical JSON Lines records would otherwise regrow it several times.
            stack.reserveCapacity(16)
        }
        stack.append(value)
    }

    /// Opens the container at `position` and steps past its bracket.
    private mutating func open(isObject: Bool) throws(JSONSyntaxError) {
        let depth = current == nil ? 1 : enclosing.count + 2
        guard depth <= maxDepth else {
            throw JSONSyntaxError(message: "nesting deeper than \(maxDepth) levels", offset: position)
        }
        if let current {
            enclosing.append(current)
        }
        current = Frame(isObject: isObject, offset: position, base: stack.count)
        position += 1
    }

    /// Closes the innermost container and builds its value.
    private mutating func close() -> Builder.Value {
        guard let frame = current else { preconditionFailure("no open container") }
        // No named slice: one that outlived this statement would make the
        // removal below copy the stack.
        let value =
            frame.isObject
            ? builder.makeObject(stack[frame.base...], at: frame.offset)
            : builder.makeArray(stack[frame.base...], at: frame.offset)
        stack.removeLast(stack.count - frame.base)
        if frame.isObject && !keySets.isEmpty {
            keySets[enclosing.count] = nil
        }
        current = enclosing.popLast()
        return value
    }

    /// Parses an object key and its colon, leaving `position` at the value.
    private mutating func parseKey(afterComma comma: Int?) throws(JSONSyntaxError) {
        guard peek(UInt8(ascii: "\"")) else {
            if let comma, peek(UInt8(ascii: "}")) {
                throw JSONSyntaxError(message: "trailing comma in object", offset: comma)
            }
            throw unexpected("expected string for object key")
        }
        let offset = position
        let key = try parseString()
        try checkUnique(key, at: offset)
        push(builder.makeString(key, at: offset))
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else {
            throw unexpected("expected ':' after object key")
        }
        position += 1
        skipWhitespace()
    }

    private mutating func checkUnique(_ key: String, at offset: Int) throws(JSONSyntaxError) {
        guard let base = current?.base else { return }
        let depth = enclosing.count
        let keyPositions = stride(from: base, to: stack.count, by: 2)
        let isDuplicate: Bool
        if (stack.count - base) / 2 < Self.linearKeyCheckLimit {
            isDuplicate = keyPositions.contains { builder.keyString(stack[$0]).hasSameUnicodeScalars(as: key) }
        } else {
            if keySets[depth] == nil {
                var keys = Set<JSONKey>(minimumCapacity: 2 * Self.linearKeyCheckLimit)
                for position in keyPositions {
                    keys.insert(JSONKey(builder.keyString(stack[position])))
                }
                keySets[depth] = keys
            }
            isDuplicate = !keySets[depth, default: []].insert(JSONKey(key)).inserted
        }
        if isDuplicate {
            var message = Array("duplicate key ".utf8)
            JSONWriter.appendString(key, to: &message)
            throw JSONSyntaxError(message: String(decoding: message, as: UTF8.self), offset: offset)
        }
    }
}
