import Foundation
import JSONSchema
import Providers
import TestSupport
import Testing

@Suite("Provider configuration")
struct ProviderConfigurationTests {
    typealias Preset = ProviderConfiguration.Preset

    struct Defaults: Sendable, CustomTestStringConvertible {
        let preset: Preset
        let model: String
        let baseURL: String
        let mode: OpenAICompatibleProvider.StructuredOutputMode
        let keyVariable: String?
        let kind: String
        var testDescription: String { preset.rawValue }
    }

    static let defaults: [Defaults] = [
        Defaults(preset: .local, model: "qwen2.5-coder-1.5b-instruct-q4_k_m", baseURL: "http://127.0.0.1:8080/v1",
                 mode: .jsonObjectWithSchema, keyVariable: nil, kind: "openai-compatible"),
        Defaults(preset: .openaiCompatible, model: "default", baseURL: "http://127.0.0.1:8080/v1",
                 mode: .jsonSchema, keyVariable: nil, kind: "openai-compatible"),
        Defaults(preset: .openai, model: "gpt-4.1-mini", baseURL: "https://api.openai.com/v1",
                 mode: .jsonSchema, keyVariable: "OPENAI_API_KEY", kind: "openai-compatible"),
        Defaults(preset: .anthropic, model: "claude-sonnet-4-5", baseURL: "https://api.anthropic.com",
                 mode: .none, keyVariable: "ANTHROPIC_API_KEY", kind: "anthropic"),
        Defaults(preset: .gemini, model: "gemini-2.5-flash", baseURL: "https://generativelanguage.googleapis.com/v1beta",
                 mode: .none, keyVariable: "GEMINI_API_KEY", kind: "gemini"),
    ]

    @Test("each preset's defaults", arguments: defaults)
    func presetDefaults(_ expected: Defaults) throws {
        let configuration = ProviderConfiguration(preset: expected.preset)
        #expect(configuration.model == expected.model)
        #expect(configuration.baseURL.absoluteString == expected.baseURL)
        #expect(configuration.structuredOutput == expected.mode)
        #expect(configuration.apiKeyVariable == expected.keyVariable)

        let environment = expected.keyVariable.map { [$0: Fixture.apiKey] } ?? [:]
        let provider = try configuration.makeProvider(environment: environment, transport: Fixture.transport())
        #expect(provider.kind == expected.kind)
        #expect(provider.model == expected.model)
    }

    @Test func everyPresetHasATableRow() {
        #expect(Set(Self.defaults.map(\.preset)) == Set(Preset.allCases))
    }

    @Test("overrides replace the defaults", arguments: Preset.allCases)
    func overrides(preset: Preset) throws {
        let url = URL(string: "http://127.0.0.1:9999/custom")!
        let configuration = ProviderConfiguration(preset: preset, model: "my-model", baseURL: url, structuredOutput: .jsonObject)
        #expect(configuration.model == "my-model")
        #expect(configuration.baseURL == url)
        #expect(configuration.structuredOutput == .jsonObject)
    }

