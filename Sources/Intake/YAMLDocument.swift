import JSONSchema
import Yams

/// A YAML file read as JSON data, remembering the line and column of every value,
/// so that schema errors in a scenario can point at the offending line.
public struct YAMLDocument: Sendable {
    public let value: JSONValue
    private let locations: [JSONPointer: SourceLocation]

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
        var locations: [JSONPointer: SourceLocation] = [:]
        if let root {
            value = try Self.convert(root, at: .root, locations: &locations)
        } else {
            value = .null
        }
        self.locations = locations
    }

    /// Where the key of the mapping entry at `pointer` starts (falls back to its value).
    public func keyLocation(of pointer: JSONPointer) -> SourceLocation? {
        locations[JSONPointer(tokens: pointer.tokens + [Self.keyMarker])] ?? location(of: pointer)
    }

    /// Marks key positions in the location table; no YAML key can contain a NUL.
    private static let keyMarker = "\u{0}key"

    /// Where the value at `pointer` (or its nearest existing parent) starts.
    public func location(of pointer: JSONPointer) -> SourceLocation? {
        var current: JSONPointer? = pointer
        while let candidate = current {
            if let location = locations[candidate] { return location }
            current = candidate.parent
        }
        return nil
    }

    private static func convert(
        _ node: Node, at pointer: JSONPointer, locations: inout [JSONPointer: SourceLocation]
    ) throws(LoadError) -> JSONValue {
        let location = node.mark.map { SourceLocation(line: $0.line, column: $0.column, offset: 0) }
        locations[pointer] = location
        switch node {
        case .scalar(let scalar):
            // Yams' type rules, seven regular expressions, only match short words or text
            // that starts like a number, so other untagged text is a string without asking them.
            let written = Tag.Name(rawValue: scalar.tag.rawValue)
            guard written == .implicit else { return try scalarValue(scalar, tag: written, location: location) }
            guard mayBeTyped(scalar.string) else { return .string(scalar.string) }
            return try scalarValue(scalar, tag: Resolver.default.resolveTag(of: node), location: location)
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            for (index, element) in sequence.enumerated() {
                elements.append(try convert(element, at: pointer.appending(index), locations: &locations))
            }
            return .array(elements)
        case .mapping(let mapping):
            var object = JSONObject()
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar) = keyNode else {
                    throw LoadError(location: location, reason: "a mapping key must be plain text")
                }
                let key = keyScalar.string
                if let mark = keyScalar.mark {
                    locations[pointer.appending(key).appending(keyMarker)] = SourceLocation(line: mark.line, column: mark.column, offset: 0)
                }
                object[key] = try convert(valueNode, at: pointer.appending(key), locations: &locations)
            }
            return .object(object)
        case .alias:
            throw LoadError(location: location, reason: "YAML aliases are not supported in scenario files; repeat the value")
        }
    }

    /// Whether YAML's implicit rules could read `text` as null, a bool or a number:
    /// only words of up to five letters (`null`, `false`, `yes`...) and text starting
    /// with a sign, digit, dot or `~`.
    private static func mayBeTyped(_ text: String) -> Bool {
        guard let first = text.utf8.first, text.utf8.count > 5 else { return true }
        return "-+.0123456789~".utf8.contains(first)
    }

    private static func scalarValue(_ scalar: Node.Scalar, tag: Tag.Name, location: SourceLocation?) throws(LoadError) -> JSONValue {
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
        func location(_ mark: Mark) -> SourceLocation { SourceLocation(line: mark.line, column: mark.column, offset: 0) }
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
