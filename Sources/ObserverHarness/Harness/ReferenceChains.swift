import Foundation

/// Finds what keeps a released object alive, as LeakCanary's leak trace
/// does: the chain of strong references from something the harness knows to
/// the object, each link a stored property (`Feed.subscribers`), an element
/// (`[2]`, `["feed"]`) or a closure (`Subscription.callback (closure)`).
///
/// The search reads memory, so every link it names is one the object is
/// really reached by: a stored property the runtime says holds strongly
/// (`weak` and `unowned` ones are not followed, though `Mirror` shows their
/// values), an element of an array, dictionary or set, an optional's or enum
/// case's payload, and a closure's context — the lone object it captured, or
/// the strong captures its capture descriptor lays out (see
/// ``RuntimeLayout``). A closure whose captures cannot be read (a generic
/// one, an Objective-C block) is a dead end, never a guess.
///
/// It starts, breadth first so the chain is the shortest, from the
/// registrations of the harness's registries (the observers they hold
/// strongly and their blocks), then from the object itself (a retain cycle),
/// then from the other objects the harness knows (tracked, observers,
/// senders, tokens), those the app has not released first. It runs only
/// when a released object is still alive, and is bounded: past
/// ``objectLimit`` objects or ``referenceLimit`` references it stops and says so.
enum ReferenceChains {
    static let objectLimit = 10_000
    static let referenceLimit = 100_000

    static func record(in recorder: Recorder) {
        let suspects = recorder.releasedButAlive()
        guard !suspects.isEmpty else { return }
        let held = recorder.registriesForLeakChecks().flatMap { $0.heldReferences() }.sorted {
            $0.registration < $1.registration
        }
        let released = Set(suspects)
        let known = recorder.liveObjectsNow()
        for id in suspects {
            guard let target = known.first(where: { $0.id == id })?.object else { continue }
            var search = Search(target: target)
            var outcome = search.run(held.map { Root(registration: $0.registration, values: $0.values) })
            outcome = outcome ?? search.run([Root(object: id, values: [target], isTarget: true)])
            outcome = outcome ?? search.run(known.filter { !released.contains($0.id) }.map(Root.init))
            outcome = outcome ?? search.run(known.filter { released.contains($0.id) && $0.id != id }.map(Root.init))
            if let outcome {
                recorder.recordReferenceChain(
                    of: id, rootObject: outcome.root.object, rootRegistration: outcome.root.registration,
                    links: outcome.links)
            } else {
                recorder.recordReferenceChainNotFound(of: id, searched: search.summary)
            }
        }
    }

    /// Where a search starts: a registration's strongly held values, or a known object.
    struct Root {
        var object: UInt32 = 0
        var registration: UInt32 = 0
        var values: [Any]
        /// The leaked object itself: it is not found at the start, only at a cycle's end.
        var isTarget = false

        init(registration: UInt32, values: [Any]) {
            self.registration = registration
            self.values = values
        }

        init(object: UInt32, values: [Any], isTarget: Bool = false) {
            self.object = object
            self.values = values
            self.isTarget = isTarget
        }

        init(_ known: (id: UInt32, object: AnyObject)) {
            self.init(object: known.id, values: [known.object])
        }
    }

    /// A chain found: its root and the links after it. The first link is
    /// what follows the root's own text (empty, or ` (closure)` for a block).
    struct Outcome {
        let root: Root
        let links: [String]
    }

    private struct Node {
        let object: AnyObject
        let parent: Int?
        let root: Int
        /// How its parent (or its root) reaches it.
        let link: String
    }

    private struct Search {
        let target: AnyObject
        var nodes: [Node] = []
        var visited = Set<ObjectIdentifier>()
        var visitedContexts = Set<UnsafeRawPointer>()
        var references = 0
        var roots = 0
        var found: (parent: Int?, root: Int, link: String)?

        init(target: AnyObject) { self.target = target }

        var limitReached: Bool { nodes.count >= objectLimit || references >= referenceLimit }

