import Foundation
import JSONSchema

/// Google's Gemini `generateContent`, with the step's JSON Schema as `responseJsonSchema`
/// (judged by the `gemini` compatibility rules).
public struct GeminiProvider: ModelProvider {
    public let kind = "gemini"
    public let model: String
    /// Normally `https://generativelanguage.googleapis.com/v1beta`.
    public let baseURL: URL
    let client: ProviderClient

    public init(baseURL: URL, model: String, apiKey: String, transport: any HTTPTransport = CurlTransport()) {
        self.baseURL = baseURL
        self.model = model
        client = ProviderClient(provider: "gemini", transport: transport, secret: apiKey)
    }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        // The key goes in a header, never in the URL, so it cannot leak through a logged URL.
        let headers = ["x-goog-api-key": client.secret ?? ""]
        let url = baseURL.appendingPathComponent("models/\(model):generateContent")
        let (json, latency) = try await client.post(url: url, headers: headers, body: body(for: request))
        guard let candidate = json["candidates"]?[0] else {
            if let reason = json["promptFeedback"]?["blockReason"]?.stringValue {
                throw ProviderError(kind: .requestRejected, provider: kind, status: 200, message: "the prompt was blocked (\(reason))")
            }
            throw client.malformed("the response has no candidates", in: json)
        }
        let parts = candidate["content"]?["parts"]?.arrayValue ?? []
        let text = parts.compactMap { $0["text"]?.stringValue }.joined()
        let finishReason = candidate["finishReason"]?.stringValue
        if text.isEmpty && finishReason != "MAX_TOKENS" {
            throw client.malformed("the first candidate has no text (finish reason \(finishReason ?? "none"))", in: json)
        }
        // Thinking models (Gemini 2.5) report their thoughts apart from the candidates,
        // but bill them as output tokens.
        let thoughts = json["usageMetadata"]?["thoughtsTokenCount"]?.intValue ?? 0
        let usage = TokenUsage(
            input: json["usageMetadata"]?["promptTokenCount"]?.intValue ?? 0,
            output: (json["usageMetadata"]?["candidatesTokenCount"]?.intValue ?? 0) + thoughts,
            reasoning: thoughts)
        return CompletionResponse(
            text: text, finishReason: finishReason, usage: usage, latency: latency,
            model: json["modelVersion"]?.stringValue, rawBody: json)
    }

    /// The request body exactly as sent.
    public func body(for request: CompletionRequest) -> JSONValue {
        let contents: [JSONValue] = request.messages.map {
            ["role": .string($0.role == .assistant ? "model" : "user"), "parts": [["text": .string($0.content)]]]
        }
        var generation = JSONObject([
            .init(key: "temperature", value: .number(request.temperature)),
            .init(key: "maxOutputTokens", value: .number(Double(request.maxTokens))),
        ])
        if let seed = request.seed { generation["seed"] = .number(Double(seed)) }
        if let schema = request.responseSchema {
            generation["responseMimeType"] = "application/json"
            generation["responseJsonSchema"] = SchemaForProviders.stripped(schema)
        }
        return [
            "systemInstruction": ["parts": [["text": .string(request.system)]]],
            "contents": .array(contents),
            "generationConfig": .object(generation),
        ]
    }
}
