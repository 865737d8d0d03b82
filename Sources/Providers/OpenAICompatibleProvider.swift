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
        let (json, latency) = try await client.post(url: url, headers: headers, body: body(for: request))
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

    /// The request body exactly as sent.
    public func body(for request: CompletionRequest) -> JSONValue {
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

/// Schema preparation shared by providers.
enum SchemaForProviders {
    /// The schema for llama.cpp's grammar-constrained decoding. llama.cpp rejects a
    /// `maxLength` over 2,000 (and llama-cpp-python then crashes), so large bounds are
    /// dropped; bounds up to `LlamaGrammarSchema.lengthLimit` stay, because a bounded
    /// grammar keeps a small model from rambling. The grammar ignores `minimum` and
    /// `maximum`, so a small integer range is also spelled out as an `enum`, which it
    /// does enforce. Everything dropped is still checked after parsing, and the
    /// `llama-cpp` compatibility rules warn about it.
    static func grammarSafe(_ schema: JSONValue) -> JSONValue {
        capLengths(in: stripped(schema))
    }

    /// The schema without the keyword uses `provider` refuses outright (OpenAI's and
    /// Anthropic's strict modes answer HTTP 400 to `maxLength`, for example). The
    /// validator still checks them after the reply; the run warns once that the
    /// provider cannot enforce them.
    static func withoutRejectedKeywords(_ schema: JSONValue, for provider: StructuredOutputProvider) -> JSONValue {
        var result = schema
        for issue in providerCompatibilityIssues(schema: schema, provider: provider)
        where issue.severity == .rejected && issue.location.tokens.last == issue.keyword {
            result = removing(issue.location, from: result)
        }
        return result
    }

    private static func removing(_ pointer: JSONPointer, from value: JSONValue) -> JSONValue {
        guard let first = pointer.tokens.first else { return value }
        let rest = JSONPointer(tokens: Array(pointer.tokens.dropFirst()))
        switch value {
        case .object(var object):
            if rest.isRoot {
                object[first] = nil
            } else if let child = object[first] {
                object[first] = removing(rest, from: child)
            }
            return .object(object)
        case .array(var elements):
            guard let index = Int(first), elements.indices.contains(index) else { return value }
            elements[index] = removing(rest, from: elements[index])
            return .array(elements)
        default:
            return value
        }
    }

    private static func capLengths(in schema: JSONValue) -> JSONValue {
        guard case .object(let object) = schema else { return schema }
        var result = JSONObject()
        for member in object {
            switch member.key {
            case "maxLength", "minLength":
                if LlamaGrammarSchema.keepsLength(member.value) { result[member.key] = member.value }
            case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
                guard case .object(let map) = member.value else { result[member.key] = member.value; continue }
                result[member.key] = .object(JSONObject(map.members.map { .init(key: $0.key, value: capLengths(in: $0.value)) }))
            case "allOf", "anyOf", "oneOf", "prefixItems":
                result[member.key] = .array((member.value.arrayValue ?? []).map(capLengths))
            case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
                 "unevaluatedItems", "unevaluatedProperties":
                result[member.key] = capLengths(in: member.value)
            default:
                result[member.key] = member.value
            }
        }
        if let range = LlamaGrammarSchema.spelledOutRange(of: result) {
            result["enum"] = .array(range.map { .number(Double($0)) })
        }
        return .object(result)
    }

    /// The schema without the identification keywords APIs reject (`$schema`, `$id`).
    static func stripped(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        object["$schema"] = nil
        object["$id"] = nil
        return .object(object)
    }
}
