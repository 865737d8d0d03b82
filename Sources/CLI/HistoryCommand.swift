import ArgumentParser
import Console
import Foundation
import History
import Intake
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
        let history = try Failure.exitingOnError { try projectOptions.openProject().history() }
        let runs = try Failure.exitingOnError { try history.recentRuns(limit: limit) }
        let out = Terminal.standardOutput
        guard !runs.isEmpty else {
            out.writeLine("No runs recorded yet: `\(Invocation.command) run` records every run.")
            return
        }
        // A known failure passes the gate but not its checks: it is counted apart from the
        // steps that pass everything, so a weak model never reads as 100%.
        // So is a step failing a check not approved yet, in its own column when a run has one.
        let showsVariants = runs.contains { !$0.variants.isEmpty }
        let showsUnapproved = runs.contains { $0.unapprovedChecks > 0 }
        let header = ["run", "provider", "model", "steps", "clean", "known failures"] + (showsUnapproved ? ["unapproved checks"] : [])
            + ["failed", "gate", "tokens", "time", "commit"] + (showsVariants ? ["variants"] : [])
        let rows = runs.map { run in
            let variants = run.variants.map { "\($0.step)=\($0.name)" }.joined(separator: " ")
            return [
                run.id + (run.interrupted ? " (interrupted)" : ""), run.provider, run.model, "\(run.steps)",
                "\(run.passed - run.knownFailures - run.unapprovedChecks)", "\(run.knownFailures)",
            ] + (showsUnapproved ? ["\(run.unapprovedChecks)"] : []) + [
                "\(run.steps - run.passed)", run.passesGate ? "pass" : "fail", "\(run.inputTokens + run.outputTokens)", String(format: "%.1fs", run.durationSeconds), run.commit ?? "-",
            ] + (showsVariants ? [variants.isEmpty ? "-" : variants] : [])
        }
        out.writeLine(TextTable(header: header, rows: rows).rendered)
    }
}
