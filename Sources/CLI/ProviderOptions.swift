import ArgumentParser
import Evaluation
import Foundation
import Intake
import Pipeline
import Providers

extension OpenAICompatibleProvider.StructuredOutputMode: ExpressibleByArgument {}

/// What `--provider` accepts: offline replay, or one of the live presets.
enum ProviderName: String, CaseIterable, ExpressibleByArgument {
    case replay
    case local
    case openaiCompatible = "openai-compatible"
    case openai
    case anthropic
    case gemini

    var preset: ProviderConfiguration.Preset? {
        ProviderConfiguration.Preset(rawValue: rawValue)
    }

    /// The structured-output rules the provider's default request mode follows: llama.cpp's
    /// grammar for local, strict `json_schema` for OpenAI-compatible servers. Nil for replay.
    var structuredOutputRules: StructuredOutputProvider? {
        preset.flatMap { ProviderConfiguration(preset: $0).structuredOutputRules }
    }
}

/// The options that choose and configure the model provider.
struct ProviderOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The provider: replay, local, openai-compatible, openai, anthropic or gemini.",
        discussion: "replay (the default) answers from the recorded responses in golden/ and never calls the network. local is llama.cpp's llama-server on 127.0.0.1:8080, started by `scripts/local-model serve` (llama-cpp-python instead with --engine=python). API keys come only from OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY."))
    var provider: ProviderName = .replay

    @Flag(help: "Record every live response into golden/<fixture>/<step>.cassette.json.")
    var record = false

    @Flag(name: .customLong("record-missing"), help: ArgumentHelp(
        "Like --record, but reuse recordings that still match and call the model only for missing or stale ones.",
        discussion: "Resumes an interrupted recording without paying for what it already has."))
    var recordMissing = false

    var records: Bool { record || recordMissing }

    @Option(help: "The model name sent to the provider (defaults to the preset's).")
    var model: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("The API base URL, e.g. http://127.0.0.1:8080/v1.", valueName: "url"))
    var baseURL: String?

    @Option(name: .customLong("structured-output"), help: ArgumentHelp(
        "How an OpenAI-compatible server is asked for JSON: json-schema, json-object-schema, json-object or none.",
        discussion: "Defaults: json-schema (strict) for openai and openai-compatible; json-object-schema for local, which llama-server (and llama-cpp-python) turn into a grammar."))
    var structuredOutput: OpenAICompatibleProvider.StructuredOutputMode?

    @Option(help: ArgumentHelp("Seconds a single call may take in total before it times out.", valueName: "seconds"))
    var timeout: Double = 300

    @Option(help: ArgumentHelp(
        "Retries of a call after a rate limit, server error, timeout or dropped connection.",
        discussion: "Waits follow Retry-After when the server sends it, else exponential backoff with jitter.",
        valueName: "n"))
    var retries: Int = 3

    @Option(name: .customLong("max-calls"), help: ArgumentHelp("Stop starting model calls after this many calls in the run.", valueName: "n"))
    var maxCalls: Int?

    @Option(name: .customLong("max-tokens"), help: ArgumentHelp("Stop starting model calls once the run has used this many tokens.", valueName: "n"))
    var maxTokens: Int?

    @Option(name: .customLong("max-minutes"), help: ArgumentHelp(
        "Stop starting model calls after this many minutes of wall time (decimals allowed).",
        discussion: "Calls under way finish; the steps not started are skipped, the report is written, and the command that resumes the run is printed.",
        valueName: "minutes"))
    var maxMinutes: Double?

    @Option(name: .customLong("max-cost"), help: ArgumentHelp(
        "Stop starting model calls once the run has cost this many US dollars, priced from prompts/prices.yaml.",
        valueName: "usd"))
    var maxCost: Double?

    /// Whether any of --max-calls, --max-tokens, --max-minutes or --max-cost was given.
    var hasBudget: Bool { maxCalls != nil || maxTokens != nil || maxMinutes != nil || maxCost != nil }

    func validate() throws {
        if records, provider == .replay {
            throw ValidationError("--record needs a live provider, e.g. --provider local; replay only reads recordings.")
        }
        if provider == .replay, model != nil || baseURL != nil || structuredOutput != nil {
            throw ValidationError("--model, --base-url and --structured-output apply to live providers, not to replay.")
        }
        if let baseURL, URL(string: baseURL)?.scheme == nil {
            throw ValidationError("--base-url must be an absolute URL such as http://127.0.0.1:8080/v1, got \(baseURL).")
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds.") }
        guard (0...10).contains(retries) else { throw ValidationError("--retries must be 0 to 10.") }
        if let maxCalls, maxCalls < 1 { throw ValidationError("--max-calls must be at least 1.") }
        if let maxTokens, maxTokens < 1 { throw ValidationError("--max-tokens must be at least 1.") }
        if let maxMinutes, !(maxMinutes > 0 && maxMinutes.isFinite) { throw ValidationError("--max-minutes must be a positive number of minutes, e.g. 30 or 0.5.") }
        if let maxCost, !(maxCost > 0 && maxCost.isFinite) { throw ValidationError("--max-cost must be a positive number of US dollars, e.g. 2 or 0.25.") }
        if provider == .replay, hasBudget {
            throw ValidationError("--max-calls, --max-tokens, --max-minutes and --max-cost limit live model calls, and replay makes none; add a live provider, e.g. --provider local.")
        }
    }

    /// The live provider's configuration; nil for replay.
    var configuration: ProviderConfiguration? {
        provider.preset.map {
            ProviderConfiguration(preset: $0, model: model, baseURL: baseURL.flatMap(URL.init(string:)), structuredOutput: structuredOutput)
        }
    }

    /// The options as the project's provider stack takes them.
    var settings: ProviderSettings {
        var settings = ProviderSettings(configuration: configuration)
        settings.recording = recordMissing ? .missing : record ? .all : .off
        (settings.timeout, settings.retries) = (timeout, retries)
        (settings.maxCalls, settings.maxTokens, settings.maxMinutes, settings.maxCost) = (maxCalls, maxTokens, maxMinutes, maxCost)
        return settings
    }
}
