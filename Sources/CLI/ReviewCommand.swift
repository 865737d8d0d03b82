import ArgumentParser
import Console
import Foundation
import Golden
import Intake

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
                "error: review needs an interactive terminal. Use `\(Invocation.command) diff` to read the changes, then `\(Invocation.command) accept` or `\(Invocation.command) reject` with --fixture and --step.")
            throw ExitCode.badInput
        }
        let review = try selection.review(in: projectOptions)
        let items = try Failure.exitingOnError { try review.pending(where: selection.includes) }
        let keys = KeyReader()
        defer { keys.restore() }
        var tally = GoldenReview.Tally()
        for (index, item) in items.enumerated() {
            out.writeLine()
            out.writeLine(out.styled("[\(index + 1)/\(items.count)] \(item.key)", .bold) + ": \(item.diff.summary)")
            out.writeLine(item.approved == nil ? item.pending.output.serialized(.prettySorted) : item.diff.rendered(color: out.usesColor, indent: "  "))
            let outcome = try answer(item, review: review, keys: keys, out: out)
            if outcome == .quit {
                out.writeLine("\(tally.accepted) accepted, \(tally.rejected) rejected, \(tally.skipped + items.count - index) left pending.")
                return
            }
            tally.record(outcome)
        }
        out.writeLine(items.isEmpty ? "Nothing pending." : "\(tally.accepted) accepted, \(tally.rejected) rejected, \(tally.skipped) skipped.")
    }

    /// Asks for keys until one decides `item`, and applies it: accepted, rejected, skipped or quit.
    private func answer(_ item: GoldenReview.Item, review: GoldenReview, keys: KeyReader, out: Terminal) throws -> GoldenReview.Outcome {
        while true {
            out.write("accept (a), reject (r), skip (s), quit (q), help (?)? ")
            // The end of input reads as Ctrl-D, which quits: no one is left to answer for the rest.
            let key = keys.next() ?? "\u{4}"
            guard let decision = Self.decision(for: key) else {
                Self.printNonAnswer(key, on: out)
                continue
            }
            out.writeLine(decision == .quit ? "" : String(key))
            var outcome = try Failure.exitingOnError { try review.apply(decision, to: item) }
            if outcome == .needsConfirmation {
                let checks = item.diff.newlyFailing.joined(separator: ", ")
                out.write(out.styled("This is a regression:", .red) + " \(checks) passed in golden and fail now; accepting records them as known failures. Accept anyway? (y/N) ")
                let confirmed = keys.next() == "y"
                out.writeLine(confirmed ? "y" : "n")
                if confirmed { outcome = try Failure.exitingOnError { try review.apply(decision, to: item, confirmed: true) } }
            }
            if outcome != .needsConfirmation { return outcome }
        }
    }

    /// The decision a key stands for; nil for a key that is no answer. Ctrl-C and Ctrl-D quit.
    static func decision(for key: Character) -> GoldenReview.Decision? {
        switch key {
        case "a": .accept
        case "r": .reject
        case "s": .skip
        case "q", "\u{3}", "\u{4}": .quit
        default: nil
        }
    }

    /// Echoes a key that is no answer: Enter and space move to a new line, `?` brings up the keys.
    private static func printNonAnswer(_ key: Character, on out: Terminal) {
        switch key {
        case "\n", "\r", " ":
            out.writeLine()
        case "?", "h":
            out.writeLine("?")
            out.writeLine("  " + keys)
        default:
            out.writeLine(String(key))
            out.writeLine("  `\(key)` is not an answer: " + keys)
        }
    }
}
