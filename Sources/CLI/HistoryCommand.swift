import ArgumentParser
import Foundation
import History
import Pipeline

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
        let layout = try projectOptions.layout()
        let history = try Failure.exitingOnError { try RunHistory(file: layout.history) }
        let runs = try Failure.exitingOnError { try history.recentRuns(limit: limit) }
        let out = Terminal.standardOutput
        guard !runs.isEmpty else {
            out.writeLine("No runs recorded yet: `trainer-eval run` records every run.")
            return
        }
        let header = ["run", "provider", "model", "steps", "pass rate", "gate", "tokens", "time", "commit", "statuses"]
        let rows = runs.map { run in
            [
                run.id + (run.interrupted ? " (interrupted)" : ""), run.provider, String(run.model.prefix(48)), "\(run.steps)",
                String(format: "%.0f%%", run.passRate * 100), run.passesGate ? "pass" : "fail",
                "\(run.inputTokens + run.outputTokens)", String(format: "%.1fs", run.durationSeconds), run.commit ?? "-", run.statuses,
            ]
        }
        out.writeLine(TextTable(header: header, rows: rows).rendered)
    }
}
