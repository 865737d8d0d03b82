import Evaluation
import Foundation
import Golden
import Intake

/// A run at the terminal, from its opening line to its exit: live progress on
/// standard error, Ctrl-C, and the run's end printed by `RunOutcomePrinter`.
public struct RunSession {
    let printer: RunOutcomePrinter
    let progress: ProgressPrinter
    let err: Terminal
    let ci: Bool

    public init(printer: RunOutcomePrinter, progress: ProgressPrinter, err: Terminal, ci: Bool) {
        (self.printer, self.progress, self.err, self.ci) = (printer, progress, err, ci)
    }

    /// `Running 28 fixtures (shard 1 of 3) on replay qwen (jobs 2, 3 repeats, recording to golden/).`
    public static func openingLine(fixtures: Int, shard: String?, provider: String, jobs: Int, repeats: Int, records: Bool) -> String {
        let part = shard.map { " (\($0))" } ?? ""
        let repeating = repeats > 1 ? ", \(repeats) repeats" : ""
        let recording = records ? ", recording to golden/" : ""
        return "Running \(fixtures) fixture\(fixtures == 1 ? "" : "s")\(part) on \(provider) (jobs \(jobs)\(repeating)\(recording))."
    }

    /// Runs `fixtures`, prints the end and exits with the gate's status (130 when interrupted).
    public func run(_ evaluation: Evaluation, fixtures: [Fixture], opening: String) async -> Never {
        err.writeLine(opening)
        let progress = progress
        let work = Task { try await evaluation.run(fixtures) { event in progress.handle(event) } }
        // The handlers stay installed until the process exits: a late second Ctrl-C
        // still quits through them, never half-way through the default action.
        let interruption = Interruption { work.cancel() }
        let outcome: Evaluation.Outcome
        do {
            outcome = try await work.value
        } catch {
            progress.finish()
            err.writeLine("error: \(error)")
            exit(Gate.ExitStatus.badInput.rawValue)
        }
        progress.finish()
        printer.print(outcome, interrupted: interruption.wasInterrupted)
        // Everything is written. Exiting here leaves the run's results to the operating
        // system: freeing a large run's results one object at a time takes longer than
        // printing them did.
        exit(outcome.exitStatus(ci: ci, interrupted: interruption.wasInterrupted))
    }
}
