import Evaluation
import Foundation
import Golden
import Intake
import Pipeline
import Reports

/// Prints a run's end: the summary table, stability over repeats, the comparison with
/// golden, warnings, where the report is, and why the run stopped early if it did.
public struct RunOutcomePrinter {
    let out: Terminal
    let err: Terminal
    let layout: ProjectLayout
    /// Latencies, tokens and cost come from the recordings.
    let replaying: Bool
    /// What to do when the provider cannot be reached, beyond running again.
    var unreachableHint: String?
    /// The CI gate shows every diff and writes no pending files.
    let ci: Bool
    /// The command line that finishes a run a budget stopped.
    var resumeLine: String?
    /// The run's own `--fixture`, `--tag`, `--until` and `--shard`, for the commands it suggests.
    var scopeArguments = ""

    public init(
        out: Terminal, err: Terminal, layout: ProjectLayout, replaying: Bool, ci: Bool,
        unreachableHint: String? = nil, resumeLine: String? = nil, scopeArguments: String = ""
    ) {
        (self.out, self.err, self.layout, self.replaying, self.ci) = (out, err, layout, replaying, ci)
        (self.unreachableHint, self.resumeLine, self.scopeArguments) = (unreachableHint, resumeLine, scopeArguments)
    }

    /// Warnings, one line each on standard error.
    public func printWarnings(_ warnings: [String]) {
        for warning in warnings { err.writeLine(err.styled("warning", .yellow) + ": \(warning)") }
    }

    public func print(_ outcome: Evaluation.Outcome, interrupted: Bool) {
        out.writeLine(outcome.report.totals.table(recorded: replaying))
        if let safety = outcome.report.safetyLine {
            let open = outcome.report.approvedSafetyFailures?.contains { $0.allowedBecause == nil } ?? false
            out.writeLine(out.styled("safety", open ? .red : .yellow) + ": " + safety)
        }
        if let repeats = outcome.report.repeats { printStability(repeats) }
        GoldenReportPrinter(terminal: out, ci: ci, variantArguments: outcome.report.run.variantArguments, scopeArguments: scopeArguments)
            .print(outcome.golden, statusLine: outcome.report.statusLine, skipped: outcome.report.fixtures.flatMap { fixture in
                fixture.steps.filter { $0.status == .skipped }.map { GoldenReportPrinter.SkippedStep(key: StepKey(fixture: fixture.name, step: $0.id), note: $0.note ?? "") }
            })
        for gap in outcome.report.languageGaps ?? [] {
            out.writeLine(out.styled("attention", .yellow) + " \(gap.fixture): \(gap.consequence).")
        }
        for check in outcome.report.failingSuiteChecks {
            out.writeLine(out.styled("sameness", .yellow) + " \(check.name): \(check.message)")
        }
        printWarnings(outcome.warnings)
        out.writeLine("Wall time \(String(format: "%.1f", outcome.report.run.durationSeconds)) s\(Self.readBack(outcome.cachedSteps)). Report: \(layout.displayPath(of: outcome.reportFolder))/index.html")
        if let unreachable = outcome.unreachable {
            err.writeLine(err.styled("error", .red) + ": \(unreachable.message)")
            var next = "The run stopped after the first call's retries; the steps not run are marked so in the report."
            if let unreachableHint { next += " " + unreachableHint }
            err.writeLine(next)
        } else if let budgetStop = outcome.budgetStop, !interrupted {
            let undone = budgetStop.undoneModelSteps
            err.writeLine(err.styled("stopped", .yellow) + ": \(budgetStop.note.replacingOccurrences(of: "not run: ", with: "")).")
            err.writeLine("The calls under way finished; \(undone) model step\(undone == 1 ? " was" : "s were") left undone, marked skipped in the report.")
            if let resumeLine { err.writeLine("Resume with: \(resumeLine)") }
        } else if interrupted {
            err.writeLine("Interrupted: steps that had not finished are marked not run.")
        }
        let unreadable = outcome.unreadableRecordings
        if !unreadable.isEmpty {
            err.writeLine(err.styled("error", .red) + ": \(unreadable.count) recording\(unreadable.count == 1 ? "" : "s") cannot be read: "
                + unreadable.joined(separator: ", ") + " (exit 2: bad input)")
        }
    }

    /// How much of a replay came from the step cache, so a fast pass is never mistaken for a full one.
    static func readBack(_ cached: (readBack: Int, workedOut: Int)?) -> String {
        guard let cached, cached.readBack > 0 else { return "" }
        let replayed = cached.readBack + cached.workedOut
        return "; \(cached.readBack) of \(replayed) replayed step\(replayed == 1 ? "" : "s") read back from .step-cache/ (--no-cache works them out)"
    }

    /// Pass rates with their spread, flaky checks and shortfalls, for `--repeat`.
    private func printStability(_ repeats: RepeatStatistics) {
        out.writeLine("")
        out.writeLine("Stability over \(repeats.repeats) repeats:")
        out.writeLine(TextTable(header: repeats.tableHeader, rows: repeats.tableRows).rendered)
        let unstable = repeats.unstableCheckRows
        if !unstable.isEmpty {
            let shown = 10
            out.writeLine("Checks that did not pass every run, least stable first:")
            out.writeLine(TextTable(header: repeats.checkTableHeader, rows: Array(unstable.prefix(shown))).rendered)
            if unstable.count > shown { out.writeLine("…and \(unstable.count - shown) more in the report.") }
        }
        for line in repeats.flakyLines { out.writeLine(out.styled("flaky", .yellow) + " \(line)") }
        for line in repeats.shortfalls { out.writeLine(out.styled("below the required pass rate", .red) + ": \(line)") }
    }
}
