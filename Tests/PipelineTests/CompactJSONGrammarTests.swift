import Foundation
import Intake
import JSONSchema
import Pipeline
@testable import Providers
import Testing

/// `compact_json: true` sends a local model a grammar with no whitespace between tokens
/// (`CompactJSONGrammar`). What it allows is checked through the same language written
/// as one regular expression.
struct CompactJSONGrammarTests {
    static func matcher(for schema: JSONValue) throws -> NSRegularExpression {
        let grammar = try CompactJSONGrammar(schema: SchemaForProviders.grammarSafe(schema))
        return try NSRegularExpression(pattern: "^" + grammar.regularExpression + "$")
    }

    static func matches(_ matcher: NSRegularExpression, _ text: String) -> Bool {
        matcher.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The reply the model wrote in a recording, parsed: its members are in the order it wrote them.
    static func recordedReply(_ cassette: URL) throws -> JSONValue? {
        guard FileManager.default.fileExists(atPath: cassette.path) else { return nil }
        let recording = try JSONParser.parse(Data(contentsOf: cassette))
        guard let text = recording["interactions"]?.arrayValue?.last?["response"]?["text"]?.stringValue else { return nil }
        return try? JSONParser.parse(Data(text.utf8))
    }

    /// The reply with a program's equipment words in the order of the schema's enum, the
    /// order the grammar writes distinct enum values in.
    static func equipmentInEnumOrder(_ reply: JSONValue, schema: JSONValue) -> JSONValue {
        guard case .object(var root) = reply, case .object(var program)? = root["program_json"],
              let words = program["equipment"]?.arrayValue, let order = schema["$defs"]?["equipment"]?["enum"]?.arrayValue
        else { return reply }
        program["equipment"] = .array(words.sorted { (order.firstIndex(of: $0) ?? 0) < (order.firstIndex(of: $1) ?? 0) })
        root["program_json"] = .object(program)
        return .object(root)
    }

    /// Every recorded reply its step's schema (fitted to the person) accepts is a sentence
    /// of that schema's compact grammar once minified; with the whitespace a model adds,
    /// or a member too many or too few, it is not.
    @Test(arguments: try FixtureCorpus(layout: Repository.layout).fixtureNames())
    func everyValidRecordedReplyIsInItsSchemasGrammar(fixture name: String) throws {
        let record = try Repository.fixture(name).record
        var folders: [(PromptLibrary, String)] = [(try PromptLibrary(layout: Repository.layout), "golden/\(name)")]
        let goalPromptsV5 = try PromptLibrary(layout: Repository.layout, variants: VariantSelection(resolving: ["v5"], layout: Repository.layout))
        folders.append((goalPromptsV5, "golden/variants/\(goalPromptsV5.variants.track!.label)/\(name)"))
        for variant in ["v4.4"] {
            let prompts = try PromptLibrary(layout: Repository.layout, variants: VariantSelection(resolving: ["v5", variant], layout: Repository.layout))
            folders.append((prompts, "golden/variants/\(prompts.variants.track!.label)/\(name)"))
        }
        var checked = 0
        for (prompts, folder) in folders {
            for step in [PipelineStep.goalOptions, .programDraft, .programEdit] {
                let cassette = Repository.root.appendingPathComponent("\(folder)/\(step.rawValue).cassette.json")
                guard let reply = try Self.recordedReply(cassette) else { continue }
                let schemaDocument = prompts.replySchemaDocument(step, for: record)
                guard try Schema(schemaDocument).validate(reply).isValid else { continue }
                let matcher = try Self.matcher(for: schemaDocument)
                let compact = Self.equipmentInEnumOrder(reply, schema: schemaDocument).serialized(.compact)
                #expect(Self.matches(matcher, compact), "\(folder)/\(step.rawValue): \(compact.prefix(300))")
                #expect(!Self.matches(matcher, reply.serialized(JSONWriteOptions(pretty: true))), "\(folder)/\(step.rawValue): whitespace")
                var extra = reply.objectValue!
                extra["note"] = "hi"
                #expect(!Self.matches(matcher, JSONValue.object(extra).serialized(.compact)), "\(folder)/\(step.rawValue): a member too many")
                var missing = reply.objectValue!
                missing[missing.keys[0]] = nil
                #expect(!Self.matches(matcher, JSONValue.object(missing).serialized(.compact)), "\(folder)/\(step.rawValue): a member too few")
                checked += 1
            }
        }
        #expect(checked > 0, "\(name): some recorded reply was valid")
    }

    @Test func integerRangesAllowExactlyTheirNumbers() throws {
        for (low, high) in [(0, 0), (0, 9), (1, 7), (10, 180), (99, 101), (5, 1234), (0, 600), (30, 45), (100, 100)] {
            let matcher = try Self.matcher(for: ["type": "integer", "minimum": .number(Double(low)), "maximum": .number(Double(high))])
            for number in 0...2000 {
                #expect(Self.matches(matcher, String(number)) == (low...high).contains(number), "\(number) in \(low)...\(high)")
            }
            #expect(!Self.matches(matcher, "0\(low)"), "no leading zero")
        }
    }

    @Test func itemCountsAndStringLengthsAreBounded() throws {
        let matcher = try Self.matcher(for: [
            "type": "array", "minItems": 1, "maxItems": 3, "items": ["type": "string", "minLength": 2, "maxLength": 4],
        ])
        #expect(Self.matches(matcher, #"["ab"]"#) && Self.matches(matcher, #"["ab","abcd","a\"b"]"#))
        #expect(!Self.matches(matcher, "[]"), "too few items")
        #expect(!Self.matches(matcher, #"["ab","ab","ab","ab"]"#), "too many items")
        #expect(!Self.matches(matcher, #"["abcde"]"#) && !Self.matches(matcher, #"["a"]"#), "length")
        #expect(!Self.matches(matcher, "[\"a\nb\"]"), "a raw newline is no JSON")
        let optional = try Self.matcher(for: ["type": "array", "maxItems": 2, "items": ["type": "boolean"]])
        #expect(Self.matches(optional, "[]") && Self.matches(optional, "[true,false]") && !Self.matches(optional, "[true,false,true]"))
    }

    @Test func distinctEnumValuesComeInTheEnumsOrderEachAtMostOnce() throws {
        let schema: JSONValue = [
            "$defs": ["word": ["enum": ["mat", "dumbbell", "band"]]],
            "type": "array", "minItems": 1, "uniqueItems": true, "items": ["$ref": "#/$defs/word"],
        ]
        let matcher = try Self.matcher(for: schema)
        for good in [#"["mat"]"#, #"["band"]"#, #"["mat","band"]"#, #"["dumbbell","band"]"#, #"["mat","dumbbell","band"]"#] {
            #expect(Self.matches(matcher, good), "\(good)")
        }
        for bad in ["[]", #"["mat","mat"]"#, #"["band","mat"]"#, #"["mat",]"#] { #expect(!Self.matches(matcher, bad), "\(bad)") }
        var optional = schema.objectValue!
        optional["minItems"] = nil
        #expect(Self.matches(try Self.matcher(for: .object(optional)), "[]"))
        var bounded = schema.objectValue!
        bounded["maxItems"] = 2
        let two = try Self.matcher(for: .object(bounded))
        #expect(!Self.matches(two, #"["mat","mat"]"#), "still distinct when fewer than all may be chosen")
        #expect(Self.matches(two, #"["mat","band"]"#) && Self.matches(two, #"["dumbbell"]"#))
        #expect(!Self.matches(two, #"["mat","dumbbell","band"]"#), "and no more than maxItems")
        let grammar = try CompactJSONGrammar(schema: .object(bounded)).text
        #expect(grammar.contains(#"unique0-0-1 ::= ("," "\"dumbbell\"" | "," "\"band\"")?"#), "\(grammar)")
        var atLeastTwo = schema.objectValue!
        atLeastTwo["minItems"] = 2
        let two2 = try Self.matcher(for: .object(atLeastTwo))
        for good in [#"["mat","band"]"#, #"["dumbbell","band"]"#, #"["mat","dumbbell","band"]"#] { #expect(Self.matches(two2, good), "\(good)") }
        for bad in [#"["mat"]"#, #"["band"]"#, #"["mat","mat"]"#, #"["band","mat"]"#] { #expect(!Self.matches(two2, bad), "\(bad)") }
        let atLeastTwoGrammar = try CompactJSONGrammar(schema: .object(atLeastTwo)).text
        #expect(atLeastTwoGrammar.contains(#"unique0-0-1 ::= "," "\"dumbbell\"" unique0-1-2 | "," "\"band\"""#), "a second value is required: \(atLeastTwoGrammar)")
        #expect(!atLeastTwoGrammar.contains(#""[" ("\"band\"""#) && !atLeastTwoGrammar.contains(#"| "\"band\"" unique"#),
                "the last value cannot open a list that needs two: \(atLeastTwoGrammar)")
        var notUnique = schema.objectValue!
        notUnique["uniqueItems"] = nil
        #expect(Self.matches(try Self.matcher(for: .object(notUnique)), #"["band","mat","mat"]"#), "without uniqueItems, any order and repeats")
    }

    /// The run's schema warnings leave out what the compact grammar holds and llama.cpp's does not.
    @Test func theKeywordsItHoldsBeyondLlamaCppsAreKnown() {
        let schema: JSONValue = [
            "$defs": ["word": ["enum": ["mat", "band"]]],
            "type": "object",
            "properties": [
                "words": ["type": "array", "uniqueItems": true, "items": ["$ref": "#/$defs/word"]],
                "numbers": ["type": "array", "uniqueItems": true, "items": ["type": "integer"]],
                "sets": ["type": "integer", "minimum": 1, "maximum": 6],
                "score": ["type": "number", "minimum": 0, "maximum": 1],
                "id": ["type": "string", "pattern": "^[a-z]{2,8}$"],
                "free": ["type": "string", "pattern": "[a-z]+"],
            ],
        ]
        let issues = providerCompatibilityIssues(schema: schema, provider: .llamaCppGrammar)
        let held = Set(issues.filter { CompactJSONGrammar.enforces($0, in: schema) }.map(\.location.description))
        #expect(held.contains("/properties/words/uniqueItems") && !held.contains("/properties/numbers/uniqueItems"), "\(held)")
        #expect(!held.contains("/properties/score/minimum") && !held.contains("/properties/free/pattern"), "\(held)")
        #expect(issues.contains { $0.location.description == "/properties/words/uniqueItems" }, "llama.cpp's own grammar does not hold it")
    }

    @Test func anchoredPatternsAreEnforcedAndOthersLeftToTheValidator() throws {
        let weeks = try Self.matcher(for: ["type": "string", "pattern": "^[0-9]{1,2}(-[0-9]{1,2})?$"])
        for good in ["1", "12", "1-4", "10-12"] { #expect(Self.matches(weeks, "\"\(good)\""), "\(good)") }
        for bad in ["", "1-", "123", "a-b", "1 - 4"] { #expect(!Self.matches(weeks, "\"\(bad)\""), "\(bad)") }
        let id = try Self.matcher(for: ["type": "string", "pattern": "^[a-z0-9]{1,11}(-[a-z0-9]{1,11}){1,3}$"])
        #expect(Self.matches(id, #""run-5k""#) && !Self.matches(id, #""run""#) && !Self.matches(id, #""Run-5k""#))
        let unanchored = try Self.matcher(for: ["type": "string", "pattern": "[0-9]", "maxLength": 3])
        #expect(Self.matches(unanchored, #""abc""#) && !Self.matches(unanchored, #""abcd""#), "only the length is enforced")
        let escaped = try Self.matcher(for: ["type": "string", "pattern": #"^\d+$"#])
        #expect(Self.matches(escaped, #""x""#), "an escape it cannot read leaves the pattern to the validator")
    }

    @Test func propertiesComeInTheSchemasOrderAndOptionalOnesAreLeftOut() throws {
        let matcher = try Self.matcher(for: [
            "type": "object", "required": ["b", "a"], "additionalProperties": false,
            "properties": ["b": ["type": "integer"], "note": ["type": "string"], "a": ["enum": ["x", 2, nil]]],
        ])
        #expect(Self.matches(matcher, #"{"b":-3,"a":"x"}"#) && Self.matches(matcher, #"{"b":0,"a":null}"#))
        #expect(!Self.matches(matcher, #"{"a":"x","b":1}"#), "order")
        #expect(!Self.matches(matcher, #"{"b":1,"note":"n","a":2}"#), "optional property")
        #expect(!Self.matches(matcher, #"{"b":01,"a":2}"#))
    }

    @Test func aSchemaItCannotWriteIsRefusedWithWhereAndWhy() {
        func problem(_ schema: JSONValue) -> String? {
            do {
                _ = try CompactJSONGrammar(schema: schema)
                return nil
            } catch {
                return error.description
            }
        }
        let recursive: JSONValue = ["$defs": ["node": ["type": "array", "items": ["$ref": "#/$defs/node"]]], "$ref": "#/$defs/node"]
        #expect(problem(recursive)?.contains("/$defs/node/items/$ref: \"#/$defs/node\" refers back to itself") == true, "\(problem(recursive) ?? "")")
        let anyValue: JSONValue = ["type": "object", "required": ["x"], "properties": ["x": [:]]]
        #expect(problem(anyValue)?.contains("at /properties/x: it allows any JSON value") == true, "\(problem(anyValue) ?? "")")
        #expect(problem(["allOf": [["type": "string"]]])?.contains("`allOf` is not supported") == true)
        #expect(problem(["type": "object", "required": ["y"], "properties": [:]])?.contains("\"y\" is required but has no schema") == true)
        #expect(problem(["type": "array"])?.contains("take `compact_json` out of the step's prompt.yaml") == true)
    }

    @Test func theGrammarIsWhatLlamaCppReads() throws {
        let grammar = try CompactJSONGrammar(schema: [
            "type": "object", "required": ["days", "name"], "$defs": ["day": ["type": "integer", "minimum": 1, "maximum": 3]],
            "properties": ["days": ["type": "array", "minItems": 1, "items": ["$ref": "#/$defs/day"]], "name": ["type": "string", "maxLength": 5]],
        ])
        #expect(grammar.text == #"""
            root ::= "{" "\"days\":" "[" def-day ("," def-day)* "]" "," "\"name\":" "\"" char{0,5} "\"" "}"
            def-day ::= [1-3]
            char ::= [^\"\\\x00-\x1F\x7F] | "\\" ([\"\\/bfnrt] | "u" [0-9a-fA-F]{4})

            """#)
    }
}
