import ArgumentParser
import Console

/// `trainer-eval history`: recent runs with their pass rates.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List recent runs with their pass rates (from .history/runs.sqlite).",
        discussion: "Every `trainer-eval run` is recorded. Refer to a run by its id, a unique prefix of it, `latest` or `latest~N`."
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Option(help: ArgumentHelp("How many runs to list, newest first.", valueName: "n"))
    var limit: Int = 20

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() throws {
        let history = try Failure.exitingOnError { try projectOptions.openProject().history() }
        let runs = try Failure.exitingOnError { try history.recentRuns(limit: limit) }
        HistoryPrinter().print(runs)
    }
}
