import Foundation

/// `const`'s value.
final class Constant {
    let value: JSONValue

    init(_ value: JSONValue) {
        self.value = value
    }
}

/// `required`'s names.
final class Names {
    let names: [String]
    /// True when the `properties` pass checks these (the fast path then skips `required`).
    var isFolded = false

    init(_ names: [String]) {
        self.names = names
    }
}

/// The subschemas of `allOf`, `anyOf`, `oneOf` and `prefixItems`.
final class NodeList {
    let nodes: [Unowned<SchemaNode>]

    init(_ nodes: [SchemaNode]) {
        self.nodes = nodes.map(Unowned.init)
    }
}

/// The values `enum` allows, with a fast path when they are all strings.
final class EnumValues {
    let values: [JSONValue]
    let strings: Set<String>?

    init(_ values: [JSONValue]) {
        self.values = values
        let strings = values.compactMap(\.stringValue)
        self.strings = strings.count == values.count ? Set(strings) : nil
    }

    func contains(_ value: JSONValue) -> Bool {
        if let strings {
            // The set (canonical equivalence) rejects fast; a hit is confirmed by code points.
            guard case .string(let text) = value, strings.contains(text) else { return false }
        }
        for candidate in values where candidate.isIdentical(to: value) { return true }
        return false
    }
}

/// A compiled `pattern` (or `patternProperties` key).
final class Pattern {
    let source: String
    let regex: ECMARegex

    init(source: String, regex: ECMARegex) {
        self.source = source
        self.regex = regex
    }
}

/// `dependentRequired`: when `property` is present, `required` must be too.
final class DependentRequirements {
    let entries: [(property: String, required: [String])]

    init(_ entries: [(property: String, required: [String])]) {
        self.entries = entries
    }
}

/// `dependentSchemas`: when `property` is present, the instance must match `schema`.
final class DependentSchemas {
    let entries: [(property: String, schema: Unowned<SchemaNode>)]

    init(_ entries: [(property: String, schema: SchemaNode)]) {
        self.entries = entries.map { ($0.property, Unowned($0.schema)) }
    }
}

/// `if` with its `then` and `else`.
final class Conditional {
    let condition: Unowned<SchemaNode>
    let then: Unowned<SchemaNode>?
    let otherwise: Unowned<SchemaNode>?

    init(condition: SchemaNode, then: SchemaNode?, otherwise: SchemaNode?) {
        self.condition = Unowned(condition)
        self.then = then.map(Unowned.init)
        self.otherwise = otherwise.map(Unowned.init)
    }
}

/// `properties`, `patternProperties` and `additionalProperties` together: one
/// pass over the instance's members.
final class MemberApplicator {
    let names: [String]
    /// `names` as UTF-8, for lookups without string comparisons.
    private let nameBytes: [[UInt8]]
    let schemas: [Unowned<SchemaNode>]
    private let lookup: [String: Int]?
    let patterns: [(pattern: Pattern, schema: Unowned<SchemaNode>)]
    let additional: Unowned<SchemaNode>?
    /// For each property: whether the same schema's `required` lists it.
    private(set) var isRequired: [Bool]
    /// How many of `required` the member pass checks (all of them, or none).
    private(set) var requiredCount = 0

    init(properties: [(String, SchemaNode)], patterns: [(pattern: Pattern, schema: SchemaNode)], additional: SchemaNode?) {
        names = properties.map(\.0)
        nameBytes = names.map { Array($0.utf8) }
        schemas = properties.map { Unowned($0.1) }
        var lookup: [String: Int] = [:]
        for (position, name) in names.enumerated() { lookup[name] = position }
        self.lookup = names.count > 6 ? lookup : nil
        self.patterns = patterns.map { ($0.pattern, Unowned($0.schema)) }
        self.additional = additional.map(Unowned.init)
        isRequired = Array(repeating: false, count: names.count)
    }

    /// Takes over the presence check of `required` when every required name is
    /// a property here: the member pass counts them instead of looking each up.
    /// Returns whether it did.
    func fold(_ required: Names) -> Bool {
        var flags = Array(repeating: false, count: names.count)
        for name in Set(required.names) {
            guard let position = position(of: name) else { return false }
            flags[position] = true
        }
        isRequired = flags
        requiredCount = flags.filter { $0 }.count
        return true
    }

    /// The position of `name` in `properties` (code point equality).
    @inline(__always)
    func position(of name: String) -> Int? {
        if let lookup {
            guard let position = lookup[name], names[position].hasSameScalars(as: name) else { return nil }
            return position
        }
        let found = name.utf8.withContiguousStorageIfAvailable { key -> Int? in
            let length = key.count
            guard let first = key.first else { return nameBytes.firstIndex { $0.isEmpty } }
            for position in nameBytes.indices {
                let candidate = nameBytes[position]
                guard candidate.count == length, candidate[0] == first else { continue }
                let equal = candidate.withUnsafeBufferPointer { memcmp($0.baseAddress!, key.baseAddress!, length) == 0 }
                if equal { return position }
            }
            return nil
        }
        if let found { return found }
        for position in names.indices where names[position].hasSameScalars(as: name) { return position }
        return nil
    }
}

/// `prefixItems` and `items` together.
final class ElementApplicator {
    let prefix: [Unowned<SchemaNode>]
    let rest: Unowned<SchemaNode>?

    init(prefix: [SchemaNode], rest: SchemaNode?) {
        self.prefix = prefix.map(Unowned.init)
        self.rest = rest.map(Unowned.init)
    }
}

/// `contains` with `minContains` and `maxContains`.
final class ContainsApplicator {
    let schema: Unowned<SchemaNode>
    let minimum: Int
    let maximum: Int?

    init(schema: SchemaNode, minimum: Int, maximum: Int?) {
        self.schema = Unowned(schema)
        self.minimum = minimum
        self.maximum = maximum
    }
}
