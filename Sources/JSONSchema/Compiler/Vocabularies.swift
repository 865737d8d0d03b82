/// The draft 2020-12 vocabularies a schema resource has turned on through its
/// meta-schema's `$vocabulary`.
struct Vocabularies: OptionSet, Hashable, Sendable {
    let rawValue: UInt16

    static let core = Vocabularies(rawValue: 1 << 0)
    static let applicator = Vocabularies(rawValue: 1 << 1)
    static let unevaluated = Vocabularies(rawValue: 1 << 2)
    static let validation = Vocabularies(rawValue: 1 << 3)
    static let metaData = Vocabularies(rawValue: 1 << 4)
    static let formatAnnotation = Vocabularies(rawValue: 1 << 5)
    static let formatAssertion = Vocabularies(rawValue: 1 << 6)
    static let content = Vocabularies(rawValue: 1 << 7)

    /// What the standard 2020-12 meta-schema turns on.
    static let standard: Vocabularies = [
        .core, .applicator, .unevaluated, .validation, .metaData, .formatAnnotation, .content,
    ]

    /// The vocabulary a vocabulary URI names, if this validator knows it.
    static func named(_ uri: String) -> Vocabularies? {
        let prefix = "https://json-schema.org/draft/2020-12/vocab/"
        guard uri.hasPrefix(prefix) else { return nil }
        switch uri.dropFirst(prefix.count) {
        case "core": return .core
        case "applicator": return .applicator
        case "unevaluated": return .unevaluated
        case "validation": return .validation
        case "meta-data": return .metaData
        case "format-annotation": return .formatAnnotation
        case "format-assertion": return .formatAssertion
        case "content": return .content
        default: return nil
        }
    }

    /// The vocabulary that defines `keyword`, or nil for keywords that are
    /// always recognised (core) or unknown.
    static func owner(of keyword: String) -> Vocabularies? {
        switch keyword {
        case "prefixItems", "items", "contains", "additionalProperties", "properties", "patternProperties",
             "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not":
            return .applicator
        case "unevaluatedItems", "unevaluatedProperties":
            return .unevaluated
        case "type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
             "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains",
             "minContains", "maxProperties", "minProperties", "required", "dependentRequired":
            return .validation
        default:
            return nil
        }
    }
}