    @Test("a missing key fails before any request", arguments: [Preset.openai, .anthropic, .gemini])
    func missingKey(preset: Preset) async throws {
        let server = try LoopbackServer(answering: .json(ProviderKind.openAI.successBody))
        let configuration = ProviderConfiguration(preset: preset, baseURL: server.url("/v1"))
        let variable = try #require(configuration.apiKeyVariable)
        for environment in [[:], [variable: ""], [variable: "  \n"], ["OTHER_API_KEY": Fixture.apiKey]] {
            let error = #expect(throws: ProviderError.self) {
                try configuration.makeProvider(environment: environment, transport: Fixture.transport())
            }
            #expect(error?.kind == .missingAPIKey)
            #expect(error?.provider == preset.rawValue)
            #expect(error?.message.contains("set \(variable) in the environment") == true)
            #expect(error?.message.contains("--provider \(preset.rawValue)") == true)
            #expect(error?.isRetryable == false)
        }
        #expect(server.requestCount == 0)
        #expect(server.connectionCount == 0)
    }

    struct KeyCase: Sendable, CustomTestStringConvertible {
        let preset: Preset
        let environment: [String: String]
        /// The header that should carry the key, and its expected value; nil when no key header is expected.
        let header: (name: String, value: String?)
        let pathPrefix: String
        let answer: ProviderKind
        var testDescription: String { "\(preset.rawValue) with \(environment.keys.sorted())" }
    }

    static let keyCases: [KeyCase] = [
        KeyCase(preset: .openai, environment: ["OPENAI_API_KEY": " sk-from-dictionary\n"],
                header: ("Authorization", "Bearer sk-from-dictionary"), pathPrefix: "/v1/chat/completions", answer: .openAI),
        KeyCase(preset: .openaiCompatible, environment: ["OPENAI_API_KEY": "sk-from-dictionary"],
                header: ("Authorization", "Bearer sk-from-dictionary"), pathPrefix: "/v1/chat/completions", answer: .openAI),
        KeyCase(preset: .openaiCompatible, environment: [:],
                header: ("Authorization", nil), pathPrefix: "/v1/chat/completions", answer: .openAI),
        KeyCase(preset: .local, environment: ["OPENAI_API_KEY": "sk-from-dictionary"],
                header: ("Authorization", nil), pathPrefix: "/v1/chat/completions", answer: .openAI),
        KeyCase(preset: .anthropic, environment: ["ANTHROPIC_API_KEY": "sk-ant-from-dictionary"],
                header: ("x-api-key", "sk-ant-from-dictionary"), pathPrefix: "/v1/messages", answer: .anthropic),
        KeyCase(preset: .gemini, environment: ["GEMINI_API_KEY": "AIza-from-dictionary"],
                header: ("x-goog-api-key", "AIza-from-dictionary"), pathPrefix: "/v1beta/models/gemini-2.5-flash:generateContent", answer: .gemini),
    ]

    @Test("keys come only from the given environment", arguments: keyCases)
    func keyFromEnvironment(_ keyCase: KeyCase) async throws {
        let server = try LoopbackServer(answering: .json(keyCase.answer.successBody))
        let base: URL
        switch keyCase.preset {
        case .anthropic: base = server.baseURL
        case .gemini: base = server.url("/v1beta")
        default: base = server.url("/v1")
        }
        let configuration = ProviderConfiguration(preset: keyCase.preset, baseURL: base)
        let provider = try configuration.makeProvider(environment: keyCase.environment, transport: Fixture.transport())
        _ = try await provider.complete(Fixture.request())

        let request = try #require(server.lastRequest)
        #expect(request.path == keyCase.pathPrefix)
        #expect(request.header(keyCase.header.name) == keyCase.header.value)
    }

    struct RulesCase: Sendable, CustomTestStringConvertible {
        let preset: Preset
        let mode: OpenAICompatibleProvider.StructuredOutputMode?
        let rules: StructuredOutputProvider?
        let label: String
        var testDescription: String { label }
    }

    /// Which compatibility rules judge what each configuration sends.
    static let rulesCases: [RulesCase] = [
        RulesCase(preset: .local, mode: nil, rules: .llamaCppGrammar, label: "local (json-object-schema)"),
        RulesCase(preset: .local, mode: .jsonSchema, rules: .openai, label: "local (json-schema)"),
        RulesCase(preset: .local, mode: .jsonObject, rules: nil, label: "local (json-object)"),
        RulesCase(preset: .openaiCompatible, mode: nil, rules: .openai, label: "openai-compatible (json-schema)"),
        RulesCase(preset: .openaiCompatible, mode: .jsonObjectWithSchema, rules: .llamaCppGrammar, label: "openai-compatible (json-object-schema)"),
        RulesCase(preset: .openaiCompatible, mode: .jsonObject, rules: nil, label: "openai-compatible (json-object)"),
        RulesCase(preset: .openaiCompatible, mode: OpenAICompatibleProvider.StructuredOutputMode.none, rules: nil, label: "openai-compatible (none)"),
        RulesCase(preset: .openai, mode: nil, rules: .openai, label: "openai (json-schema)"),
        RulesCase(preset: .anthropic, mode: nil, rules: .anthropic, label: "anthropic"),
        RulesCase(preset: .gemini, mode: nil, rules: .gemini, label: "gemini"),
    ]

    @Test("each configuration is judged by the rules of what it sends", arguments: rulesCases)
    func structuredOutputRules(_ expected: RulesCase) {
        let configuration = ProviderConfiguration(preset: expected.preset, structuredOutput: expected.mode)
        #expect(configuration.structuredOutputRules == expected.rules)
        #expect(configuration.structuredOutputLabel == expected.label)
    }

    @Test func theLocalPresetAsksForGrammarConstrainedJSON() async throws {
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion()))
        let configuration = ProviderConfiguration(preset: .local, baseURL: server.url("/v1"))
        _ = try await configuration.makeProvider(environment: [:], transport: Fixture.transport()).complete(Fixture.request())
        let body = try Fixture.body(of: server.lastRequest)
        #expect(body["model"] == "qwen2.5-coder-1.5b-instruct-q4_k_m")
        #expect(body["response_format"] == ["type": "json_object", "schema": Fixture.strippedSchema])
    }
}
