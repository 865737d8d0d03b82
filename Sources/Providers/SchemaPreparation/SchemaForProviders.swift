import JSONSchema

/// Schema preparation shared by providers.
enum SchemaForProviders {
    /// The schema for llama.cpp's grammar-constrained decoding. llama.cpp rejects a
    /// `maxLength` over 2,000 (and llama-cpp-python then crashes), so large bounds are
    /// dropped; bounds up to `LlamaGrammarSchema.lengthLimit` stay, because a bounded
    /// grammar keeps a small model from rambling. The grammar ignores `minimum` and
    /// `maximum`, so a small integer range is also spelled out as an `enum`, which it
    /// does enforce. Everything dropped is still checked after parsing, and the
    /// `llama-cpp` compatibility rules warn about it.
    static func grammarSafe(_ schema: JSONValue) -> JSONValue {
        capLengths(in: stripped(schema))
    }

    /// The schema without the keyword uses `provider` refuses outright (OpenAI's and
    /// Anthropic's strict modes answer HTTP 400 to `maxLength`, for example). The
    /// validator still checks them after the reply; the run warns once that the
    /// provider cannot enforce them.
    static func withoutRejectedKeywords(_ schema: JSONValue, for provider: StructuredOutputProvider) -> JSONValue {
        var result = schema
        for issue in providerCompatibilityIssues(schema: schema, provider: provider)
        where issue.severity == .rejected && issue.location.tokens.last == issue.keyword {
            result = removing(issue.location, from: result)
        }
        return result
    }

    private static func removing(_ pointer: JSONPointer, from value: JSONValue) -> JSONValue {
        guard let first = pointer.tokens.first else { return value }
        let rest = JSONPointer(tokens: Array(pointer.tokens.dropFirst()))
        switch value {
        case .object(var object):
            if rest.isRoot {
                object[first] = nil
            } else if let child = object[first] {
                object[first] = removing(rest, from: child)
            }
            return .object(object)
        case .array(var elements):
            guard let index = Int(first), elements.indices.contains(index) else { return value }
            elements[index] = removing(rest, from: elements[index])
            return .array(elements)
        default:
            return value
        }
    }

    private static func capLengths(in schema: JSONValue) -> JSONValue {
        guard case .object(let object) = schema else { return schema }
        var result = JSONObject()
        for member in object {
            switch member.key {
            case "maxLength", "minLength":
                if LlamaGrammarSchema.keepsLength(member.value) { result[member.key] = member.value }
            case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
                guard case .object(let map) = member.value else { result[member.key] = member.value; continue }
                result[member.key] = .object(JSONObject(map.members.map { .init(key: $0.key, value: capLengths(in: $0.value)) }))
            case "allOf", "anyOf", "oneOf", "prefixItems":
                result[member.key] = .array((member.value.arrayValue ?? []).map(capLengths))
            case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
                 "unevaluatedItems", "unevaluatedProperties":
                result[member.key] = capLengths(in: member.value)
            default:
                result[member.key] = member.value
            }
        }
        if let range = LlamaGrammarSchema.spelledOutRange(of: result) {
            result["enum"] = .array(range.map { .number(Double($0)) })
        }
        return .object(result)
    }

    /// The schema without the identification keywords APIs reject (`$schema`, `$id`).
    static func stripped(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        object["$schema"] = nil
        object["$id"] = nil
        return .object(object)
    }
}