        /// What was searched, for a report that found no chain.
        var summary: String {
            let limit =
                limitReached
                ? "; the search stopped at its bound (\(grouped(objectLimit)) objects, \(grouped(referenceLimit)) "
                    + "references)" : ""
            return "\(nodes.count) object\(nodes.count == 1 ? "" : "s") and \(references) reference"
                + "\(references == 1 ? "" : "s") from \(roots) root\(roots == 1 ? "" : "s")\(limit)"
        }

        /// `10 000`, as README writes its limits.
        private func grouped(_ number: Int) -> String {
            var digits = String(number)
            var index = digits.endIndex
            while digits.distance(from: digits.startIndex, to: index) > 3 {
                index = digits.index(index, offsetBy: -3)
                digits.insert(" ", at: index)
            }
            return digits
        }

        /// Breadth first from `starts`; nil when the object is not reached.
        mutating func run(_ starts: [Root]) -> Outcome? {
            guard !limitReached else { return nil }
            roots += starts.count
            let first = nodes.count
            for (index, root) in starts.enumerated() {
                if root.isTarget {
                    enter(target, root: index, parent: nil)
                } else {
                    for value in root.values { walk(value, path: "", root: index, parent: nil) }
                }
                if found != nil { break }
            }
            var next = first
            while found == nil, next < nodes.count, !limitReached {
                enter(nodes[next].object, root: nodes[next].root, parent: next)
                next += 1
            }
            guard let found else { return nil }
            var links = [found.link]
            var node = found.parent
            while let index = node {
                links.append(nodes[index].link)
                node = nodes[index].parent
            }
            links.reverse()
            let root = starts[found.root]
            if root.isTarget {
                links.insert("", at: 0)
            } else if root.registration != 0 {
                // The path inside the harness's own registration says nothing
                // to the app; only that a block of it is the holder.
                links[0] = links[0].contains(" (closure)") ? " (closure)" : ""
            }
            return Outcome(root: root, links: links)
        }

        /// Reads an object's stored properties, its superclasses' included.
        private mutating func enter(_ object: AnyObject, root: Int, parent: Int?) {
            let typeName = String(describing: type(of: object))
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            for field in RuntimeLayout.fields(of: type(of: object)) where field.isFollowed {
                walk(
                    RuntimeLayout.load(field.type, from: base + field.offset), path: "\(typeName).\(field.name)",
                    root: root, parent: parent)
                if found != nil || limitReached { return }
            }
        }

        /// Follows one strongly held value: an object becomes a node to
        /// enter later; values inside it are walked now.
        private mutating func walk(_ value: Any, path: String, root: Int, parent: Int?) {
            guard found == nil, !limitReached else { return }
            references += 1
            if let object = classInstance(value) {
                if object === target {
                    found = (parent, root, path)
                } else if Self.isSearchable(object), visited.insert(ObjectIdentifier(object)).inserted {
                    nodes.append(Node(object: object, parent: parent, root: root, link: path))
                }
                return
            }
            let type = type(of: value)
            switch RuntimeLayout.kind(of: type) {
            case .function:
                walkClosure(value, path: path.hasSuffix(" (closure)") ? path : path + " (closure)", root, parent)
            case .structure where Self.isStandardLibraryCollection(type):
                walkMirror(value, path: path, root: root, parent: parent)
            case .structure where !String(reflecting: type).hasPrefix("Swift."):
                walkStruct(value, path: path, root: root, parent: parent)
            case .optional, .tuple:
                walkMirror(value, path: path, root: root, parent: parent)
            case .enumeration where !(value is any CustomReflectable):
                // The runtime's own mirror: a custom one could list what the case does not store.
                walkMirror(value, path: path, root: root, parent: parent)
            default:
                return
            }
        }

        private mutating func walkClosure(_ value: Any, path: String, _ root: Int, _ parent: Int?) {
            guard let context = RuntimeLayout.closureContext(value) else { return }
            walkContext(context, path: path, root, parent)
        }

