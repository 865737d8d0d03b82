import JSONSchema
import Testing

/// Compiling schemas: what is rejected and why, references, registries and options.
@Suite struct SchemaCompilationTests {
    struct Broken: CustomTestStringConvertible, Sendable {
        let name: String
        let schema: String
        let location: String
        let fragment: String
        var testDescription: String { name }
    }

    static let broken: [Broken] = [
        Broken(name: "unresolvable $ref", schema: ##"{"properties": {"a": {"$ref": "#/$defs/missing"}}}"##,
               location: "/properties/a/$ref", fragment: "cannot resolve reference \"#/$defs/missing\""),
        Broken(name: "remote $ref not registered", schema: #"{"$ref": "https://example.com/other.json"}"#,
               location: "/$ref", fragment: "no schema is registered at https://example.com/other.json"),
        Broken(name: "unknown anchor", schema: ##"{"$ref": "#nope"}"##, location: "/$ref", fragment: "no `$anchor` named \"nope\""),
        Broken(name: "unknown type", schema: #"{"properties": {"a": {"type": "strin"}}}"#,
               location: "/properties/a/type", fragment: "unknown type \"strin\""),
        Broken(name: "negative length", schema: #"{"minLength": -1}"#, location: "/minLength", fragment: "non-negative integer"),
        Broken(name: "required not an array", schema: #"{"required": "name"}"#, location: "/required", fragment: "array of strings"),
        Broken(name: "not a schema", schema: #"{"items": 3}"#, location: "/items", fragment: "expected a schema"),
        Broken(name: "bad regex", schema: #"{"pattern": "([a-z"}"#, location: "/pattern", fragment: "invalid regular expression"),
        Broken(name: "reference cycle", schema: ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##,
               location: "/$defs/", fragment: "loops back to itself"),
        Broken(name: "self reference at the root", schema: ##"{"$ref": "#"}"##, location: "", fragment: "loops back to itself"),
        Broken(name: "unknown meta-schema", schema: #"{"$schema": "https://example.com/meta"}"#,
               location: "/$schema", fragment: "unknown meta-schema"),
        Broken(name: "multipleOf zero", schema: #"{"multipleOf": 0}"#, location: "/multipleOf", fragment: "greater than 0"),
    ]

    @Test(arguments: broken)
    func rejectsInvalidSchemasNamingTheLocation(_ broken: Broken) throws {
        let error = try #require(throws: SchemaError.self) { try Schema(jsonText: broken.schema) }
        #expect(error.location.hasPrefix(broken.location), "\(error)")
        #expect(error.description.contains(broken.fragment), "\(error)")
    }

    @Test func resolvesReferencesThroughTheRegistry() throws {
        var registry = SchemaRegistry.withMetaSchemas
        try registry.add(try JSONParser.parse(#"{"$defs": {"minutes": {"type": "integer", "maximum": 180}}}"#),
                         uri: "https://example.com/common.json")
        let schema = try Schema(jsonText: #"{"$ref": "common.json#/$defs/minutes"}"#,
                                baseURI: "https://example.com/program.json", registry: registry)
        #expect(schema.isValid(90))
        #expect(schema.validate(200).errors.first?.keywordLocation == "/$ref/maximum")
        #expect(schema.validate(200).errors.first?.absoluteKeywordLocation == "https://example.com/common.json#/$defs/minutes/maximum")
    }

    @Test func registryRejectsRelativeURIs() {
        var registry = SchemaRegistry()
        #expect(throws: SchemaError.self) { try registry.add(.bool(true), uri: "relative.json") }
    }

    @Test func bundledMetaSchemaValidatesSchemas() throws {
        let metaSchema = try Schema(jsonText: #"{"$ref": "https://json-schema.org/draft/2020-12/schema"}"#)
        #expect(metaSchema.isValid(try JSONParser.parse(#"{"type": "object", "minProperties": 1}"#)))
        let errors = metaSchema.validate(try JSONParser.parse(#"{"type": "strin", "minLength": -1}"#)).errors
        #expect(!errors.isEmpty)
        #expect(!metaSchema.isValid(try JSONParser.parse(#"{"minLength": -1}"#)))
    }

    @Test func formatIsAnAnnotationUnlessAsserted() throws {
        let text = #"{"format": "email"}"#
        #expect(try Schema(jsonText: text).isValid("not an email"))
        let asserting = try Schema(jsonText: text, options: ValidationOptions(assertsFormat: true))
        #expect(!asserting.isValid("not an email"))
        #expect(asserting.isValid("coach@example.com"))
        #expect(asserting.isValid(42), "format applies to strings only")
    }

    @Test(arguments: [
        ("date", "2024-02-29", true), ("date", "2023-02-29", false), ("date-time", "2024-05-01T09:30:00Z", true),
        ("date-time", "2024-05-01 09:30:00", false), ("time", "23:59:60Z", true), ("time", "12:00:00", false),
        ("duration", "P3W", true), ("duration", "PT", false), ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", true),
        ("uuid", "2eb8aa08aa9811eab4aa73b441d16380", false), ("uri", "https://example.com/a?b#c", true), ("uri", "/relative", false),
        ("ipv4", "192.168.0.1", true), ("ipv4", "192.168.0.01", false), ("ipv6", "::ffff:192.168.0.1", true),
        ("ipv6", "1::2::3", false), ("email", "\"joe bloggs\"@example.com", true), ("email", "te..st@example.com", false),
    ])
    func assertedFormats(format: String, value: String, valid: Bool) throws {
        let schema = try Schema(JSONValue.object(JSONObject([.init(key: "format", value: .string(format))])),
                                options: ValidationOptions(assertsFormat: true))
        #expect(schema.isValid(.string(value)) == valid)
    }

    @Test func lengthsCountCodePointsNotUTF16OrGraphemes() throws {
        let schema = try Schema(jsonText: #"{"maxLength": 2}"#)
        #expect(schema.isValid("😀😀"), "2 code points (4 UTF-16 units)")
        #expect(!schema.isValid("e\u{301}e\u{301}"), "4 code points (2 graphemes)")
    }

    @Test func patternsUseECMAScriptSyntaxWithUnicodeProperties() throws {
        let letters = try Schema(jsonText: #"{"pattern": "^\\p{L}+$"}"#)
        #expect(letters.isValid("Ñandú"))
        #expect(!letters.isValid("abc1"))
        let digits = try Schema(jsonText: #"{"pattern": "^\\d+$"}"#)
        #expect(!digits.isValid("١٢٣"), "\\d is ASCII-only in ECMA-262")
        let unanchored = try Schema(jsonText: #"{"pattern": "run"}"#)
        #expect(unanchored.isValid("morning run"), "patterns search, they are not anchored")
        let end = try Schema(jsonText: #"{"pattern": "^a$"}"#)
        #expect(!end.isValid("a\n"), "$ matches only at the very end")
    }

    @Test func aReferenceLoopThatNeverConsumesTheInstanceFailsInsteadOfHanging() throws {
        // Each step is a `$dynamicRef`, which cannot be resolved before validation.
        let schema = try Schema(jsonText: ##"""
            {"$dynamicAnchor": "node", "anyOf": [{"type": "string"}, {"$dynamicRef": "#node"}]}
            """##)
        #expect(schema.isValid("leaf"))
        #expect(!schema.isValid(1))
        let error = try #require(schema.validate(1).errors.first)
        #expect(error.keyword == "anyOf")
    }

    @Test func vocabulariesFollowTheDeclaredMetaSchema() throws {
        var registry = SchemaRegistry.withMetaSchemas
        try registry.add(try JSONParser.parse(#"""
            {"$schema": "https://json-schema.org/draft/2020-12/schema",
             "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true,
                             "https://json-schema.org/draft/2020-12/vocab/applicator": true}}
            """#), uri: "https://example.com/no-validation")
        let schema = try Schema(jsonText: #"{"$schema": "https://example.com/no-validation", "minimum": 10}"#, registry: registry)
        #expect(schema.isValid(1), "validation vocabulary is off")
    }
}
