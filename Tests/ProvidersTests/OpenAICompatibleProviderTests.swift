import Foundation
import JSONSchema
import Providers
import TestSupport
import Testing

@Suite("OpenAI-compatible provider over HTTP")
struct OpenAICompatibleProviderTests {
    typealias Mode = OpenAICompatibleProvider.StructuredOutputMode

    /// The messages every mode sends: system first, then the conversation in order.
    static let expectedMessages: JSONValue = [
        ["role": "system", "content": .string(Fixture.system)],
        ["role": "user", "content": .string(Fixture.messages[0].content)],
        ["role": "assistant", "content": .string(Fixture.messages[1].content)],
        ["role": "user", "content": .string(Fixture.messages[2].content)],
    ]

    static let modes: [(Mode, JSONValue?)] = [
        (.jsonSchema, [
            "type": "json_schema",
            "json_schema": ["name": "goal_options", "schema": Fixture.strippedSchema, "strict": true],
        ]),
        (.jsonObjectWithSchema, ["type": "json_object", "schema": Fixture.strippedSchema]),
        (.jsonObject, ["type": "json_object"]),
        (.none, nil),
    ]

    @Test("sends the exact request for each structured-output mode", arguments: modes)
    func sendsExactRequest(mode: Mode, responseFormat: JSONValue?) async throws {
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion()))
        _ = try await server.openAI(mode: mode).complete(Fixture.request())

        #expect(server.requestCount == 1)
        let request = try #require(server.lastRequest)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/chat/completions")
        #expect(request.header("authorization") == "Bearer \(Fixture.apiKey)")
        #expect(request.header("content-type") == "application/json")

        let common: JSONValue = [
            "model": "gpt-4.1-mini",
            "messages": Self.expectedMessages,
            "temperature": 0.2,
            "max_tokens": 512,
            "seed": 42,
        ]
        var expected = try #require(common.objectValue)
        expected["response_format"] = responseFormat
        let body = try Fixture.body(of: request)
        #expect(body == .object(expected))
        #expect(body["messages"]?[0]?["role"] == "system")
    }

    @Test("sends no response_format without a schema, and no seed when unset", arguments: Mode.allCases)
    func plainRequest(mode: Mode) async throws {
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion(content: "Hello!")))
        _ = try await server.openAI(mode: mode).complete(Fixture.request(schema: nil, seed: nil))
        let body = try Fixture.body(of: server.lastRequest)
        #expect(body["response_format"] == nil)
        #expect(body["seed"] == nil)
        #expect(body.objectValue?.keys.sorted() == ["max_tokens", "messages", "model", "temperature"])
    }

    @Test func sendsNoAuthorizationWithoutAKey() async throws {
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion()))
        _ = try await server.openAI(apiKey: nil).complete(Fixture.request())
        #expect(server.lastRequest?.header("Authorization") == nil)
    }

    @Test func parsesAChatCompletion() async throws {
        let body = OpenAIBodies.completion()
        let server = try LoopbackServer(answering: .json(body))
        let response = try await server.openAI().complete(Fixture.request())

        #expect(try JSONParser.parse(response.text) == Fixture.answer)
        #expect(response.finishReason == "stop")
        #expect(!response.wasCutOff)
        #expect(response.usage == TokenUsage(input: 183, output: 29))
        #expect(response.model == "gpt-4.1-mini-2025-04-14")
        #expect(response.latency > 0)
        #expect(response.rawBody == (try JSONParser.parse(body)))
    }

    /// OpenAI's `completion_tokens` already include the reasoning tokens: they are kept
    /// visible, never added a second time.
    @Test func reasoningTokensArePartOfTheOutput() async throws {
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion(model: "o4-mini-2025-04-16", completionTokens: 221, reasoningTokens: 192)))
        let response = try await server.openAI(model: "o4-mini").complete(Fixture.request())
        #expect(response.usage == TokenUsage(input: 183, output: 221, reasoning: 192))
        #expect(response.usage.total == 404)
    }

    @Test func reportsALlamaCppReplyCutOffByMaxTokens() async throws {
        let server = try LoopbackServer(answering: .json(OpenAIBodies.llamaCppCutOff))
        let provider = server.openAI(mode: .jsonObjectWithSchema, model: "qwen2.5-1.5b-instruct", apiKey: nil)
        let response = try await provider.complete(Fixture.request())
        #expect(response.text == #"{"goals": ["Run 10 km"#)
        #expect(response.finishReason == "length")
        #expect(response.wasCutOff)
        #expect(response.usage.total == 713)
        #expect(response.model == "models/qwen2.5-1.5b-instruct-q4_k_m.gguf")
    }

    @Test func aRefusalIsARejectedRequest() async throws {
        let server = try LoopbackServer(answering: .json(OpenAIBodies.refusal))
        let error = await #expect(throws: ProviderError.self) {
            try await server.openAI().complete(Fixture.request())
        }
        #expect(error?.kind == .requestRejected)
        #expect(error?.message.contains("I'm sorry, I can't assist with that request.") == true)
    }

    @Test("a 200 without usable content is a bad response", arguments: [
        (OpenAIBodies.noChoices, "no choices"),
        (OpenAIBodies.nullContent, "no message content"),
        (#"{"object": "list", "data": []}"#, "no choices"),
    ])
    func missingContent(body: String, complaint: String) async throws {
        let server = try LoopbackServer(answering: .json(body))
        let error = await #expect(throws: ProviderError.self) {
            try await server.openAI().complete(Fixture.request())
        }
        #expect(error?.kind == .badResponse)
        #expect(error?.status == 200)
        #expect(error?.message.contains(complaint) == true, "\(String(describing: error))")
        #expect(error?.isRetryable == false)
    }

    /// Each server accepts different length bounds: llama.cpp's grammar rejects those over
    /// 2,000 (so large ones are dropped), OpenAI's strict mode rejects `maxLength` outright.
    /// The validator checks the dropped bounds after the reply either way.
    @Test("each mode sends only the length bounds its server accepts", arguments: [
        (Mode.jsonObjectWithSchema, nil as JSONValue?, 200 as JSONValue?),
        (Mode.jsonSchema, nil, nil),
    ])
    func lengthBounds(mode: Mode, summaryMaximum: JSONValue?, goalMaximum: JSONValue?) async throws {
        let schema: JSONValue = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": [
                "summary": ["type": "string", "maxLength": 5000],
                "goals": ["type": "array", "items": ["type": "string", "maxLength": 200]],
            ],
            "required": ["summary", "goals"],
            "additionalProperties": false,
        ]
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion()))
        var request = Fixture.request()
        request.responseSchema = schema
        _ = try await server.openAI(mode: mode).complete(request)
        let format = try #require(try Fixture.body(of: server.lastRequest)["response_format"])
        let sent = try #require(format["schema"] ?? format["json_schema"]?["schema"])
        #expect(sent["$schema"] == nil)
        #expect(sent["properties"]?["summary"]?["type"] == "string")
        #expect(sent["properties"]?["summary"]?["maxLength"] == summaryMaximum)
        #expect(sent["properties"]?["goals"]?["items"]?["maxLength"] == goalMaximum)
    }

    /// llama.cpp's grammar ignores `minimum` and `maximum` (a 135M model wrote 7 for a
    /// minimum of 10), but it enforces `enum`: small integer ranges are spelled out.
    @Test func grammarModeSpellsOutSmallIntegerRanges() async throws {
        let schema: JSONValue = [
            "type": "object",
            "properties": [
                "days": ["type": "integer", "minimum": 1, "maximum": 7],
                "seconds": ["type": "integer", "minimum": 0, "maximum": 100_000],
                "open": ["type": "integer", "minimum": 1],
            ],
        ]
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion()))
        var request = Fixture.request()
        request.responseSchema = schema
        _ = try await server.openAI(mode: .jsonObjectWithSchema).complete(request)
        let sent = try #require(try Fixture.body(of: server.lastRequest)["response_format"]?["schema"])
        #expect(sent["properties"]?["days"]?["enum"] == [1, 2, 3, 4, 5, 6, 7])
        #expect(sent["properties"]?["days"]?["minimum"] == 1)
        #expect(sent["properties"]?["seconds"]?["enum"] == nil, "a large range stays a range")
        #expect(sent["properties"]?["open"]?["enum"] == nil)
    }

    /// The `llama-cpp` rules and the grammar request agree on the real schemas: a length
    /// bound the rules call unsent is not in the request, and every other one is.
    @Test("grammar mode sends the length bounds the rules say it sends", arguments: RealSchemas.names)
    func grammarRulesMatchTheRequest(name: String) async throws {
        let schema = try RealSchemas.load(name)
        let unsent = Set(providerCompatibilityIssues(schema: schema, provider: .llamaCppGrammar)
            .filter { $0.message.contains("are not sent") }.map(\.location))
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion()))
        _ = try await server.openAI(mode: .jsonObjectWithSchema).complete(Fixture.request(schema: schema))
        let sent = try #require(try Fixture.body(of: server.lastRequest)["response_format"]?["schema"])
        let lengths = RealSchemas.leaves(of: schema).filter { ["minLength", "maxLength"].contains($0.0.tokens.last) }
        #expect(!lengths.isEmpty)
        for (pointer, value) in lengths {
            let expected: JSONValue? = unsent.contains(pointer) ? Optional.none : value
            #expect(pointer.resolve(in: sent) == expected, "\(pointer)")
        }
    }

    /// `compact_json: true` sends a local server its own grammar, with no whitespace
    /// between tokens, in place of the schema; a hosted API keeps its structured output.
    @Test func aCompactRequestSendsAGrammarWithNoRoomForWhitespace() async throws {
        var request = Fixture.request()
        request.compactJSON = true
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion()))
        _ = try await server.openAI(mode: .jsonObjectWithSchema).complete(request)
        let body = try Fixture.body(of: server.lastRequest)
        #expect(body["response_format"] == nil)
        let grammar = try #require(body["grammar"]?.stringValue)
        // An array's item is a rule of its own: llama.cpp copies a repeated expression per repetition.
        #expect(grammar.hasPrefix(#"root ::= "{" "\"goals\":" "[" items0 ("," items0)* "]" "," "\"weeks\":" "#), "\(grammar)")
        #expect(grammar.contains(#"items0 ::= "\"" char* "\"""#), "\(grammar)")
        #expect(!grammar.contains(" \" \" ") && !grammar.contains("[ \\t\\n]"), "no whitespace rule")

        _ = try await server.openAI(mode: .jsonSchema).complete(request)
        let hosted = try Fixture.body(of: server.lastRequest)
        #expect(hosted["grammar"] == nil && hosted["response_format"]?["type"] == "json_schema")
    }

    @Test func aCompactRequestWhoseSchemaNoGrammarCanWriteIsNeverSent() async throws {
        var request = Fixture.request(schema: ["type": "object", "required": ["x"], "properties": ["x": ["allOf": [["type": "string"]]]]])
        request.compactJSON = true
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion()))
        await #expect(throws: CompactGrammarError.self) { try await server.openAI(mode: .jsonObjectWithSchema).complete(request) }
        #expect(server.lastRequest == nil)
    }

    @Test func acceptsABaseURLWithATrailingSlash() async throws {
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion()))
        let provider = OpenAICompatibleProvider(
            baseURL: server.url("/v1/"), model: "m", apiKey: nil, transport: Fixture.transport())
        _ = try await provider.complete(Fixture.request())
        #expect(server.lastRequest?.path == "/v1/chat/completions")
    }
}
