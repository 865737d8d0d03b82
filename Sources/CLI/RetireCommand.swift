import ArgumentParser
import Console
import Evaluation

/// `trainer-eval retire NAME`: a prompt set leaves the project, prompts and golden folders together.
struct RetireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retire",
        abstract: "Remove a stale or superseded prompt set: its prompt folders and golden folders, in one step.",
        discussion: """
            NAME is a variant name (`variants` lists them). Its folders prompts/<step>/variants/NAME/ \
            go, and so does every golden/variants/<label>/ that runs it. Refused, with what to change \
            first, while prompts/kept-variants.yaml gates one of those folders in CI or a markdown \
            file of the project links to one of them. --dry-run prints what would go and changes \
            nothing. git keeps the files: commit the removal.

            Exits 0 when retired (or a dry run could retire it), 1 when something stops it, 2 for an \
            unknown name or a folder that cannot be removed (nothing is removed then).
            """
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Argument(help: ArgumentHelp("The prompt set's name.", valueName: "name"))
    var name: String

    @Flag(help: "Print what would be removed; remove nothing.")
    var dryRun = false

    func run() throws {
        let layout = try projectOptions.layout()
        let retirement = try Failure.exitingOnError { try PromptSetRetirement(name: name, layout: layout) }
        let printer = PromptSetsPrinter(terminal: .standardOutput)
        guard retirement.canApply else {
            printer.print(retirement, dryRun: dryRun)
            Terminal.standardError.writeLine("error: \(PromptSetRetirementError.blocked(name: name, blockers: retirement.blockers))")
            throw ExitCode.failure
        }
        if !dryRun { try Failure.exitingOnError { try retirement.apply(layout: layout) } }
        printer.print(retirement, dryRun: dryRun)
    }
}
