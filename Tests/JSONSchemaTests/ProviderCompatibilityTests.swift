import JSONSchema
import Testing

/// The structured-output subsets of OpenAI, Anthropic and Gemini.
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

    @Test func geminiIgnoresRatherThanRejects() throws {
        let found = try issues(.gemini)
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.severity == .ignored })
        let keywords = Set(found.map(\.keyword))
        #expect(keywords.isSuperset(of: ["maxLength", "additionalProperties", "allOf", "format", "$ref", "$defs"]))
        #expect(!keywords.contains("minItems"))
        #expect(!keywords.contains("minimum"))
    }

    @Test func geminiSuggestsNullableForTypeLists() throws {
        let found = try issues(.gemini, #"{"type": ["string", "null"]}"#)
        #expect(found.first?.message.contains("nullable") == true)
    }

    @Test func aCompatibleSchemaHasNoIssues() throws {
        let text = #"{"type": "object", "additionalProperties": false, "required": ["a"], "properties": {"a": {"type": "string", "enum": ["x", "y"]}}}"#
        #expect(try issues(.openai, text).isEmpty)
        #expect(try issues(.anthropic, text).isEmpty)
    }
}
