import ArgumentParser
import Console
import Evaluation
import Foundation

/// `trainer-eval merge RUN...`: shard runs joined into one run.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the reports of shard runs (run --shard K/N) into one run, and decide the gate over the whole.",
        discussion: """
            Each RUN is a report folder (as a CI job uploads it), a results.json file, or a run id \
            under Reports/. Writes one report folder with all four files and one history row, and \
            points Reports/latest at it. Exits 0 when the merged gate passes, 1 when it fails, 2 \
            when the runs are not shards of one run (different commits, prompts, variants or \
            providers, overlapping fixtures, a missing shard) unless --force.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Argument(help: ArgumentHelp("The shard runs: report folders, results.json files or run ids.", valueName: "run"))
    var runs: [String]

    @Flag(help: "Merge even runs that do not belong together; the report lists what differed.")
    var force = false

    func validate() throws {
        guard !runs.isEmpty else { throw ValidationError("merge needs the runs to join, e.g. `trainer-eval merge shard-1 shard-2 shard-3`.") }
    }

    func run() async throws {
        let layout = try projectOptions.layout()
        let merge = try Failure.exitingOnError { try ShardMerge(runs: runs, layout: layout) }
        let outcome: ShardMerge.Outcome
        do {
            outcome = try await merge.write(to: .onDisk(layout: layout), layout: layout, force: force)
        } catch {
            Terminal.standardError.writeLine("error: \(error)")
            throw ExitCode.badInput
        }
        let out = Terminal.standardOutput
        let report = outcome.report
        let steps = report.fixtures.reduce(0) { $0 + $1.steps.count }
        out.writeLine("Merged \(merge.parts.count) run\(merge.parts.count == 1 ? "" : "s"): \(report.fixtures.count) fixtures, \(steps) steps.")
        out.writeLine(report.statusLine)
        for warning in outcome.warnings { Terminal.standardError.writeLine("warning: \(warning)") }
        let gate = outcome.exitStatus == 0 ? "passes" : "fails"
        out.writeLine("The merged gate \(gate). Report: \(layout.displayPath(of: outcome.folder))/index.html")
        throw ExitCode(outcome.exitStatus)
    }
}
