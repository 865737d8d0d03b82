import ArgumentParser
import Console
import Foundation
import Golden
import Intake

/// The `trainer-eval` command: a prompt lab for the trainer app's onboarding prompts.
@main
struct TrainerEval: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "trainer-eval",
        abstract: "Run, validate and gate the AI trainer's onboarding prompts.",
        discussion: """
            Feeds fixture intake records through the onboarding steps (goal options, option \
            edits, program draft, program edit), validates every output against its JSON \
            Schema and the domain rules, and compares the results with approved golden files.

            Exit codes: 0 success, 1 failures found, 2 bad input or usage.
            """,
        version: version,
        subcommands: [
            RunCommand.self, RenderCommand.self, CheckCommand.self, PendingCommand.self, DiffCommand.self, ReviewCommand.self, AcceptCommand.self,
            RejectCommand.self, UnsafeCommand.self, LabelCommand.self, AgreementCommand.self, JudgeCommand.self, PromoteCommand.self, VariantsCommand.self, RetireCommand.self, MergeCommand.self, HistoryCommand.self, CompareCommand.self, ServeCommand.self, FixturesCommand.self, ValidateCommand.self, SchemaCheckCommand.self,
            BenchValidateCommand.self,
        ]
    )

    /// Runs the command, mapping usage errors to exit code 2 (argument-parser's default is 64)
    /// in the project's `error:` style, with the nearest command for a mistyped one.
    static func main() async {
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            // `validate` with thousands of paths (a shell glob) would take seconds in
            // argument-parser's positional matching, which grows with the square of the
            // count: its instance paths are taken out first and handed over after parsing.
            let instances = ValidationSession.takingInstances(from: &arguments, command: ValidateCommand._commandName)
            var command = try parseAsRoot(arguments)
            if let instances, var validate = command as? ValidateCommand {
                validate.instances += instances
                command = validate
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                Terminal.standardError.writeLine(usageMessage(for: error))
                Foundation.exit(Gate.ExitStatus.badInput.rawValue)
            }
            // Help and version print as argument-parser prints them; every other
            // message in the project's one spelling, `error: …`.
            if code == .success { exit(withError: error) }
            let message = fullMessage(for: error)
            if !message.isEmpty { Terminal.standardError.writeLine(lowercasingErrorPrefix(message)) }
            Foundation.exit(code.rawValue)
        }
    }

    static func usageMessage(for error: Error) -> String {
        var message = lowercasingErrorPrefix(fullMessage(for: error))
        let arguments = CommandLine.arguments.dropFirst()
        let names = configuration.subcommands.map { $0._commandName }
        if let first = arguments.first, !first.hasPrefix("-"), !names.contains(first),
           message.contains("Unexpected argument '\(first)'") {
            let hint = ClosestMatch.suggestion(for: first, among: names).map { " Did you mean `\($0)`?" } ?? ""
            message = "error: `\(first)` is not a trainer-eval command.\(hint) Commands: \(names.filter { $0 != BenchValidateCommand._commandName }.joined(separator: ", ")).\n"
                + "  See '\(Invocation.command) --help' for more information."
        }
        return message
    }

    /// argument-parser writes `Error: `; the project's messages write `error: `.
    static func lowercasingErrorPrefix(_ message: String) -> String {
        message.hasPrefix("Error: ") ? "error: " + message.dropFirst("Error: ".count) : message
    }
}
