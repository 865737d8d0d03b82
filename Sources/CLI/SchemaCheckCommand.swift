import ArgumentParser
import Foundation
import Golden
import JSONSchema
import Providers

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
        guard !files.isEmpty else {
            ValidateCommand.printError("error: give at least one schema file to check")
            throw ExitCode.badInput
        }
        let providers = provider.map { [$0] } ?? [.local, .openai, .anthropic, .gemini]
        var rejected = false
        for file in files {
            let schema: JSONValue
            do {
                schema = try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: file)))
            } catch {
                ValidateCommand.printError("error: cannot read schema \(file): \(error)")
                throw ExitCode.badInput
            }
            for provider in providers {
                guard let rules = provider.structuredOutputRules else { continue }
                let issues = providerCompatibilityIssues(schema: schema, provider: rules)
                rejected = rejected || issues.contains { $0.severity == .rejected }
                print("\(file) [\(provider.rawValue)]: \(issues.isEmpty ? "compatible" : "\(issues.count) issue\(issues.count == 1 ? "" : "s")")")
                for issue in issues { print("  \(issue)") }
            }
        }
        if rejected { throw ExitCode(Gate.exitStatus(passes: false).rawValue) }
    }
}
