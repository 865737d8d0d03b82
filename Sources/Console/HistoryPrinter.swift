import Foundation
import History
import Intake

/// `history`: recent runs, newest first, one row each.
public struct HistoryPrinter {
    let out: Terminal

    public init(out: Terminal = .standardOutput) {
        self.out = out
    }

    /// A known failure passes the gate but not its checks, so it is counted apart from the
    /// steps that pass everything (a weak model never reads as 100%); so is a step failing
    /// a check not approved yet, in a column of its own when a run has one.
    public func print(_ runs: [RunRow]) {
        guard !runs.isEmpty else {
            out.writeLine("No runs recorded yet: `\(Invocation.command) run` records every run.")
            return
        }
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
                "\(run.steps - run.passed)", run.passesGate ? "pass" : "fail", "\(run.inputTokens + run.outputTokens)",
                String(format: "%.1fs", run.durationSeconds), run.commit ?? "-",
            ] + (showsVariants ? [variants.isEmpty ? "-" : variants] : [])
        }
        out.writeLine(TextTable(header: header, rows: rows).rendered)
    }

    /// What `history prune` removed, and how many runs are left.
    public func printPruned(_ removed: [RunRow], left: Int) {
        let out = Terminal.standardOutput
        for run in removed { out.writeLine("pruned \(run.id)") }
        out.writeLine("\(removed.count) run\(removed.count == 1 ? "" : "s") pruned, \(left) kept; the file is compacted.")
    }
}
