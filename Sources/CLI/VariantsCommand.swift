import ArgumentParser
import Console
import Evaluation

/// `trainer-eval variants`: the prompt sets kept beside the base.
struct VariantsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "variants",
        abstract: "List the prompt sets beside the base: what each overrides, its verdict, whether CI gates it, whether its recordings are stale.",
        discussion: """
            A prompt set is a variant name across the steps that have it (`v3`), as `run --variant NAME` \
            selects it, or a golden folder that mixes variants (`program-draft=v4.4 program-edit=v4.5`). \
            For each: the steps it overrides; its approved outputs paired with the base's over the \
            fixture steps both approved (an output passes when valid with every check passing; the \
            verdict is `compare`'s McNemar test); the date of its newest recording; whether \
            prompts/kept-variants.yaml gates it in CI; and whether its recordings still answer what \
            its prompts send, from a replay of its folder (about a second a set; --no-replay skips it).

            --format selections prints each gated set's --variant values, one set a line, for scripts, \
            with a --fixture for each fixture its golden folder holds when that is not every fixture \
            (a person added after the set was recorded has nothing to replay on it).
            Exits 2 when the project or prompts/kept-variants.yaml cannot be read.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Option(help: ArgumentHelp("text; json (one object); or selections (the gated sets' --variant values, one set a line).", valueName: "format"))
    var format: Format = .text

    @Flag(help: "Do not replay each set's folder (recordings are then not judged).")
    var noReplay = false

    enum Format: String, ExpressibleByArgument {
        case text, json, selections
    }

    func run() async throws {
        let project = try projectOptions.openProject()
        if format == .selections {
            let selections = try Failure.exitingOnError { try PromptSets.gatedSelections(project: project) }
            for selection in selections { Terminal.standardOutput.writeLine(selection.joined(separator: " ")) }
            return
        }
        let err = Terminal.standardError
        let listing = try await Failure.exitingOnError {
            try await PromptSets.load(project: project, replaying: !noReplay) { name in
                if format == .text { err.writeLine("replaying \(name)…") }
            }
        }
        let printer = PromptSetsPrinter(terminal: .standardOutput)
        switch format {
        case .json: Terminal.standardOutput.writeLine(printer.json(listing))
        case .text, .selections: printer.print(listing)
        }
    }
}
