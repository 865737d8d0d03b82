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
/// - Gemini: `responseJsonSchema` (the GenerationConfig reference, as of
///   2025-11): "While the full JSON Schema may be sent, not all features are
///   supported"; only `$id`, `$defs`, `$ref`, `$anchor`, `type`, `format`,
///   `title`, `description`, `enum` (of strings and numbers), `items`,
///   `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`, `anyOf`,
///   `oneOf` (read as `anyOf`), `properties`, `additionalProperties`,
///   `required` and the non-standard `propertyOrdering`. Beside `$ref` only
///   keywords starting with `$` may be set. The reference names no formats;
///   only `date-time` is taken as enforced, the one format every version of
///   the Gemini docs lists.
/// - llama.cpp grammars (`json-object-schema`): llama.cpp's
///   `grammars/README.md` ("limitations & unsupported features") and its
///   `json_schema_to_grammar` converter, of which llama-cpp-python keeps a
///   copy. Not enforced: `uniqueItems`, `contains`/`minContains`/
///   `maxContains`, `not`, `if`/`then`/`else`, `dependentSchemas`,
///   `dependentRequired`, `patternProperties`, `propertyNames`,
///   `minProperties`, `maxProperties`, `unevaluated*`, `multipleOf`,
///   `prefixItems` ("broken"), `$anchor`, `$dynamicRef`; bounds on numbers
///   (the README: integers only; a 135M model still wrote 7 for a minimum
///   of 10, so only ranges sent as an `enum` count as enforced); formats
///   other than `date`, `time`, `date-time` and `uuid`; `oneOf` is read as
///   `anyOf`. The converter takes one branch per schema, in the order
///   `$ref`, `allOf`, `anyOf`/`oneOf`, ..., `pattern`, format, length, so a
///   `$ref` or `anyOf`/`oneOf` hides its siblings and a `pattern` (then a
///   supported `format`) hides a string's length bounds. A schema it cannot
///   convert (an unanchored `pattern`, say) makes llama-cpp-python fall back
///   to plain JSON, enforcing nothing.
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
        "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items", "prefixItems",
        "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties", "additionalProperties",
        "required", "propertyOrdering",
    ]
    static let geminiFormats: Set<String> = ["date-time"]

    static let grammarUnsupported: Set<String> = [
        "uniqueItems", "contains", "minContains", "maxContains", "not", "if", "then", "else", "dependentSchemas",
        "dependentRequired", "dependencies", "patternProperties", "propertyNames", "minProperties", "maxProperties",
        "unevaluatedProperties", "unevaluatedItems", "multipleOf", "prefixItems", "$anchor", "$dynamicRef",
        "$dynamicAnchor",
    ]
    static let grammarFormats: Set<String> = ["date", "time", "date-time", "uuid", "uuid1", "uuid2", "uuid3", "uuid4", "uuid5"]
    /// Keywords that never constrain a value, so a grammar branch hiding them loses nothing.
    static let structural: Set<String> = ["$defs", "definitions", "$anchor", "$dynamicAnchor", "$vocabulary"]
}
