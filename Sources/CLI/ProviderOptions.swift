import ArgumentParser
import Evaluation
import Foundation
import Providers

extension OpenAICompatibleProvider.StructuredOutputMode: ExpressibleByArgument {}

extension ProviderName: ExpressibleByArgument {}

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

    func validate() throws {
        _ = try settings()
    }

    /// The options as the project's provider stack takes them, or the usage error that says which cannot be honoured.
    func settings() throws -> ProviderSettings {
        do {
            return try ProviderSettings(
                provider: provider, model: model, baseURL: baseURL, structuredOutput: structuredOutput,
                recording: recordMissing ? .missing : record ? .all : .off, timeout: timeout, retries: retries,
                maxCalls: maxCalls, maxTokens: maxTokens, maxMinutes: maxMinutes, maxCost: maxCost)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
