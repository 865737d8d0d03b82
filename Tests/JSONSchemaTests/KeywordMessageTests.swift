import JSONSchema
import Testing

/// One keyword's failure: the schema, an instance that breaks it, and the error expected.
struct KeywordCase: CustomTestStringConvertible, Sendable {
    let name: String
    let schema: String
    let instance: String
    let instanceLocation: String
    let keywordLocation: String
    let keyword: String
    let message: String
    var assertsFormat = false

    var testDescription: String { name }
}

@Suite struct KeywordMessageTests {
    static let cases: [KeywordCase] = [
        KeywordCase(
            name: "type", schema: #"{"properties": {"age": {"type": "integer"}}}"#, instance: #"{"age": "forty"}"#,
            instanceLocation: "/age", keywordLocation: "/properties/age/type", keyword: "type",
            message: #"expected integer, got string "forty""#),
        KeywordCase(
            name: "type list", schema: #"{"type": ["string", "null"]}"#, instance: "4.5",
            instanceLocation: "", keywordLocation: "/type", keyword: "type", message: "expected null or string, got number 4.5"),
        KeywordCase(
            name: "enum", schema: #"{"properties": {"level": {"enum": ["beginner", "advanced"]}}}"#,
            instance: #"{"level": "expert"}"#, instanceLocation: "/level", keywordLocation: "/properties/level/enum",
            keyword: "enum", message: #"`level` is "expert"; expected one of "beginner", "advanced""#),
        KeywordCase(
            name: "const", schema: #"{"properties": {"kind": {"const": "program"}}}"#, instance: #"{"kind": "plan"}"#,
            instanceLocation: "/kind", keywordLocation: "/properties/kind/const", keyword: "const",
            message: #"`kind` must be "program"; got "plan""#),
        KeywordCase(
            name: "multipleOf", schema: #"{"properties": {"reps": {"multipleOf": 2}}}"#, instance: #"{"reps": 7}"#,
            instanceLocation: "/reps", keywordLocation: "/properties/reps/multipleOf", keyword: "multipleOf",
            message: "`reps` is 7; it must be a multiple of 2"),
        KeywordCase(
            name: "minimum", schema: #"{"properties": {"age": {"minimum": 13}}}"#, instance: #"{"age": 7}"#,
            instanceLocation: "/age", keywordLocation: "/properties/age/minimum", keyword: "minimum",
            message: "`age` is 7; the minimum is 13"),
        KeywordCase(
            name: "maximum", schema: #"{"properties": {"days": {"maximum": 7}}}"#, instance: #"{"days": 9}"#,
            instanceLocation: "/days", keywordLocation: "/properties/days/maximum", keyword: "maximum",
            message: "`days` is 9; the maximum is 7"),
        KeywordCase(
            name: "exclusiveMinimum", schema: #"{"exclusiveMinimum": 0}"#, instance: "0",
            instanceLocation: "", keywordLocation: "/exclusiveMinimum", keyword: "exclusiveMinimum",
            message: "the value is 0; it must be greater than 0"),
        KeywordCase(
            name: "exclusiveMaximum", schema: #"{"exclusiveMaximum": 1.5}"#, instance: "1.5",
            instanceLocation: "", keywordLocation: "/exclusiveMaximum", keyword: "exclusiveMaximum",
            message: "the value is 1.5; it must be less than 1.5"),
        KeywordCase(
            name: "minLength counts code points", schema: #"{"properties": {"name": {"minLength": 3}}}"#,
            instance: #"{"name": "😀😀"}"#, instanceLocation: "/name", keywordLocation: "/properties/name/minLength",
            keyword: "minLength", message: "`name` has 2 characters; at least 3 required"),
        KeywordCase(
            name: "maxLength", schema: #"{"properties": {"summary": {"maxLength": 5}}}"#, instance: #"{"summary": "too long"}"#,
            instanceLocation: "/summary", keywordLocation: "/properties/summary/maxLength", keyword: "maxLength",
            message: "`summary` has 8 characters; at most 5 allowed"),
        KeywordCase(
            name: "pattern", schema: #"{"properties": {"weeks": {"pattern": "^[0-9]+(-[0-9]+)?$"}}}"#,
            instance: #"{"weeks": "1 to 2"}"#, instanceLocation: "/weeks", keywordLocation: "/properties/weeks/pattern",
            keyword: "pattern", message: #"`weeks` is "1 to 2", which does not match the pattern ^[0-9]+(-[0-9]+)?$"#),
        KeywordCase(
            name: "minItems", schema: #"{"properties": {"options": {"minItems": 3}}}"#, instance: #"{"options": [1, 2]}"#,
            instanceLocation: "/options", keywordLocation: "/properties/options/minItems", keyword: "minItems",
            message: "`options` has 2 items; at least 3 required"),
        KeywordCase(
            name: "maxItems", schema: #"{"properties": {"options": {"maxItems": 4}}}"#,
            instance: #"{"options": [1, 2, 3, 4, 5]}"#, instanceLocation: "/options",
            keywordLocation: "/properties/options/maxItems", keyword: "maxItems", message: "`options` has 5 items; at most 4 allowed"),
        KeywordCase(
            name: "uniqueItems", schema: #"{"properties": {"ids": {"uniqueItems": true}}}"#, instance: #"{"ids": ["a", "b", "a"]}"#,
            instanceLocation: "/ids", keywordLocation: "/properties/ids/uniqueItems", keyword: "uniqueItems",
            message: #"`ids` has duplicate items at 0 and 2 ("a"); items must be unique"#),
        KeywordCase(
            name: "minProperties", schema: #"{"minProperties": 1}"#, instance: "{}",
            instanceLocation: "", keywordLocation: "/minProperties", keyword: "minProperties",
            message: "the value has 0 properties; at least 1 required"),
        KeywordCase(
            name: "maxProperties", schema: #"{"maxProperties": 1}"#, instance: #"{"a": 1, "b": 2}"#,
            instanceLocation: "", keywordLocation: "/maxProperties", keyword: "maxProperties",
            message: "the value has 2 properties; at most 1 allowed"),
        KeywordCase(
            name: "required", schema: #"{"required": ["name"]}"#, instance: "{}",
            instanceLocation: "", keywordLocation: "/required", keyword: "required", message: "missing required property `name`"),
        KeywordCase(
            name: "dependentRequired", schema: #"{"dependentRequired": {"weight": ["height"]}}"#, instance: #"{"weight": 150}"#,
            instanceLocation: "", keywordLocation: "/dependentRequired", keyword: "dependentRequired",
            message: "missing property `height`, required when `weight` is present"),
        KeywordCase(
            name: "additionalProperties", schema: #"{"properties": {"height": {}}, "additionalProperties": false}"#,
            instance: #"{"hieght": 70}"#, instanceLocation: "/hieght", keywordLocation: "/additionalProperties",
            keyword: "additionalProperties", message: "unknown property `hieght`"),
        KeywordCase(
            name: "unevaluatedProperties", schema: #"{"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false}"#,
            instance: #"{"a": 1, "b": 2}"#, instanceLocation: "/b", keywordLocation: "/unevaluatedProperties",
            keyword: "unevaluatedProperties", message: "unknown property `b`"),
        KeywordCase(
            name: "items false after prefixItems", schema: #"{"prefixItems": [{}], "items": false}"#, instance: "[1, 2]",
            instanceLocation: "/1", keywordLocation: "/items", keyword: "items",
            message: "unexpected item at index 1; at most 1 item allowed"),
        KeywordCase(
            name: "items", schema: #"{"items": {"type": "string"}}"#, instance: #"["a", 2]"#,
            instanceLocation: "/1", keywordLocation: "/items/type", keyword: "type", message: "expected string, got integer 2"),
        KeywordCase(
            name: "contains", schema: #"{"contains": {"const": "squat"}}"#, instance: #"["lunge"]"#,
            instanceLocation: "", keywordLocation: "/contains", keyword: "contains",
            message: "the value has no item matching the `contains` schema"),
        KeywordCase(
            name: "minContains", schema: #"{"contains": {"type": "integer"}, "minContains": 2}"#, instance: #"[1, "a"]"#,
            instanceLocation: "", keywordLocation: "/minContains", keyword: "minContains",
            message: "the value has 1 matching item; at least 2 required"),
        KeywordCase(
            name: "maxContains", schema: #"{"contains": {"type": "integer"}, "maxContains": 1}"#, instance: "[1, 2, 3]",
            instanceLocation: "", keywordLocation: "/maxContains", keyword: "maxContains",
            message: "the value has 3 matching items; at most 1 allowed"),
        KeywordCase(
            name: "not", schema: #"{"properties": {"goal": {"not": {"const": ""}}}}"#, instance: #"{"goal": ""}"#,
            instanceLocation: "/goal", keywordLocation: "/properties/goal/not", keyword: "not",
            message: "`goal` must not match the schema in `not`"),
        KeywordCase(
            name: "anyOf of types", schema: #"{"anyOf": [{"type": "string"}, {"type": "null"}]}"#, instance: "5",
            instanceLocation: "", keywordLocation: "/anyOf", keyword: "anyOf", message: "expected null or string, got integer 5"),
        KeywordCase(
            name: "anyOf closest alternative",
            schema: #"{"anyOf": [{"type": "string"}, {"type": "object", "required": ["id"]}]}"#, instance: "{}",
            instanceLocation: "", keywordLocation: "/anyOf", keyword: "anyOf",
            message: "the value matches none of the 2 alternatives in `anyOf`; closest is #2: missing required property `id`"),
        KeywordCase(
            name: "oneOf matching twice", schema: #"{"oneOf": [{"type": "integer"}, {"minimum": 0}]}"#, instance: "3",
            instanceLocation: "", keywordLocation: "/oneOf", keyword: "oneOf",
            message: "the value matches both alternative #1 and #2 of `oneOf`; exactly one must match"),
        KeywordCase(
            name: "then", schema: #"{"if": {"required": ["run"]}, "then": {"required": ["pace"]}}"#, instance: #"{"run": true}"#,
            instanceLocation: "", keywordLocation: "/then/required", keyword: "required", message: "missing required property `pace`"),
        KeywordCase(
            name: "propertyNames", schema: #"{"propertyNames": {"maxLength": 3}}"#, instance: #"{"abcd": 1}"#,
            instanceLocation: "/abcd", keywordLocation: "/propertyNames/maxLength", keyword: "maxLength",
            message: "property name `abcd` has 4 characters; at most 3 allowed"),
        KeywordCase(
            name: "$ref hop", schema: ##"{"$defs": {"week": {"maximum": 52}}, "properties": {"weeks": {"$ref": "#/$defs/week"}}}"##,
            instance: #"{"weeks": 60}"#, instanceLocation: "/weeks", keywordLocation: "/properties/weeks/$ref/maximum",
            keyword: "maximum", message: "`weeks` is 60; the maximum is 52"),
        KeywordCase(
            name: "array element subject", schema: #"{"properties": {"sessions": {"items": {"properties": {"minutes": {"maximum": 90}}}}}}"#,
            instance: #"{"sessions": [{"minutes": 30}, {"minutes": 120}]}"#, instanceLocation: "/sessions/1/minutes",
            keywordLocation: "/properties/sessions/items/properties/minutes/maximum", keyword: "maximum",
            message: "`minutes` is 120; the maximum is 90"),
        KeywordCase(
            name: "false schema", schema: #"{"properties": {"legacy": false}}"#, instance: #"{"legacy": 1}"#,
            instanceLocation: "/legacy", keywordLocation: "/properties/legacy", keyword: "properties",
            message: "property `legacy` is not allowed"),
        KeywordCase(
            name: "format when asserted", schema: #"{"properties": {"start": {"format": "date"}}}"#,
            instance: #"{"start": "2024-02-30"}"#, instanceLocation: "/start", keywordLocation: "/properties/start/format",
            keyword: "format", message: #"`start` is "2024-02-30", which is not a valid date (YYYY-MM-DD)"#, assertsFormat: true),
    ]

    @Test(arguments: cases)
    func reportsTheKeywordWithAPlainMessage(_ testCase: KeywordCase) throws {
        let schema = try Schema(jsonText: testCase.schema, options: ValidationOptions(assertsFormat: testCase.assertsFormat))
        let instance = try JSONParser.parse(testCase.instance)
        let result = schema.validate(instance)
        #expect(!schema.isValid(instance))
        try #require(result.errors.count == 1, "errors: \(result.errors)")
        let error = result.errors[0]
        #expect(error.instanceLocation.description == testCase.instanceLocation)
        #expect(error.keywordLocation == testCase.keywordLocation)
        #expect(error.keyword == testCase.keyword)
        #expect(error.message == testCase.message)
    }
}
