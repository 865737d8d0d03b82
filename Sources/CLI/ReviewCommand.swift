import ArgumentParser
import Foundation
import Golden
import Pipeline

/// `trainer-eval review`: walk the pending outputs one by one, a key press each.
struct ReviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Review pending outputs one at a time: accept, reject or skip each with one key.",
        discussion: """
            Keys: a accept, r reject, s skip, q quit, ? help. Accepting an output whose checks passed \
            in golden and fail now asks first, since it records those failures as known. Needs an \
            interactive terminal; elsewhere use `trainer-eval diff`, `accept` and `reject`.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    static let keys = "a accept · r reject · s skip · q quit · ? help"

    func run() async throws {
        try selection.checkNames(in: projectOptions)
        let out = Terminal.standardOutput
        guard isatty(0) == 1, !Terminal.isContinuousIntegration else {
            Terminal.standardError.writeLine(
                "error: review needs an interactive terminal. Use `trainer-eval diff` to read the changes, then `trainer-eval accept` or `trainer-eval reject` with --fixture and --step.")
            throw ExitCode(2)
        }
        let review = try PendingListing.review(projectOptions: projectOptions)
        let items = try Failure.exitingOnError { try review.items(where: selection.includes) }
        let keys = KeyReader()
        defer { keys.restore() }
        var tally = (accepted: 0, rejected: 0, skipped: 0)
        func stoppedSummary(at index: Int) -> String {
            "\(tally.accepted) accepted, \(tally.rejected) rejected, \(tally.skipped + items.count - index) left pending."
        }
        for (index, item) in items.enumerated() {
            out.writeLine()
            out.writeLine(out.styled("[\(index + 1)/\(items.count)] \(item.key)", .bold) + ": \(item.diff.summary)")
            out.writeLine(item.approved == nil ? item.pending.output.serialized(.prettySorted) : item.diff.rendered(color: out.usesColor, indent: "  "))
            answer: while true {
                out.write("accept (a), reject (r), skip (s), quit (q), help (?)? ")
                // The end of input (or Ctrl-C, Ctrl-D) quits: no one is left to answer for the rest.
                guard let key = keys.next(), !["q", "\u{3}", "\u{4}"].contains(key) else {
                    out.writeLine()
                    out.writeLine(stoppedSummary(at: index))
                    return
                }
                switch key {
                case "a":
                    out.writeLine("a")
                    if item.acceptsRegression {
                        let checks = item.diff.newlyFailing.joined(separator: ", ")
                        out.write(out.styled("This is a regression:", .red) + " \(checks) passed in golden and fail now; accepting records them as known failures. Accept anyway? (y/N) ")
                        let confirmed = keys.next() == "y"
                        out.writeLine(confirmed ? "y" : "n")
                        guard confirmed else { continue }
                    }
                    try Failure.exitingOnError { try review.accept(item) }
                    tally.accepted += 1
                    break answer
                case "r":
                    out.writeLine("r")
                    review.reject(item)
                    tally.rejected += 1
                    break answer
                case "s":
                    out.writeLine("s")
                    tally.skipped += 1
                    break answer
                case "\n", "\r", " ":
                    out.writeLine()
                case "?", "h":
                    out.writeLine("?")
                    out.writeLine("  " + Self.keys)
                default:
                    out.writeLine(String(key))
                    out.writeLine("  `\(key)` is not an answer: " + Self.keys)
                }
            }
        }
        out.writeLine(items.isEmpty ? "Nothing pending." : "\(tally.accepted) accepted, \(tally.rejected) rejected, \(tally.skipped) skipped.")
    }
}
