import Foundation
import JSONSchema
import Providers
import Testing

/// The structured-output subsets of OpenAI, Anthropic, Gemini and llama.cpp grammars.
@Suite struct ProviderCompatibilityTests {
    static let schema = ##"""
        {
          "type": "object",
          "required": ["options"],
          "properties": {
            "options": {"type": "array", "minItems": 3, "maxItems": 4, "items": {"$ref": "#/$defs/option"}},
            "note": {"type": "string", "maxLength": 200}
          },
          "$defs": {
            "option": {
              "type": "object",
              "additionalProperties": false,
              "required": ["id", "summary"],
              "properties": {"id": {"type": "string", "format": "uuid"}, "summary": {"type": "string"}, "weeks": {"minimum": 1}},
              "allOf": [{"required": ["id"]}]
            }
          }
        }
        """##

    func issues(_ provider: StructuredOutputProvider, _ text: String = schema) throws -> [CompatibilityIssue] {
        providerCompatibilityIssues(schema: try JSONParser.parse(text), provider: provider)
    }

    @Test func openAIStrictModeRules() throws {
        let found = try issues(.openai).map { "\($0.location) \($0.keyword) \($0.severity.rawValue)" }
        #expect(found == [
            "/additionalProperties additionalProperties rejected",
            "/properties/note required rejected",
            "/properties/note/maxLength maxLength rejected",
            "/$defs/option/allOf allOf rejected",
            "/$defs/option/properties/weeks required rejected",
        ])
    }

    @Test func openAIRootMustBeAnObject() throws {
        let found = try issues(.openai, #"{"anyOf": [{"type": "object"}, {"type": "null"}]}"#)
        #expect(found.first?.location == .root)
        #expect(found.first?.severity == .rejected)
    }

    @Test func anthropicRejectsBoundsAndLongMinItems() throws {
        let found = try issues(.anthropic).map { "\($0.location) \($0.keyword)" }
        #expect(found == [
            "/properties/options/minItems minItems", "/properties/options/maxItems maxItems",
            "/properties/note/maxLength maxLength", "/$defs/option/properties/weeks/minimum minimum",
        ])
        #expect(try issues(.anthropic, #"{"type": "array", "minItems": 1}"#).isEmpty)
    }

    @Test func anthropicRejectsRecursion() throws {
        let tree = ##"{"$defs": {"node": {"type": "object", "additionalProperties": false, "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}, "$ref": "#/$defs/node"}"##
        let found = try issues(.anthropic, tree)
        #expect(found.contains { $0.keyword == "$ref" && $0.message.contains("recursive") })
    }

    /// Gemini gets `responseJsonSchema`, which takes `$ref`, `$defs`, `additionalProperties`,
    /// `minItems` and `minimum`, and ignores the rest of JSON Schema.
    @Test func geminiJudgesWhatResponseJsonSchemaSupports() throws {
        let found = try issues(.gemini)
        #expect(found.allSatisfy { $0.severity == .ignored })
        #expect(found.map { "\($0.location) \($0.keyword)" } == [
            "/properties/note/maxLength maxLength",
            "/$defs/option/allOf allOf",
            "/$defs/option/properties/id/format format",
        ])
    }

    @Test func geminiTakesTypeListsButNotNullable() throws {
        #expect(try issues(.gemini, #"{"type": ["string", "null"]}"#).isEmpty)
        #expect(try issues(.gemini, #"{"type": "string", "nullable": true}"#).map(\.keyword) == ["nullable"])
    }

    @Test func geminiReadsOneOfAsAnyOfAndEnumsOfTextOrNumbers() throws {
        let found = try issues(.gemini, #"{"oneOf": [{"enum": ["a", 1]}, {"enum": [true, null]}], "format": "date-time"}"#)
        #expect(found.map { "\($0.location) \($0.keyword)" } == ["/oneOf oneOf", "/oneOf/1/enum enum"])
        #expect(found[0].message.contains("anyOf"))
    }

    @Test func geminiRefusesKeywordsBesideARef() throws {
        let found = try issues(.gemini, ##"{"$defs": {"a": {"type": "string"}}, "properties": {"x": {"$ref": "#/$defs/a", "description": "X", "$comment": "ok"}}}"##)
        #expect(found.map { "\($0.location) \($0.keyword) \($0.severity.rawValue)" } == ["/properties/x/description description rejected"])
    }

    /// llama.cpp's grammar, as this project sends it: lengths over the limit are dropped,
    /// small integer ranges become an `enum`, and one branch per schema wins.
    @Test func llamaGrammarRules() throws {
        let found = try issues(.llamaCppGrammar, ##"""
            {
              "type": "object",
              "properties": {
                "slug": {"type": "string", "pattern": "^[a-z-]+$", "maxLength": 40},
                "day": {"type": "string", "format": "date", "minLength": 10},
                "mail": {"type": "string", "format": "email"},
                "essay": {"type": "string", "minLength": 10, "maxLength": 5000},
                "short": {"type": "string", "minLength": 1, "maxLength": 1000},
                "sets": {"type": "integer", "minimum": 1, "maximum": 10},
                "seconds": {"type": "integer", "minimum": 0, "maximum": 100000},
                "weight": {"type": "number", "minimum": 0},
                "tags": {"type": "array", "uniqueItems": true, "minItems": 1, "items": {"enum": ["a", "b"], "maxLength": 1}},
                "loose": {"type": "string", "pattern": "[0-9]+"},
                "either": {"oneOf": [{"type": "string"}, {"type": "integer"}], "minLength": 2},
                "linked": {"$ref": "#/$defs/a", "maxItems": 3, "description": "kept"}
              },
              "$defs": {"a": {"type": "array"}}
            }
            """##)
        #expect(found.allSatisfy { $0.severity == .ignored })
        #expect(found.map { "\($0.location)" } == [
            "/properties/slug/maxLength",
            "/properties/day/minLength",
            "/properties/mail/format",
            "/properties/essay/maxLength",
            "/properties/seconds/minimum",
            "/properties/seconds/maximum",
            "/properties/weight/minimum",
            "/properties/tags/uniqueItems",
            "/properties/loose/pattern",
            "/properties/either/minLength",
            "/properties/either/oneOf",
            "/properties/linked/maxItems",
        ])
        #expect(found[0].message.contains("follows `pattern`"))
        #expect(found[3].message.contains("not sent"))
        #expect(found[8].message.contains("falls back to plain JSON"))
    }

    /// The step schemas as they are: each provider's rules name exactly the keywords its
    /// structured output leaves to the validator.
    @Test("real step schemas", arguments: [
        (StructuredOutputProvider.openai, "goal-options", ["maxLength", "minLength"]),
        (.openai, "program", ["maxLength", "minLength", "uniqueItems"]),
        (.anthropic, "goal-options", ["maxItems", "maxLength", "minItems", "minLength"]),
        (.anthropic, "program", ["maxItems", "maxLength", "maximum", "minLength", "minimum", "uniqueItems"]),
        (.gemini, "goal-options", ["maxLength", "minLength", "pattern"]),
        (.gemini, "program", ["maxLength", "minLength", "pattern", "uniqueItems"]),
        (.llamaCppGrammar, "goal-options", ["maxLength"]),
        (.llamaCppGrammar, "program", ["maxLength", "uniqueItems"]),
    ])
    func realStepSchemas(provider: StructuredOutputProvider, name: String, keywords: [String]) throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("prompts/schemas")
        let schema = try JSONParser.parse(Data(contentsOf: folder.appendingPathComponent("\(name).schema.json")))
        let found = providerCompatibilityIssues(schema: schema, provider: provider)
        #expect(Set(found.map(\.keyword)).sorted() == keywords)
        if provider == .llamaCppGrammar {
            // The one unsent bound and the one length a pattern hides; every integer range is an enum.
            #expect(found.filter { $0.keyword == "maxLength" }.map(\.location.description)
                == [name == "program" ? "/properties/program_markdown/maxLength" : "/$defs/option/properties/id/maxLength"])
        }
    }

    @Test func aCompatibleSchemaHasNoIssues() throws {
        let text = #"{"type": "object", "additionalProperties": false, "required": ["a"], "properties": {"a": {"type": "string", "enum": ["x", "y"]}}}"#
        #expect(try issues(.openai, text).isEmpty)
        #expect(try issues(.anthropic, text).isEmpty)
        #expect(try issues(.gemini, text).isEmpty)
        #expect(try issues(.llamaCppGrammar, text).isEmpty)
    }
}
