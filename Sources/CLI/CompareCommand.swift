import ArgumentParser
import Console
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

            Each run is named by what it ran: `base`, or its variants' label \
            (`goal-options=three-short`), with its run id.

            Only the cases (fixture and step) both runs produced are compared: a step produced \
            when the model answered and the answer was judged, a valid or an invalid output. A step \
            that errored (a failed call, a missing or stale recording) or was skipped produced \
            nothing; a case only one run produced is listed apart ("only in base: N cases"), never \
            as a regression. A case regressed when a check fails that passed before or its output \
            became invalid; it improved when a check passes that failed before or its output became \
            valid; it changed when the output differs with the same checks passing. A check that \
            fails on both sides, or a reply unusable on both sides (an approved known failure), is \
            unchanged, as the gate judges it.

            The paired verdict answers "is B better than A": the cases both runs produced are \
            paired, a case passes when its output is valid and every check passes, and the pairs \
            where exactly one side passes decide by an exact two-sided McNemar test: `better` or \
            `worse` at the 5% level, else `no-difference`. With fewer than 6 such discordant pairs \
            no split of them can reach 5% (six all one way give p = 0.031), so the verdict is \
            `too-few-pairs`, with how many more cases would be needed at the observed rate of \
            discordant pairs. Each check whose pass count moved gets \
            its own p-value; token and latency changes get paired bootstrap 95% intervals. \
            When both runs ran with --repeat, each case's share of passing repeats (paired \
            by fixture, step and repeat) is compared by a Wilcoxon signed-rank test. \
            `--format json` prints all of it as one object.

            Exit status: 1 when the paired verdict is `worse`; 0 otherwise (`better`, \
            `no-difference`, `too-few-pairs`), whatever single cases regressed; 2 for a usage \
            error or a run that cannot be found.
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
        let project = try projectOptions.openProject()
        let layout = project.layout
        let history = try Failure.exitingOnError { try project.history() }
        let golden = project.golden
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
            try exitForVerdict(comparison)
            return
        }
        ComparisonPrinter(out: out).print(comparison, all: all)
        if let outputs {
            let folderName = "compare-\(comparison.baseRunID ?? comparison.baseName)-\(comparison.headRunID ?? comparison.headName)"
            let folder = layout.reports.appendingPathComponent(folderName, isDirectory: true)
            try Failure.exitingOnError { try ComparisonReport.write(comparison, outputs: outputs, to: folder, includingUnchanged: all) }
            out.writeLine("Report: \(layout.displayPath(of: folder))/index.html")
            for note in outputs.notes { out.writeLine("note: \(note)") }
        }
        try exitForVerdict(comparison)
    }

    /// One rule for scripts: the exit status follows the paired verdict, not single cases.
    private func exitForVerdict(_ comparison: RunComparison) throws {
        let status = Gate.exitStatus(passes: comparison.verdict.verdict != .worse)
        if status != .passed { throw ExitCode(status.rawValue) }
    }
}
