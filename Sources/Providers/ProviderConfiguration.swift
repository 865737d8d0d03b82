import Foundation
import JSONSchema

/// Which provider a run talks to, and how: built from command-line options and the environment.
public struct ProviderConfiguration: Sendable, Hashable {
    /// The provider presets `--provider` accepts.
    public enum Preset: String, Sendable, CaseIterable {
        /// A local llama.cpp server on 127.0.0.1:8080 (llama-server or llama-cpp-python; see `scripts/local-model`).
        case local
        /// Any OpenAI-compatible server at `--base-url`.
        case openaiCompatible = "openai-compatible"
        case openai
        case anthropic
        case gemini
    }

    public var preset: Preset
    public var model: String
    public var baseURL: URL
    public var structuredOutput: OpenAICompatibleProvider.StructuredOutputMode
    /// The environment variable holding the API key, if the provider needs one.
    public var apiKeyVariable: String?

    /// The configuration for `preset`, with optional overrides.
    public init(
        preset: Preset, model: String? = nil, baseURL: URL? = nil,
        structuredOutput: OpenAICompatibleProvider.StructuredOutputMode? = nil
    ) {
        self.preset = preset
        switch preset {
        case .local:
            self.model = model ?? "qwen2.5-coder-1.5b-instruct-q4_k_m"
            self.baseURL = baseURL ?? URL(string: "http://127.0.0.1:8080/v1")!
            self.structuredOutput = structuredOutput ?? .jsonObjectWithSchema
            apiKeyVariable = nil
        case .openaiCompatible:
            self.model = model ?? "default"
            self.baseURL = baseURL ?? URL(string: "http://127.0.0.1:8080/v1")!
            self.structuredOutput = structuredOutput ?? .jsonSchema
            apiKeyVariable = nil
        case .openai:
            self.model = model ?? "gpt-4.1-mini"
            self.baseURL = baseURL ?? URL(string: "https://api.openai.com/v1")!
            self.structuredOutput = structuredOutput ?? .jsonSchema
            apiKeyVariable = "OPENAI_API_KEY"
        case .anthropic:
            self.model = model ?? "claude-sonnet-4-5"
            self.baseURL = baseURL ?? URL(string: "https://api.anthropic.com")!
            self.structuredOutput = structuredOutput ?? .none
            apiKeyVariable = "ANTHROPIC_API_KEY"
        case .gemini:
            self.model = model ?? "gemini-2.5-flash"
            self.baseURL = baseURL ?? URL(string: "https://generativelanguage.googleapis.com/v1beta")!
            self.structuredOutput = structuredOutput ?? .none
            apiKeyVariable = "GEMINI_API_KEY"
        }
    }

    /// The compatibility rules that say which schema keywords this configuration's
    /// requests get enforced by the model's decoding; nil when no schema is sent to be
    /// enforced (`json-object` and `none`, where only the validator checks the reply).
    public var structuredOutputRules: StructuredOutputProvider? {
        switch preset {
        case .anthropic: return .anthropic
        case .gemini: return .gemini
        case .local, .openaiCompatible, .openai:
            switch structuredOutput {
            case .jsonSchema: return .openai
            case .jsonObjectWithSchema: return .llamaCppGrammar
            case .jsonObject, .none: return nil
            }
        }
    }

    /// How warnings name this configuration: the preset, with the structured-output
    /// mode for the presets that speak the OpenAI-compatible API.
    public var structuredOutputLabel: String {
        switch preset {
        case .anthropic, .gemini: return preset.rawValue
        case .local, .openaiCompatible, .openai: return "\(preset.rawValue) (\(structuredOutput.rawValue))"
        }
    }

    /// The provider, reading its API key from `environment`; fails before any call
    /// when a required key is missing.
    public func makeProvider(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        transport: any HTTPTransport = CurlTransport()
    ) throws -> any ModelProvider {
        var key: String?
        if let variable = apiKeyVariable {
            guard let value = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
                throw ProviderError(
                    kind: .missingAPIKey, provider: preset.rawValue,
                    message: "set \(variable) in the environment to use --provider \(preset.rawValue) (keys are never read from files)")
            }
            key = value
        } else if preset == .openaiCompatible {
            key = environment["OPENAI_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        }
        switch preset {
        case .local, .openaiCompatible, .openai:
            return OpenAICompatibleProvider(
                baseURL: baseURL, model: model, apiKey: key, structuredOutput: structuredOutput, transport: transport)
        case .anthropic:
            return AnthropicProvider(baseURL: baseURL, model: model, apiKey: key ?? "", transport: transport)
        case .gemini:
            return GeminiProvider(baseURL: baseURL, model: model, apiKey: key ?? "", transport: transport)
        }
    }
}
