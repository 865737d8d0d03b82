import ArgumentParser
import Foundation
import Providers

extension ProviderConfiguration.Preset: ExpressibleByArgument {}
extension OpenAICompatibleProvider.StructuredOutputMode: ExpressibleByArgument {}

/// The options that choose and configure the model provider.
struct ProviderOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The provider: local, openai-compatible, openai, anthropic or gemini.",
        discussion: "local is a llama-cpp-python server on 127.0.0.1:8080 started by scripts/local-model. API keys come only from OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY."))
    var provider: ProviderConfiguration.Preset = .local

    @Option(help: "The model name sent to the provider (defaults to the preset's).")
    var model: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("The API base URL, e.g. http://127.0.0.1:8080/v1.", valueName: "url"))
    var baseURL: String?

    @Option(name: .customLong("structured-output"), help: ArgumentHelp(
        "How an OpenAI-compatible server is asked for JSON: json-schema, json-object-schema, json-object or none.",
        discussion: "OpenAI uses json-schema (strict); llama-cpp-python needs json-object-schema."))
    var structuredOutput: OpenAICompatibleProvider.StructuredOutputMode?

    @Option(help: ArgumentHelp("Seconds a single call may take in total before it times out.", valueName: "seconds"))
    var timeout: Double = 300

    func validate() throws {
        if let baseURL, URL(string: baseURL)?.scheme == nil {
            throw ValidationError("--base-url must be an absolute URL such as http://127.0.0.1:8080/v1, got \(baseURL).")
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds.") }
    }

    var configuration: ProviderConfiguration {
        ProviderConfiguration(
            preset: provider, model: model, baseURL: baseURL.flatMap(URL.init(string:)), structuredOutput: structuredOutput)
    }

    /// The provider, or exit code 2 with the reason (for example a missing API key).
    func makeProvider() throws -> any ModelProvider {
        do {
            return try configuration.makeProvider(transport: URLSessionTransport(deadline: timeout))
        } catch {
            Terminal.standardError.writeLine("error: \(error)")
            throw ExitCode(2)
        }
    }
}
