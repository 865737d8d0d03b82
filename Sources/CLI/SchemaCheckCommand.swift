import ArgumentParser
import Console
import Evaluation

/// `trainer-eval schema-check [--provider NAME] FILE...`: lists what each
/// provider's structured-output mode would reject or silently ignore in a schema.
///
/// Exit status: 0 when no provider rejects anything (ignored keywords are
/// warnings), 1 when something is rejected, 2 when a file cannot be read or parsed.
struct SchemaCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema-check",
        abstract: "Check JSON Schemas against the structured-output subsets of OpenAI, Anthropic, Gemini and llama.cpp grammars.")

    @Option(name: .long, help: "Check one provider only, named as `run --provider` names it: local, openai-compatible, openai, anthropic or gemini (default: local, openai, anthropic, gemini).")
    var provider: ProviderName?

    func validate() throws {
        if provider == .replay { throw ValidationError("replay sends no schema to a model; name a live provider.") }
    }

    @Argument(help: ArgumentHelp("Schema files to check.", valueName: "file"))
    var files: [String] = []

    func run() throws {
        let status = SchemaCompatibilityPrinter().check(files, providers: provider.map { [$0] } ?? SchemaCompatibilityPrinter.defaultProviders)
        if status != .passed { throw ExitCode(status.rawValue) }
    }
}
