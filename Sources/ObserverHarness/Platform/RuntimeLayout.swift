// Every read of the Swift runtime's own metadata lives in this file: what a
// reference-chain search needs and `Mirror` does not say — whether a stored
// property holds strongly, and what a closure captures.
//
// The entry points are the runtime's exported reflection functions (the ones
// `Mirror` itself calls) and its metadata layouts, which are ABI on Apple
// platforms. Each read gives up (returns nil or nothing) where the layout is
// not the one expected, so a search misses a link rather than invents one.

@_silgen_name("swift_getMetadataKind")
private func runtimeMetadataKind(_ metadata: UnsafeRawPointer) -> UInt

@_weakLinked @_silgen_name("swift_reflectionMirror_recursiveCount")
private func runtimeFieldCount(_ type: Any.Type) -> Int

@_weakLinked @_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func runtimeFieldMetadata(
    _ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<RuntimeFieldRecord>
) -> Any.Type

@_weakLinked @_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func runtimeFieldOffset(_ type: Any.Type, index: Int) -> Int

// The three recursive-field entry points came with the Swift 5.2 runtime
// (macOS 10.15.4, iOS 13.4): weakly linked, and read only where it is there.

// The generic helpers `_openExistential` opens into are file-level
// functions: the Swift 6.3 compiler crashes opening one into a static method
// or a closure (LocalArchetypeRequirementCollector).

/// The context word of a thick function value (its second word).
private func thickFunctionContext<T>(_ function: T) -> UnsafeRawPointer? {
    guard MemoryLayout<T>.size == 2 * MemoryLayout<Int>.size else { return nil }
    var copy = function
    return withUnsafeBytes(of: &copy) { $0.load(fromByteOffset: MemoryLayout<Int>.size, as: UnsafeRawPointer?.self) }
}

private func strongFieldValues<T>(_ value: T) -> [(name: String, value: Any)] {
    let fields = RuntimeLayout.fields(of: T.self).filter(\.isFollowed)
    var copy = value
    return withUnsafeBytes(of: &copy) { bytes in
        guard let base = bytes.baseAddress else { return [] }
        return fields.map { ($0.name, RuntimeLayout.load($0.type, from: base + $0.offset)) }
    }
}

private func layout<T>(_: T.Type) -> (size: Int, alignment: Int) {
    (MemoryLayout<T>.size, MemoryLayout<T>.alignment)
}

/// The runtime's `_FieldReflectionMetadata` (SwiftShims' Reflection.h).
private struct RuntimeFieldRecord {
    var name: UnsafePointer<CChar>? = nil
    var freeName: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong = false
    var isVar = false
}

/// What the runtime says about a type and the heap objects closures use.
enum RuntimeLayout {
    /// The metadata kinds a search tells apart (`MetadataKind` in the runtime).
    enum Kind {
        case classInstance, structure, enumeration, optional, tuple, function, closureContext, other
    }

    static func kind(of type: Any.Type) -> Kind {
        kind(ofMetadata: unsafeBitCast(type, to: UnsafeRawPointer.self))
    }

    private static func kind(ofMetadata metadata: UnsafeRawPointer) -> Kind {
        switch runtimeMetadataKind(metadata) {
        case 0: .classInstance
        case 0x200: .structure
        case 0x201: .enumeration
        case 0x202: .optional
        case 0x301: .tuple
        case 0x302: .function
        case 0x400: .closureContext
        default: .other
        }
    }

    /// One stored property of a class (its superclasses' included) or struct.
    struct Field {
        let name: String
        let type: Any.Type
        let offset: Int
        /// False for `weak`, `unowned` and `unowned(unsafe)` properties:
        /// `Mirror` shows their values, but they keep nothing alive.
        let isStrong: Bool
        /// False for a noncopyable type (a `Mutex`): its value cannot be
        /// copied out to be looked into.
        let isCopyable: Bool

        /// Whether a search reads it: strong, and copyable.
        var isFollowed: Bool { isStrong && isCopyable }
    }

