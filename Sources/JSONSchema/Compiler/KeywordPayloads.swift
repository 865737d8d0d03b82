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
    /// The values, when they are all strings.
    private let strings: ExactStrings?

    init(_ values: [JSONValue]) {
        self.values = values
        let strings = values.compactMap(\.stringValue)
        self.strings = strings.count == values.count ? ExactStrings(strings) : nil
    }

    func contains(_ value: JSONValue) -> Bool {
        if let strings {
            guard case .string(let text) = value else { return false }
            return strings.position(of: text) != nil
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
    let names: ExactStrings
    let schemas: [Unowned<SchemaNode>]
    let patterns: [(pattern: Pattern, schema: Unowned<SchemaNode>)]
    let additional: Unowned<SchemaNode>?
    /// For each property: whether the same schema's `required` lists it.
    private(set) var isRequired: [Bool]
    /// How many of `required` the member pass checks (all of them, or none).
    private(set) var requiredCount = 0

    init(properties: [(String, SchemaNode)], patterns: [(pattern: Pattern, schema: SchemaNode)], additional: SchemaNode?) {
        names = ExactStrings(properties.map(\.0))
        schemas = properties.map { Unowned($0.1) }
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
            guard let position = names.position(of: name) else { return false }
            flags[position] = true
        }
        isRequired = flags
        requiredCount = flags.filter { $0 }.count
        return true
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
