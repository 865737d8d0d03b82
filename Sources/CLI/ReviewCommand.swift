import ArgumentParser
import Foundation
import Golden
import Pipeline

/// `trainer-eval review`: walk the pending outputs one by one.
struct ReviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Review pending outputs one at a time: accept, reject or skip each.",
        discussion: "Needs an interactive terminal; elsewhere use `trainer-eval diff`, `accept` and `reject`."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    func run() async throws {
        let out = Terminal.standardOutput
        guard isatty(0) == 1, ProcessInfo.processInfo.environment["CI"] == nil else {
            Terminal.standardError.writeLine(
                "error: review needs an interactive terminal. Use `trainer-eval diff` to read the changes, then `trainer-eval accept` or `trainer-eval reject` with --fixture and --step.")
            throw ExitCode(2)
        }
        let layout = try projectOptions.layout()
        let store = GoldenStore(folder: layout.golden)
        let prompts = try Failure.exitingOnError { try PromptLibrary(layout: layout) }
        let keys = store.entries(pending: true).filter(selection.includes)
        var tally = (accepted: 0, rejected: 0, skipped: 0)
        func stoppedSummary(at index: Int) -> String {
            "\(tally.accepted) accepted, \(tally.rejected) rejected, \(tally.skipped + keys.count - index) left pending."
        }
        for (index, key) in keys.enumerated() {
            let pending = try Failure.exitingOnError { try store.pending(fixture: key.fixture, step: key.step) }
            let approved = try Failure.exitingOnError { try store.approved(fixture: key.fixture, step: key.step) }
            guard let pending else { continue }
            let diff = GoldenDiff(approved: approved, pending: pending, options: prompts.diffOptions(forStepID: key.step))
            out.writeLine()
            out.writeLine(out.styled("[\(index + 1)/\(keys.count)] \(key)", .bold) + ": \(diff.summary)")
            out.writeLine(approved == nil ? pending.output.serialized(.prettySorted) : diff.rendered(color: out.usesColor, indent: "  "))
            answer: while true {
                out.write("accept (a), reject (r), skip (s), quit (q)? ")
                guard let line = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else {
                    // The end of input (Ctrl-D) quits: no one is left to answer for the rest.
                    out.writeLine()
                    out.writeLine(stoppedSummary(at: index))
                    return
                }
                switch line {
                case "a", "accept":
                    try Failure.exitingOnError { try store.accept(fixture: key.fixture, step: key.step) }
                    tally.accepted += 1
                    break answer
                case "r", "reject":
                    store.reject(fixture: key.fixture, step: key.step)
                    tally.rejected += 1
                    break answer
                case "s", "skip", "":
                    tally.skipped += 1
                    break answer
                case "q", "quit":
                    out.writeLine(stoppedSummary(at: index))
                    return
                default:
                    continue
                }
            }
        }
        out.writeLine(keys.isEmpty ? "Nothing pending." : "\(tally.accepted) accepted, \(tally.rejected) rejected, \(tally.skipped) skipped.")
    }
}