    /// `ValueWitnessFlags.IsNonCopyable`, in the flags word after the value
    /// witness table's eight functions, size and stride.
    private static func isCopyable(_ type: Any.Type) -> Bool {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let witnesses = metadata.load(fromByteOffset: -MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
        let flags = witnesses.load(fromByteOffset: 10 * MemoryLayout<Int>.size, as: UInt32.self)
        return flags & 0x0080_0000 == 0
    }

    static func fields(of type: Any.Type) -> [Field] {
        guard #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, macCatalyst 13.4, *) else { return [] }
        return (0..<runtimeFieldCount(type)).map { index in
            var record = RuntimeFieldRecord()
            let fieldType = runtimeFieldMetadata(type, index: index, fieldMetadata: &record)
            let name = record.name.map { String(cString: $0) } ?? "\(index)"
            record.freeName?(record.name)
            return Field(
                name: name, type: fieldType, offset: runtimeFieldOffset(type, index: index),
                isStrong: record.isStrong, isCopyable: isCopyable(fieldType))
        }
    }

    /// A copy of the value of type `type` stored at `address`.
    static func load(_ type: Any.Type, from address: UnsafeRawPointer) -> Any {
        func loadValue<T>(_: T.Type) -> Any { address.assumingMemoryBound(to: T.self).pointee }
        return _openExistential(type, do: loadValue)
    }

    /// The context of a Swift closure value (a thick function: code pointer,
    /// then its context), nil for a closure that captures nothing, a C
    /// function or an Objective-C block (whose captures the search leaves).
    static func closureContext(_ value: Any) -> UnsafeRawPointer? {
        let metadata = unsafeBitCast(type(of: value), to: UnsafeRawPointer.self)
        // FunctionTypeFlags: the convention's byte is 0 for a Swift closure.
        let convention = (metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UInt.self) >> 16) & 0xFF
        guard convention == 0 else { return nil }
        return _openExistential(value, do: thickFunctionContext)
    }

    /// The strongly held stored properties of a struct value, read from a copy.
    static func strongFields(of value: Any) -> [(name: String, value: Any)] {
        _openExistential(value, do: strongFieldValues)
    }

    /// What a closure context is: the one object the closure captured (the
    /// compiler makes a lone strong capture the context itself), or a box of
    /// captures.
    enum Context {
        case object(AnyObject)
        /// Strong captures, and the boxes of captured `var`s (contexts too).
        case captures([Any], boxes: [UnsafeRawPointer])
        case unreadable
    }

    /// Reads `context`. A box lists its strong captures, read at the offsets
    /// its capture descriptor gives; a capture held `weak` or `unowned` is
    /// stepped over, a boxed one (a `var`) is a box to read the same way
    /// (one holding a lone `var` is the context itself); a capture whose type the runtime
    /// cannot name (a generic one) ends the reading there, as every later
    /// offset depends on its size.
    static func read(context: UnsafeRawPointer) -> Context {
        let metadata = context.load(as: UnsafeRawPointer.self)
        switch kind(ofMetadata: metadata) {
        case .classInstance:
            return .object(Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue())
        case .closureContext:
            let (values, boxes) = captures(of: context, metadata: metadata)
            return .captures(values, boxes: boxes)
        default:
            return .unreadable
        }
    }