        /// A closure's context, or a box it captured (alive while the
        /// closure being walked is).
        private mutating func walkContext(_ context: UnsafeRawPointer, path: String, _ root: Int, _ parent: Int?) {
            guard visitedContexts.insert(context).inserted else { return }
            switch RuntimeLayout.read(context: context) {
            case .object(let object):
                walk(object, path: path, root: root, parent: parent)
            case .captures(let captures, let boxes):
                for capture in captures { walk(capture, path: path, root: root, parent: parent) }
                for box in boxes { walkContext(box, path: path, root, parent) }
            case .unreadable:
                return
            }
        }

        private mutating func walkStruct(_ value: Any, path: String, root: Int, parent: Int?) {
            for field in RuntimeLayout.strongFields(of: value) {
                walk(field.value, path: "\(path).\(field.name)", root: root, parent: parent)
            }
        }

        /// Optionals, enums, tuples and the standard library's arrays, sets
        /// and dictionaries, whose elements `Mirror` lists (stored, not
        /// computed as a lazy collection's are) and which hold them all strongly.
        private mutating func walkMirror(_ value: Any, path: String, root: Int, parent: Int?) {
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                for child in mirror.children { walk(child.value, path: path, root: root, parent: parent) }
            case .enum:
                for child in mirror.children {
                    walk(child.value, path: "\(path)(.\(child.label ?? "?"))", root: root, parent: parent)
                }
            case .tuple:
                // `Mirror` labels an unlabelled element `.0`, `.1`, …
                for (index, child) in mirror.children.enumerated() {
                    let label = child.label ?? ".\(index)"
                    walk(
                        child.value, path: path + (label.hasPrefix(".") ? "" : ".") + label, root: root, parent: parent)
                }
            case .collection:
                for (index, child) in mirror.children.enumerated() {
                    walk(child.value, path: "\(path)[\(index)]", root: root, parent: parent)
                }
            case .set:
                for child in mirror.children {
                    walk(child.value, path: "\(path) (set member)", root: root, parent: parent)
                }
            case .dictionary:
                // In key order, so the chain found is the same every run.
                let entries = mirror.children.compactMap { child -> (key: String, value: Any)? in
                    let pair = Array(Mirror(reflecting: child.value).children)
                    return pair.count == 2 ? (Self.keyText(pair[0].value), pair[1].value) : nil
                }
                for entry in entries.sorted(by: { $0.key < $1.key }) {
                    walk(entry.value, path: "\(path)[\(entry.key)]", root: root, parent: parent)
                }
            default:
                return
            }
        }

        /// The harness's own recorder and registries are roots, not links;
        /// an operation queue links its operations through `Unmanaged`
        /// references, which may already be freed.
        private static func isSearchable(_ object: AnyObject) -> Bool {
            !(object is Recorder) && !(object is any DetachableRegistry) && !(object is OperationQueue)
                && !(object is Operation)
        }

        private static func isStandardLibraryCollection(_ type: Any.Type) -> Bool {
            let name = String(reflecting: type)
            return ["Swift.Array<", "Swift.ContiguousArray<", "Swift.ArraySlice<", "Swift.Set<", "Swift.Dictionary<"]
                .contains { name.hasPrefix($0) }
        }

        /// A dictionary key as a chain shows it: text quoted, numbers as
        /// they are, anything else by its type (never an address).
        private static func keyText(_ key: Any) -> String {
            switch key {
            case let text as String: String(reflecting: text)
            case let number as any BinaryInteger: "\(number)"
            case let flag as Bool: "\(flag)"
            default:
                Mirror(reflecting: key).displayStyle == .enum && Mirror(reflecting: key).children.isEmpty
                    ? ".\(key)" : "some \(Swift.type(of: key))"
            }
        }
    }
}

/// A strong reference a registration keeps: its observer (held strongly)
/// and its handler, for the reference-chain search.
struct HeldReferences {
    let registration: UInt32
    let values: [Any]
}
