import Foundation
import JSONSchema

/// Anthropic's Messages API. Structured output goes through a single forced strict tool
/// whose `input_schema` is the step's schema; the tool input is the reply. Strict tool
/// use constrains decoding to the schema, but refuses schemas with keywords outside its
/// subset (string lengths, numeric bounds, `minItems` over 1...): those are left out of
/// the request, checked after the reply, and named in the run's warnings. It needs a
/// model with structured outputs (Claude Sonnet 4.5, Opus 4.5, Haiku 4.5 and later).
public struct AnthropicProvider: ModelProvider {
    public static let apiVersion = "2023-06-01"

    public let kind = "anthropic"
    public let model: String
    /// Normally `https://api.anthropic.com`.
    public let baseURL: URL
    let client: ProviderClient

    public init(baseURL: URL, model: String, apiKey: String, transport: any HTTPTransport = CurlTransport()) {
        self.baseURL = baseURL
        self.model = model
        client = ProviderClient(provider: "anthropic", transport: transport, secret: apiKey)
    }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        let headers = ["x-api-key": client.secret ?? "", "anthropic-version": Self.apiVersion]
        let url = baseURL.appendingPathComponent("v1/messages")
        let (json, latency) = try await client.post(url: url, headers: headers, body: body(for: request))
        guard let content = json["content"]?.arrayValue else {
            throw client.malformed("the response has no content", in: json)
        }
        let text: String
        if request.responseSchema != nil {
            guard let toolUse = content.first(where: { $0["type"] == "tool_use" }), let input = toolUse["input"] else {
                let said = content.compactMap { $0["text"]?.stringValue }.joined()
                throw client.malformed("the model did not call the \(request.schemaName) tool" + (said.isEmpty ? "" : " (it said: \(said.prefix(200)))"), in: json)
            }
            text = input.serialized()
        } else {
            text = content.compactMap { $0["type"] == "text" ? $0["text"]?.stringValue : nil }.joined()
        }
        let usage = TokenUsage(
            input: json["usage"]?["input_tokens"]?.intValue ?? 0,
            output: json["usage"]?["output_tokens"]?.intValue ?? 0)
        return CompletionResponse(
            text: text, finishReason: json["stop_reason"]?.stringValue, usage: usage, latency: latency,
            model: json["model"]?.stringValue, rawBody: json)
    }

    /// The request body exactly as sent.
    public func body(for request: CompletionRequest) -> JSONValue {
        let messages: [JSONValue] = request.messages.map {
            ["role": .string($0.role.rawValue), "content": .string($0.content)]
        }
        var body = JSONObject([
            .init(key: "model", value: .string(model)),
            .init(key: "max_tokens", value: .number(Double(request.maxTokens))),
            .init(key: "system", value: .string(request.system)),
            .init(key: "messages", value: .array(messages)),
            .init(key: "temperature", value: .number(request.temperature)),
        ])
        if let schema = request.responseSchema {
            body["tools"] = [[
                "name": .string(request.schemaName),
                "description": "Return the result. Call this tool exactly once with the complete output.",
                "strict": true,
                "input_schema": SchemaForProviders.withoutRejectedKeywords(SchemaForProviders.stripped(schema), for: .anthropic),
            ]]
            body["tool_choice"] = ["type": "tool", "name": .string(request.schemaName)]
        }
        return .object(body)
    }
}
