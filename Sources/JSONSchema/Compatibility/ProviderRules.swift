/// What each provider's structured-output mode supports, from its documentation.
///
/// - OpenAI: Structured Outputs guide, "Supported schemas" (as of 2025-08):
///   types string, number, integer, boolean, object, array, null (in a type
///   array or `anyOf`), `enum`, `const`, `anyOf` (not at the root), `$ref` to
///   `$defs` in the same schema (recursion allowed); string `pattern` and
///   `format` (date-time, time, date, duration, email, hostname, ipv4, ipv6,
///   uuid); number `minimum`, `maximum`, `exclusiveMinimum`,
///   `exclusiveMaximum`, `multipleOf`; array `items`, `minItems`, `maxItems`.
///   Every object needs `additionalProperties: false` and every property in
///   `required`; the root must be an object; at most 10 levels of nesting.
///   Not supported: `allOf`, `oneOf`, `not`, `if`/`then`/`else`,
///   `dependentRequired`, `dependentSchemas`, `patternProperties`,
///   `propertyNames`, `minProperties`, `maxProperties`, `unevaluated*`,
///   `contains`, `minContains`, `maxContains`, `uniqueItems`, `prefixItems`,
///   `minLength`, `maxLength`, `$dynamicRef`.
/// - Anthropic: structured outputs / strict tool use docs, "JSON Schema
///   limitations" (as of 2025-11): no numeric bounds (`minimum`, `maximum`,
///   `exclusive*`, `multipleOf`), no string length bounds, arrays only
///   `minItems` 0 or 1, `additionalProperties` must be false, no recursive
///   schemas, no external `$ref`; supported are the basic types, `enum`,
///   `const`, `anyOf`, `allOf`, local `$ref`/`$defs`, `required`, `pattern`
///   (simple regexes) and the common string formats.
/// - Gemini: `responseSchema` (an OpenAPI 3.0 Schema subset, as of 2025-06):
///   `type`, `format` (date-time, enum; int32/int64, float/double), `title`,
///   `description`, `nullable`, `enum`, `properties`, `required`,
///   `propertyOrdering`, `items`, `minItems`, `maxItems`, `minimum`,
///   `maximum`, `anyOf`. Anything else is dropped without an error.
enum ProviderRules {
    /// Annotations every provider tolerates (they never affect what is generated).
    static let metadata: Set<String> = ["$schema", "$id", "$comment", "title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly"]

    static let openAIUnsupported: Set<String> = [
        "allOf", "oneOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas",
        "patternProperties", "propertyNames", "minProperties", "maxProperties", "unevaluatedProperties",
        "unevaluatedItems", "contains", "minContains", "maxContains", "uniqueItems", "prefixItems",
        "minLength", "maxLength", "$dynamicRef", "$dynamicAnchor", "dependencies",
    ]
    static let openAIFormats: Set<String> = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]

    static let anthropicUnsupported: Set<String> = [
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
        "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "prefixItems", "oneOf", "not",
        "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties", "propertyNames",
        "minProperties", "maxProperties", "unevaluatedProperties", "unevaluatedItems", "$dynamicRef",
        "$dynamicAnchor", "dependencies",
    ]
    static let anthropicFormats: Set<String> = ["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]

    static let geminiSupported: Set<String> = [
        "type", "format", "title", "description", "nullable", "enum", "properties", "required", "propertyOrdering",
        "items", "minItems", "maxItems", "minimum", "maximum", "anyOf", "$schema", "$comment", "example", "default",
    ]
    static let geminiFormats: Set<String> = ["date-time", "enum", "int32", "int64", "float", "double"]
}
