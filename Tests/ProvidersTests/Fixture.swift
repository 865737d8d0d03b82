import Foundation
import JSONSchema
import Providers
import TestSupport
import Testing

/// Shared inputs for provider tests: one realistic call, a fake key, and helpers to
/// point real providers at a loopback server.
enum Fixture {
    /// A fake key that is easy to spot if it ever leaks into a message.
    static let apiKey = "sk-test-SECRET-1234567890"

    static let system = "You are a careful running coach. Answer with JSON only."

    static let messages = [
        ChatMessage(role: .user, content: "I run twice a week and want to race a 10 km in spring."),
        ChatMessage(role: .assistant, content: "How long is your longest run now?"),
        ChatMessage(role: .user, content: "About 6 km, at an easy pace. Don't make it \"too hard\" <please>."),
    ]

    /// A step schema as stored on disk, with the identification keywords APIs reject.
    static let schemaText = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://trainer-eval.local/schemas/goal-options.json",
          "type": "object",
          "properties": {
            "goals": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "weeks": {"type": "integer", "minimum": 1}
          },
          "required": ["goals", "weeks"],
          "additionalProperties": false
        }
        """#

    static let schema = try! JSONParser.parse(schemaText)

    /// `schema` as providers must send it: without `$schema` and `$id`.
    static let strippedSchema: JSONValue = [
        "type": "object",
        "properties": [
            "goals": ["type": "array", "items": ["type": "string"], "minItems": 1],
            "weeks": ["type": "integer", "minimum": 1],
        ],
        "required": ["goals", "weeks"],
        "additionalProperties": false,
    ]

    /// The structured answer every fake model gives.
    static let answer: JSONValue = ["goals": ["Run 10 km under 60 minutes", "Run three times a week"], "weeks": 12]

    static func request(schema: JSONValue? = Fixture.schema, seed: Int? = 42) -> CompletionRequest {
        CompletionRequest(
            system: system, messages: messages, responseSchema: schema, schemaName: "goal_options",
            temperature: 0.2, maxTokens: 512, seed: seed)
    }

    /// The request body a server received, parsed strictly.
    static func body(of request: RecordedRequest?) throws -> JSONValue {
        try JSONParser.parse(request?.body ?? Data())
    }

    /// A real transport with a short total deadline, so a broken test cannot hang for long.
    static func transport(_ kind: TransportKind = .curl, deadline: Double = Patience.seconds) -> any HTTPTransport {
        switch kind {
        case .curl: return CurlTransport(deadline: deadline, connectTimeout: min(deadline, Patience.seconds))
        }
    }
}

/// The real transports, for tables that run against each.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case curl = "CurlTransport"

    var testDescription: String { rawValue }
}

extension LoopbackServer {
    /// An OpenAI-compatible provider whose base URL is this server's `/v1`.
    func openAI(
        mode: OpenAICompatibleProvider.StructuredOutputMode = .jsonSchema, model: String = "gpt-4.1-mini",
        apiKey: String? = Fixture.apiKey, transport: TransportKind = .curl, deadline: Double = Patience.seconds
    ) -> OpenAICompatibleProvider {
        OpenAICompatibleProvider(
            baseURL: url("/v1"), model: model, apiKey: apiKey, structuredOutput: mode,
            transport: Fixture.transport(transport, deadline: deadline))
    }

    /// An Anthropic provider whose base URL is this server (paths start with `/v1/messages`).
    func anthropic(
        model: String = "claude-sonnet-4-5", transport: TransportKind = .curl, deadline: Double = Patience.seconds
    ) -> AnthropicProvider {
        AnthropicProvider(
            baseURL: baseURL, model: model, apiKey: Fixture.apiKey, transport: Fixture.transport(transport, deadline: deadline))
    }

    /// A Gemini provider whose base URL is this server's `/v1beta`.
    func gemini(
        model: String = "gemini-2.5-flash", transport: TransportKind = .curl, deadline: Double = Patience.seconds
    ) -> GeminiProvider {
        GeminiProvider(
            baseURL: url("/v1beta"), model: model, apiKey: Fixture.apiKey,
            transport: Fixture.transport(transport, deadline: deadline))
    }

    /// One provider of each kind for tests that hold for all of them.
    func provider(_ kind: ProviderKind, transport: TransportKind = .curl, deadline: Double = Patience.seconds) -> any ModelProvider {
        switch kind {
        case .openAI: return openAI(transport: transport, deadline: deadline)
        case .anthropic: return anthropic(transport: transport, deadline: deadline)
        case .gemini: return gemini(transport: transport, deadline: deadline)
        }
    }
}

/// The three API families, for tables that run against each.
enum ProviderKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case openAI = "openai-compatible"
    case anthropic
    case gemini

    var testDescription: String { rawValue }

    /// A successful answer in this API's shape, carrying `Fixture.answer`.
    var successBody: String {
        switch self {
        case .openAI: return OpenAIBodies.completion()
        case .anthropic: return AnthropicBodies.toolUse()
        case .gemini: return GeminiBodies.completion()
        }
    }
}
