import Foundation
import JSONSchema

/// OpenAI Chat Completions, and every server that speaks it: OpenAI itself,
/// llama.cpp's and llama-cpp-python's servers, Ollama, vLLM.
public struct OpenAICompatibleProvider: ModelProvider {
    /// How the server is asked for structured output.
    public enum StructuredOutputMode: String, Codable, Sendable, CaseIterable {
        /// OpenAI's `{"type": "json_schema", "json_schema": {"name", "schema", "strict": true}}`.
        case jsonSchema = "json-schema"
        /// llama-cpp-python's `{"type": "json_object", "schema": {...}}`: grammar-constrained decoding.
        case jsonObjectWithSchema = "json-object-schema"
        /// `{"type": "json_object"}` with the schema only in the prompt.
        case jsonObject = "json-object"
        /// No `response_format` at all.
        case none
    }

    public let kind = "openai-compatible"
    public let model: String
    /// For example `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`.
    public let baseURL: URL
    public let structuredOutput: StructuredOutputMode
    let client: ProviderClient

    public init(
        baseURL: URL, model: String, apiKey: String?, structuredOutput: StructuredOutputMode = .jsonSchema,
        transport: any HTTPTransport = CurlTransport()
    ) {
        self.baseURL = baseURL
        self.model = model
        self.structuredOutput = structuredOutput
        client = ProviderClient(provider: "openai-compatible", transport: transport, secret: apiKey)
    }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        var headers: [String: String] = [:]
        if let key = client.secret { headers["Authorization"] = "Bearer \(key)" }
        let url = baseURL.appendingPathComponent("chat/completions")
        let (json, latency) = try await client.post(url: url, headers: headers, body: try body(for: request))
        guard let choice = json["choices"]?[0] else {
            throw client.malformed("the response has no choices", in: json)
        }
        guard let content = choice["message"]?["content"]?.stringValue else {
            if let refusal = choice["message"]?["refusal"]?.stringValue {
                throw ProviderError(kind: .requestRejected, provider: kind, status: 200, message: "the model refused: \(refusal)")
            }
            throw client.malformed("the first choice has no message content", in: json)
        }
        let usage = TokenUsage(
            input: json["usage"]?["prompt_tokens"]?.intValue ?? 0,
            output: json["usage"]?["completion_tokens"]?.intValue ?? 0,
            reasoning: json["usage"]?["completion_tokens_details"]?["reasoning_tokens"]?.intValue ?? 0)
        return CompletionResponse(
            text: content, finishReason: choice["finish_reason"]?.stringValue, usage: usage, latency: latency,
            model: json["model"]?.stringValue, rawBody: json)
    }

    /// The request body exactly as sent. Fails when the request asks for compact JSON
    /// from a grammar and the schema is beyond what `CompactJSONGrammar` can write.
    public func body(for request: CompletionRequest) throws(CompactGrammarError) -> JSONValue {
        var messages: [JSONValue] = [["role": "system", "content": .string(request.system)]]
        for message in request.messages {
            messages.append(["role": .string(message.role.rawValue), "content": .string(message.content)])
        }
        var body: JSONObject = JSONObject([
            .init(key: "model", value: .string(model)),
            .init(key: "messages", value: .array(messages)),
            .init(key: "temperature", value: .number(request.temperature)),
            .init(key: "max_tokens", value: .number(Double(request.maxTokens))),
        ])
        if let seed = request.seed { body["seed"] = .number(Double(seed)) }
        if let schema = request.responseSchema {
            switch structuredOutput {
            case .jsonSchema:
                body["response_format"] = [
                    "type": "json_schema",
                    "json_schema": [
                        "name": .string(request.schemaName),
                        "schema": SchemaForProviders.withoutRejectedKeywords(SchemaForProviders.stripped(schema), for: .openai),
                        "strict": true,
                    ],
                ]
            case .jsonObjectWithSchema where request.compactJSON:
                body["grammar"] = .string(try CompactJSONGrammar(schema: SchemaForProviders.grammarSafe(schema)).text)
            case .jsonObjectWithSchema:
                body["response_format"] = ["type": "json_object", "schema": SchemaForProviders.grammarSafe(schema)]
            case .jsonObject:
                body["response_format"] = ["type": "json_object"]
            case .none:
                break
            }
        }
        return .object(body)
    }
}