    /// `HeapLocalVariableMetadata`: the kind, `OffsetToFirstCapture` (32
    /// bits), then the capture descriptor: three 32-bit counts (captures,
    /// metadata sources, generic bindings) and a relative pointer to each
    /// capture's mangled type name. Bindings come first in the box, a word each.
    private static func captures(
        of context: UnsafeRawPointer, metadata: UnsafeRawPointer
    ) -> (values: [Any], boxes: [UnsafeRawPointer]) {
        let word = MemoryLayout<Int>.size
        guard let descriptor = metadata.load(fromByteOffset: 2 * word, as: UnsafeRawPointer?.self) else {
            return ([], [])
        }
        let count = Int(descriptor.load(as: UInt32.self))
        let bindings = Int(descriptor.load(fromByteOffset: 8, as: UInt32.self))
        var offset = Int(metadata.load(fromByteOffset: word, as: UInt32.self)) + bindings * word
        var values: [Any] = []
        var boxes: [UnsafeRawPointer] = []
        for index in 0..<count {
            let record = descriptor + 12 + 4 * index
            let name = (record + Int(record.load(as: Int32.self))).assumingMemoryBound(to: UInt8.self)
            let mangled = MangledName(name)
            if let storage = mangled.referenceStorage {
                // One word: a weak or unowned reference (holds nothing), or a box.
                offset = (offset + word - 1) / word * word
                if storage == UInt8(ascii: "x"),
                    let box = context.load(fromByteOffset: offset, as: UnsafeRawPointer?.self)
                {
                    boxes.append(box)
                }
                offset += word
                continue
            }
            guard
                let type = _getTypeByMangledNameInContext(
                    name, UInt(mangled.length), genericContext: nil, genericArguments: nil)
            else {
                // A closure kept in a reabstraction thunk (a closure stored
                // where a generic type expects it): no runtime type, but a
                // thick function's two words, the second its context.
                guard mangled.isThickImplFunction else { break }
                offset = (offset + word - 1) / word * word
                if let inner = context.load(fromByteOffset: offset + word, as: UnsafeRawPointer?.self) {
                    boxes.append(inner)
                }
                offset += 2 * word
                continue
            }
            let (size, alignment) = _openExistential(type, do: layout)
            offset = (offset + alignment - 1) / alignment * alignment
            values.append(load(type, from: context + offset))
            offset += size
        }
        return (values, boxes)
    }

    /// A mangled type name's length and last operators, read token by
    /// token: bytes 1…0x17 start a 4-byte symbolic reference, 0x18…0x1F a
    /// pointer-sized one, digits an identifier of that many characters.
    private struct MangledName {
        var length = 0
        /// `w`, `o`, `u` or `x` when it ends in `Xw` (weak), `Xo` (unowned),
        /// `Xu` (unowned(unsafe)) or `Xx` (a box).
        var referenceStorage: UInt8?
        /// A SIL function type (`…I` attributes `_`) with a context: callee
        /// convention guaranteed, owned or unowned, and no block, C, method
        /// or witness representation.
        var isThickImplFunction = false

        init(_ name: UnsafePointer<UInt8>) {
            var operators: [UInt8] = []
            while case let byte = name[length], byte != 0 {
                switch byte {
                case 0x01...0x17:
                    length += 5
                    operators.append(0)
                case 0x18...0x1F:
                    length += 1 + MemoryLayout<Int>.size
                    operators.append(0)
                case UInt8(ascii: "1")...UInt8(ascii: "9"):
                    var count = 0
                    while case let digit = name[length], (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) {
                        count = count * 10 + Int(digit - UInt8(ascii: "0"))
                        length += 1
                    }
                    // Never past the name's end: an identifier holds no NUL.
                    var skipped = 0
                    while skipped < count, name[length] != 0 {
                        length += 1
                        skipped += 1
                    }
                    operators.append(0)
                default:
                    length += 1
                    operators.append(byte)
                }
            }
            if operators.count >= 2, operators[operators.count - 2] == UInt8(ascii: "X"),
                "wuox".utf8.contains(operators[operators.count - 1])
            {
                referenceStorage = operators[operators.count - 1]
            }
            isThickImplFunction = Self.isThickImplFunction(operators)
        }

        private static func isThickImplFunction(_ operators: [UInt8]) -> Bool {
            guard operators.last == UInt8(ascii: "_"), let start = operators.lastIndex(of: UInt8(ascii: "I")) else {
                return false
            }
            // Pattern and invocation substitutions, pseudo-generic, escaping.
            var index = start + 1
            while index < operators.count, "sIPe".utf8.contains(operators[index]) { index += 1 }
            guard index + 1 < operators.count, "gxy".utf8.contains(operators[index]) else { return false }
            return !"BCzMJKW".utf8.contains(operators[index + 1])
        }
    }
}
