import Foundation
import Providers

/// What `--provider` accepts: offline replay, or one of the live presets.
public enum ProviderName: String, CaseIterable, Sendable {
    case replay
    case local
    case openaiCompatible = "openai-compatible"
    case openai
    case anthropic
    case gemini

    public var preset: ProviderConfiguration.Preset? {
        ProviderConfiguration.Preset(rawValue: rawValue)
    }

    /// The structured-output rules the provider's default request mode follows: llama.cpp's
    /// grammar for local, strict `json_schema` for OpenAI-compatible servers. Nil for replay.
    public var structuredOutputRules: StructuredOutputProvider? {
        preset.flatMap { ProviderConfiguration(preset: $0).structuredOutputRules }
    }
}

/// How a run reaches a model: replay, or a live provider with its limits and
/// whether its answers are recorded. The command line's provider options, as values.
public struct ProviderSettings: Sendable {
    public enum Recording: Sendable {
        case off
        /// Record every answer.
        case all
        /// Reuse the recordings that still match; call the model only for missing or stale ones.
        case missing
    }

    /// The live provider; nil replays the recordings.
    public var configuration: ProviderConfiguration?
    public var recording: Recording = .off
    /// Seconds one call may take in all.
    public var timeout: Double = 300
    /// Retries after a rate limit, server error, timeout or dropped connection.
    public var retries: Int = 3
    public var maxCalls: Int?
    public var maxTokens: Int?
    public var maxMinutes: Double?
    /// US dollars, priced from `prompts/prices.yaml`.
    public var maxCost: Double?

    public init(configuration: ProviderConfiguration? = nil) {
        self.configuration = configuration
    }
}

/// Provider options that cannot be honoured together, named as the command line spells them.
public struct ProviderSettingsError: Error, CustomStringConvertible, Equatable {
    public let description: String
}

extension ProviderSettings {
    /// The settings the command line's provider options ask for, or the first of them that
    /// cannot be honoured: recording or a budget on replay, a live provider's options on
    /// replay, a relative URL, a limit out of range.
    public init(
        provider: ProviderName, model: String? = nil, baseURL: String? = nil,
        structuredOutput: OpenAICompatibleProvider.StructuredOutputMode? = nil, recording: Recording = .off,
        timeout: Double = 300, retries: Int = 3,
        maxCalls: Int? = nil, maxTokens: Int? = nil, maxMinutes: Double? = nil, maxCost: Double? = nil
    ) throws(ProviderSettingsError) {
        func refused(_ message: String) -> ProviderSettingsError { ProviderSettingsError(description: message) }
        let replays = provider.preset == nil
        if recording != .off, replays {
            throw refused("--record needs a live provider, e.g. --provider local; replay only reads recordings.")
        }
        if replays, model != nil || baseURL != nil || structuredOutput != nil {
            throw refused("--model, --base-url and --structured-output apply to live providers, not to replay.")
        }
        if let baseURL, URL(string: baseURL)?.scheme == nil {
            throw refused("--base-url must be an absolute URL such as http://127.0.0.1:8080/v1, got \(baseURL).")
        }
        guard timeout > 0 else { throw refused("--timeout must be a positive number of seconds.") }
        guard (0...10).contains(retries) else { throw refused("--retries must be 0 to 10.") }
        if let maxCalls, maxCalls < 1 { throw refused("--max-calls must be at least 1.") }
        if let maxTokens, maxTokens < 1 { throw refused("--max-tokens must be at least 1.") }
        if let maxMinutes, !(maxMinutes > 0 && maxMinutes.isFinite) {
            throw refused("--max-minutes must be a positive number of minutes, e.g. 30 or 0.5.")
        }
        if let maxCost, !(maxCost > 0 && maxCost.isFinite) { throw refused("--max-cost must be a positive number of US dollars, e.g. 2 or 0.25.") }
        if replays, maxCalls != nil || maxTokens != nil || maxMinutes != nil || maxCost != nil {
            throw refused(
                "--max-calls, --max-tokens, --max-minutes and --max-cost limit live model calls, and replay makes none; add a live provider, e.g. --provider local.")
        }
        self.init(configuration: provider.preset.map {
            ProviderConfiguration(preset: $0, model: model, baseURL: baseURL.flatMap(URL.init(string:)), structuredOutput: structuredOutput)
        })
        self.recording = recording
        (self.timeout, self.retries) = (timeout, retries)
        (self.maxCalls, self.maxTokens, self.maxMinutes, self.maxCost) = (maxCalls, maxTokens, maxMinutes, maxCost)
    }
}
