import JSONSchema
import Yams

/// A YAML file read as JSON data, remembering the line and column of every value,
/// so that schema errors in a scenario can point at the offending line.
public struct YAMLDocument: Sendable {
    public let value: JSONValue
    private let sources: SourceTree

    /// A YAML syntax problem, or YAML that has no JSON equivalent.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public let location: SourceLocation?
        public let reason: String

        public var description: String {
            location.map { "line \($0.line), column \($0.column): \(reason)" } ?? reason
        }
    }

    /// Parses `text`; an empty document is JSON `null`.
    public init(text: String) throws(LoadError) {
        let root: Node?
        do {
            // The basic resolver types nothing while composing: Yams would otherwise run its
            // type rules (regular expressions) on every scalar, keys included, to hash them.
            // `convert` types the few scalars that can be anything but text.
            root = try Yams.compose(yaml: text, .basic, .default, .utf8)
        } catch let error as YamlError {
            throw Self.loadError(from: error)
        } catch {
            throw LoadError(location: nil, reason: "\(error)")
        }
        if let root {
            (value, sources) = try Self.convert(root)
        } else {
            (value, sources) = (.null, SourceTree(location: nil, members: [], elements: []))
        }
    }

    /// Where the key of the mapping entry at `pointer` starts (falls back to its value).
    public func keyLocation(of pointer: JSONPointer) -> SourceLocation? {
        guard let key = pointer.tokens.last, let parent = pointer.parent,
              let member = sources.node(at: parent.tokens[...])?.members.first(where: { $0.key == key })
        else { return location(of: pointer) }
        return member.keyLocation ?? member.value.location
    }

    /// A problem with the value at `pointer`, as a message names it: `line 12: /reasons/3/id: …`.
    public func problem(at pointer: String, _ text: String) -> String {
        let line = JSONPointer(pointer).flatMap { location(of: $0) }.map { "line \($0.line): " } ?? ""
        return "\(line)\(pointer): \(text)"
    }

    /// Where the value at `pointer` (or its nearest existing parent) starts.
    public func location(of pointer: JSONPointer) -> SourceLocation? {
        var node = sources
        for token in pointer.tokens {
            guard let child = node.child(token) else { break }
            node = child
        }
        return node.location
    }

    /// Where each value of the document starts, shaped like the document; looked up
    /// only to point at a problem, so it is built as plain arrays, without hashing.
    private struct SourceTree: Sendable {
        struct Member: Sendable {
            let key: String
            let keyLocation: SourceLocation?
            let value: SourceTree
        }

        let location: SourceLocation?
        let members: [Member]
        let elements: [SourceTree]

        func child(_ token: String) -> SourceTree? {
            if let member = members.first(where: { $0.key == token }) { return member.value }
            guard let index = Int(token), elements.indices.contains(index) else { return nil }
            return elements[index]
        }

        func node(at tokens: ArraySlice<String>) -> SourceTree? {
            guard let first = tokens.first else { return self }
            return child(first)?.node(at: tokens.dropFirst())
        }
    }

    private static func convert(_ node: Node) throws(LoadError) -> (JSONValue, SourceTree) {
        let location = node.mark.map(Self.location)
        switch node {
        case .scalar(let scalar):
            return (try scalarValue(scalar, node: node, location: location), SourceTree(location: location, members: [], elements: []))
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            var sources: [SourceTree] = []
            for element in sequence {
                let (value, source) = try convert(element)
                elements.append(value)
                sources.append(source)
            }
            return (.array(elements), SourceTree(location: location, members: [], elements: sources))
        case .mapping(let mapping):
            var object = JSONObject()
            var members: [SourceTree.Member] = []
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar) = keyNode else {
                    throw LoadError(location: location, reason: "a mapping key must be plain text")
                }
                let (value, source) = try convert(valueNode)
                object[keyScalar.string] = value
                members.append(SourceTree.Member(key: keyScalar.string, keyLocation: keyScalar.mark.map(Self.location), value: source))
            }
            return (.object(object), SourceTree(location: location, members: members, elements: []))
        case .alias:
            throw LoadError(location: location, reason: "YAML aliases are not supported in scenario files; repeat the value")
        }
    }

    private static func location(_ mark: Mark) -> SourceLocation {
        SourceLocation(line: mark.line, column: mark.column, offset: 0)
    }

    /// A scalar as JSON: text, unless a tag or YAML's implicit rules make it null, a bool or a number.
    private static func scalarValue(_ scalar: Node.Scalar, node: Node, location: SourceLocation?) throws(LoadError) -> JSONValue {
        let written = Tag.Name(rawValue: scalar.tag.rawValue)
        guard written == .implicit else { return try typedValue(scalar, tag: written, location: location) }
        // Yams' type rules, seven regular expressions, only match short words or text
        // that starts like a number, so other untagged text is a string without asking them.
        guard mayBeTyped(scalar.string) else { return .string(scalar.string) }
        return try typedValue(scalar, tag: Resolver.default.resolveTag(of: node), location: location)
    }

    /// Whether YAML's implicit rules could read `text` as null, a bool or a number:
    /// only words of up to five letters (`null`, `false`, `yes`...) and text starting
    /// with a sign, digit, dot or `~`.
    private static func mayBeTyped(_ text: String) -> Bool {
        guard let first = text.utf8.first, text.utf8.count > 5 else { return true }
        return "-+.0123456789~".utf8.contains(first)
    }

    private static func typedValue(_ scalar: Node.Scalar, tag: Tag.Name, location: SourceLocation?) throws(LoadError) -> JSONValue {
        let text = scalar.string
        switch tag {
        case .null: return .null
        case .bool: return .bool(Bool.construct(from: scalar) ?? false)
        case .int:
            guard let value = Int.construct(from: scalar) else {
                throw LoadError(location: location, reason: "\(text) is not a representable integer")
            }
            return .number(Double(value))
        case .float:
            guard let value = Double.construct(from: scalar), value.isFinite else {
                throw LoadError(location: location, reason: "\(text) is not a finite number")
            }
            return .number(value)
        default:
            return .string(text)
        }
    }

    private static func loadError(from error: YamlError) -> LoadError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            return LoadError(location: location(mark), reason: "YAML syntax: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "`\($0)`" }.joined(separator: ", ")
            return LoadError(location: location(context.mark), reason: "duplicate key \(names) in the same mapping; each key may appear once")
        case .reader(let problem, _, _, _):
            return LoadError(location: nil, reason: "the file is not readable text: \(problem)")
        default:
            return LoadError(location: nil, reason: "\(error)")
        }
    }
}
