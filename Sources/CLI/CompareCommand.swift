import ArgumentParser
import Foundation
import Golden
import History
import Reports

/// `trainer-eval compare`: what improved, regressed or changed between two runs,
/// or between a run and golden.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two recorded runs, or a run with golden, case by case.",
        discussion: """
            `compare A B` shows how run B differs from run A; `compare B` how run B differs from the \
            run before it (`compare` alone: the latest run); `compare B --baseline golden` how the \
            steps run B produced differ from their approved golden outputs. Runs are named by id, a \
            unique prefix, `latest` or `latest~N` (see `history`).

            A case regressed when a check fails that passed before or the step lost its output; it \
            improved when a check passes that failed before or it gained an output; it changed when \
            the output differs with the same checks passing. A check that fails on both sides, or a \
            reply unusable on both sides (an approved known failure), is unchanged, as the gate judges it. \
            Exits 1 when any case regressed.

            The paired verdict answers "is B better than A": the cases both runs produced are \
            paired, a case passes when it has an output and every check passes, and the pairs \
            where exactly one side passes decide by an exact two-sided McNemar test: `better` or \
            `worse` at the 5% level, else `no-difference`. Each check whose pass count moved gets \
            its own p-value; token and latency changes get paired bootstrap 95% intervals. \
            When both runs ran with --repeat, each case's share of passing repeats (paired \
            by fixture, step and repeat) is compared by a Wilcoxon signed-rank test. \
            `--format json` prints all of it as one object.
            """
    )

    enum Baseline: String, ExpressibleByArgument, CaseIterable {
        case golden
    }

    @OptionGroup var projectOptions: ProjectOptions

    @Argument(help: ArgumentHelp("The runs: BASE HEAD, or HEAD alone (against the run before it, or with --baseline).", valueName: "run"))
    var runs: [String] = []

    @Option(help: ArgumentHelp("Compare the run with the approved golden outputs instead of another run.", valueName: "golden"))
    var baseline: Baseline?

    @Flag(help: "Also write report.md and index.html (the verdict, then both runs' outputs side by side) under Reports/compare-<base>-<head>/.")
    var report = false

    @Flag(help: "List unchanged cases too (in the terminal and the written report).")
    var all = false

    @Option(help: ArgumentHelp("text, or json: one object with the paired verdict, per check and overall.", valueName: "format"))
    var format: Format = .text

    enum Format: String, ExpressibleByArgument {
        case text, json
    }

    func validate() throws {
        if baseline != nil, runs.count > 1 { throw ValidationError("With --baseline, name one run (the one to compare with golden).") }
        if runs.count > 2 { throw ValidationError("Name at most two runs: BASE HEAD.") }
    }

    func run() throws {
        let layout = try projectOptions.layout()
        let history = try Failure.exitingOnError { try RunHistory(file: layout.history) }
        let golden = GoldenStore(folder: layout.golden)
        // Only the written page needs both runs' outputs, read from their report folders.
        let (comparison, outputs) = try Failure.exitingOnError { () throws -> (RunComparison, ComparedOutputs?) in
            guard report else {
                return (try RunComparison.load(runs: runs, againstGolden: baseline == .golden, history: history, golden: golden), nil)
            }
            let loaded = try RunComparison.loadWithOutputs(
                runs: runs, againstGolden: baseline == .golden, history: history, golden: golden, layout: layout)
            return (loaded.comparison, loaded.outputs)
        }
        let out = Terminal.standardOutput
        if format == .json {
            out.writeLine(ComparisonReport.json(comparison).serialized(.canonical))
            if comparison.count(.regressed) > 0 { throw ExitCode(1) }
            return
        }
        out.writeLine("\(comparison.headName) against \(comparison.baseName): \(ComparisonReport.summaryLine(comparison))")
        out.writeLine(ComparisonReport.verdictLine(comparison))
        if let repeats = ComparisonReport.repeatsLine(comparison) { out.writeLine(repeats) }
        for line in ComparisonReport.checkLines(comparison) { out.writeLine(line) }
        for line in ComparisonReport.lines(comparison) {
            let color: Terminal.Style? = line.hasPrefix("regressed") ? .red : line.hasPrefix("improved") ? .green : nil
            out.writeLine(color.map { out.styled(line, $0) } ?? line)
        }
        if all {
            for item in comparison.cases where item.change == .unchanged { out.writeLine("unchanged \(item.key)") }
        }
        if let outputs {
            let folder = layout.reports.appendingPathComponent("compare-\(comparison.baseName)-\(comparison.headName)", isDirectory: true)
            try Failure.exitingOnError { try ComparisonReport.write(comparison, outputs: outputs, to: folder, includingUnchanged: all) }
            out.writeLine("Report: \(layout.displayPath(of: folder))/index.html")
            for note in outputs.notes { out.writeLine("note: \(note)") }
        }
        if comparison.count(.regressed) > 0 { throw ExitCode(1) }
    }
}
