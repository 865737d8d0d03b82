import Foundation
import JSONSchema
import Providers
import TestSupport
import Testing

@Suite("Gemini provider over HTTP")
struct GeminiProviderTests {
    static let expectedContents: JSONValue = [
        ["role": "user", "parts": [["text": .string(Fixture.messages[0].content)]]],
        ["role": "model", "parts": [["text": .string(Fixture.messages[1].content)]]],
        ["role": "user", "parts": [["text": .string(Fixture.messages[2].content)]]],
    ]

    @Test func sendsTheSchemaAsTheResponseSchema() async throws {
        let server = try LoopbackServer(answering: .json(GeminiBodies.completion()))
        _ = try await server.gemini().complete(Fixture.request())

        let request = try #require(server.lastRequest)
        #expect(request.method == "POST")
        #expect(request.target == "/v1beta/models/gemini-2.5-flash:generateContent")
        #expect(request.query == nil, "the key must not travel in the URL")
        #expect(request.header("x-goog-api-key") == Fixture.apiKey)
        #expect(request.header("content-type") == "application/json")
        #expect(!request.target.contains(Fixture.apiKey))

        let expected: JSONValue = [
            "systemInstruction": ["parts": [["text": .string(Fixture.system)]]],
            "contents": Self.expectedContents,
            "generationConfig": [
                "temperature": 0.2,
                "maxOutputTokens": 512,
                "seed": 42,
                "responseMimeType": "application/json",
                "responseJsonSchema": Fixture.strippedSchema,
            ],
        ]
        #expect(try Fixture.body(of: request) == expected)
    }

    @Test func withoutThoughtsTheOutputIsTheCandidates() async throws {
        let body = #"{"candidates": [{"content": {"parts": [{"text": "Hi"}], "role": "model"}, "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 3, "totalTokenCount": 15}, "modelVersion": "gemini-2.0-flash"}"#
        let server = try LoopbackServer(answering: .json(body))
        let response = try await server.gemini().complete(Fixture.request(schema: nil))
        #expect(response.usage == TokenUsage(input: 12, output: 3))
        #expect(response.usage.total == 15, "matches the API's own totalTokenCount")
    }

    @Test func sendsOnlySamplingSettingsWithoutASchema() async throws {
        let server = try LoopbackServer(answering: .json(GeminiBodies.completion(parts: ["Hello!"])))
        _ = try await server.gemini().complete(Fixture.request(schema: nil, seed: nil))
        let body = try Fixture.body(of: server.lastRequest)
        #expect(body["generationConfig"] == ["temperature": 0.2, "maxOutputTokens": 512])
    }

    @Test func parsesACandidate() async throws {
        let body = GeminiBodies.completion(parts: [#"{"goals": ["Run 10 km under 60 minutes", "#, #""Run three times a week"], "weeks": 12}"#])
        let server = try LoopbackServer(answering: .json(body))
        let response = try await server.gemini().complete(Fixture.request())

        #expect(try JSONParser.parse(response.text) == Fixture.answer)
        #expect(response.finishReason == "STOP")
        // Gemini 2.5 bills its 240 thinking tokens as output beside the 24 of the answer.
        #expect(response.usage == TokenUsage(input: 95, output: 264, reasoning: 240))
        #expect(response.usage.total == 359, "matches the API's own totalTokenCount")
        #expect(response.model == "gemini-2.5-flash")
        #expect(response.latency > 0)
        #expect(response.rawBody == (try JSONParser.parse(body)))
    }

    @Test func anEmptyReplyCutOffByMaxTokensIsStillAReply() async throws {
        let server = try LoopbackServer(answering: .json(GeminiBodies.maxTokensNoText))
        let response = try await server.gemini().complete(Fixture.request())
        #expect(response.text == "")
        #expect(response.finishReason == "MAX_TOKENS")
        #expect(response.wasCutOff)
        #expect(response.usage == TokenUsage(input: 95, output: 512, reasoning: 512), "the thoughts that used up the limit are billed")
        #expect(response.usage.total == 607)
    }

    @Test func aBlockedPromptIsARejectedRequest() async throws {
        let server = try LoopbackServer(answering: .json(GeminiBodies.blocked))
        let error = await #expect(throws: ProviderError.self) {
            try await server.gemini().complete(Fixture.request())
        }
        #expect(error?.kind == .requestRejected)
        #expect(error?.status == 200)
        #expect(error?.message.contains("PROHIBITED_CONTENT") == true)
        #expect(error?.isRetryable == false)
    }

    @Test("a candidate without text is a bad response", arguments: [
        (GeminiBodies.safetyStop, "finish reason SAFETY"),
        (#"{"candidates": [], "modelVersion": "gemini-2.5-flash"}"#, "no candidates"),
    ])
    func candidateWithoutText(body: String, complaint: String) async throws {
        let server = try LoopbackServer(answering: .json(body))
        let error = await #expect(throws: ProviderError.self) {
            try await server.gemini().complete(Fixture.request())
        }
        #expect(error?.kind == .badResponse)
        #expect(error?.message.contains(complaint) == true, "\(String(describing: error))")
    }
}
