import Foundation
import JSONSchema
import Providers
import TestSupport
import Testing

@Suite("Anthropic provider over HTTP")
struct AnthropicProviderTests {
    static let expectedMessages: JSONValue = [
        ["role": "user", "content": .string(Fixture.messages[0].content)],
        ["role": "assistant", "content": .string(Fixture.messages[1].content)],
        ["role": "user", "content": .string(Fixture.messages[2].content)],
    ]

    @Test func sendsTheSchemaAsOneForcedStrictTool() async throws {
        let server = try LoopbackServer(answering: .json(AnthropicBodies.toolUse()))
        _ = try await server.anthropic().complete(Fixture.request())

        let request = try #require(server.lastRequest)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/messages")
        #expect(request.header("x-api-key") == Fixture.apiKey)
        #expect(request.header("anthropic-version") == "2023-06-01")
        #expect(request.header("content-type") == "application/json")
        #expect(request.header("authorization") == nil)

        let expected: JSONValue = [
            "model": "claude-sonnet-4-5",
            "max_tokens": 512,
            "system": .string(Fixture.system),
            "messages": Self.expectedMessages,
            "temperature": 0.2,
            "tools": [[
                "name": "goal_options",
                "description": "Return the result. Call this tool exactly once with the complete output.",
                "strict": true,
                // Strict tool use refuses `minimum`; the validator checks it after the reply.
                "input_schema": [
                    "type": "object",
                    "properties": [
                        "goals": ["type": "array", "items": ["type": "string"], "minItems": 1],
                        "weeks": ["type": "integer"],
                    ],
                    "required": ["goals", "weeks"],
                    "additionalProperties": false,
                ],
            ]],
            "tool_choice": ["type": "tool", "name": "goal_options"],
        ]
        #expect(try Fixture.body(of: request) == expected)
    }

    /// The real step schemas go out with exactly the keywords strict tool use refuses left
    /// out: the sent schema has nothing left to refuse, and everything else is kept.
    @Test("sends each real schema without what strict tool use refuses", arguments: RealSchemas.names)
    func leavesOutOnlyRefusedKeywords(name: String) async throws {
        let schema = try RealSchemas.load(name)
        let refused = providerCompatibilityIssues(schema: schema, provider: .anthropic).filter { $0.severity == .rejected }
        #expect(!refused.isEmpty)
        let server = try LoopbackServer(answering: .json(AnthropicBodies.toolUse()))
        _ = try await server.anthropic().complete(Fixture.request(schema: schema))
        let sent = try #require(try Fixture.body(of: server.lastRequest)["tools"]?[0]?["input_schema"])

        #expect(providerCompatibilityIssues(schema: sent, provider: .anthropic).filter { $0.severity == .rejected }.isEmpty)
        let left = Set(refused.map(\.location)).union([JSONPointer(tokens: ["$schema"]), JSONPointer(tokens: ["$id"])])
        for (pointer, value) in RealSchemas.leaves(of: schema) {
            if left.contains(where: { pointer.tokens.starts(with: $0.tokens) }) {
                #expect(pointer.resolve(in: sent) == nil, "\(pointer) was sent")
            } else {
                #expect(pointer.resolve(in: sent) == value, "\(pointer) was not sent as written")
            }
        }
    }

    @Test func sendsNoToolsWithoutASchema() async throws {
        let server = try LoopbackServer(answering: .json(AnthropicBodies.text(["Hello!"])))
        _ = try await server.anthropic().complete(Fixture.request(schema: nil))
        let body = try Fixture.body(of: server.lastRequest)
        #expect(body.objectValue?.keys.sorted() == ["max_tokens", "messages", "model", "system", "temperature"])
        // The Messages API has no system role inside `messages`.
        #expect(body["messages"]?.arrayValue?.contains { $0["role"] == "system" } == false)
    }

    @Test("returns the tool input as the reply text", arguments: [nil, "I'll call the tool now."])
    func parsesAToolUse(preamble: String?) async throws {
        let body = AnthropicBodies.toolUse(preamble: preamble)
        let server = try LoopbackServer(answering: .json(body))
        let response = try await server.anthropic().complete(Fixture.request())

        #expect(try JSONParser.parse(response.text) == Fixture.answer)
        #expect(response.finishReason == "tool_use")
        #expect(response.usage == TokenUsage(input: 472, output: 61))
        #expect(response.model == "claude-sonnet-4-5-20250929")
        #expect(response.latency > 0)
        #expect(response.rawBody == (try JSONParser.parse(body)))
    }

    @Test func joinsTextBlocksWithoutASchema() async throws {
        let server = try LoopbackServer(answering: .json(AnthropicBodies.text(["Hello, ", "runner."], stopReason: "max_tokens")))
        let response = try await server.anthropic().complete(Fixture.request(schema: nil))
        #expect(response.text == "Hello, runner.")
        #expect(response.finishReason == "max_tokens")
        #expect(response.wasCutOff)
        #expect(response.usage.total == 2598)
    }

    @Test func aTextReplyWhenTheToolWasRequiredIsABadResponse() async throws {
        let server = try LoopbackServer(answering: .json(AnthropicBodies.text(["Here are some goals: run more."])))
        let error = await #expect(throws: ProviderError.self) {
            try await server.anthropic().complete(Fixture.request())
        }
        #expect(error?.kind == .badResponse)
        #expect(error?.provider == "anthropic")
        #expect(error?.message.contains("did not call the goal_options tool") == true)
        #expect(error?.message.contains("it said: Here are some goals") == true)
    }

    @Test func aReplyWithoutContentIsABadResponse() async throws {
        let server = try LoopbackServer(answering: .json(#"{"id": "msg_1", "type": "message", "role": "assistant"}"#))
        let error = await #expect(throws: ProviderError.self) {
            try await server.anthropic().complete(Fixture.request())
        }
        #expect(error?.kind == .badResponse)
        #expect(error?.message.contains("no content") == true)
    }
}
