import Golden

/// Where key presses come from: the terminal (`KeyReader`) or, in a test, a script.
public protocol KeySource {
    /// The next key; nil at the end of input.
    func next() -> Character?
}

extension KeyReader: KeySource {}

/// `review`'s conversation: each pending output shown with its diff, one key each
/// to accept, reject, skip or quit, and a confirmation before a regression is
/// accepted as a known failure.
public struct ReviewSession {
    let review: GoldenReview
    let keys: any KeySource
    let out: Terminal

    public static let keyHelp = "a accept · r reject · s skip · q quit · ? help"

    public init(review: GoldenReview, keys: any KeySource, out: Terminal) {
        (self.review, self.keys, self.out) = (review, keys, out)
    }

    /// Walks `items` in order; what was applied is applied even when a later one throws.
    public func walk(_ items: [GoldenReview.Item]) throws {
        var tally = GoldenReview.Tally()
        for (index, item) in items.enumerated() {
            out.writeLine()
            out.writeLine(out.styled("[\(index + 1)/\(items.count)] \(item.key)", .bold) + ": \(item.diff.summary)")
            out.writeLine(item.approved == nil ? item.pending.output.serialized(.prettySorted) : item.diff.rendered(color: out.usesColor, indent: "  "))
            let outcome = try answer(item)
            if outcome == .quit {
                out.writeLine("\(tally.accepted) accepted, \(tally.rejected) rejected, \(tally.skipped + items.count - index) left pending.")
                return
            }
            tally.record(outcome)
        }
        out.writeLine(items.isEmpty ? "Nothing pending." : "\(tally.accepted) accepted, \(tally.rejected) rejected, \(tally.skipped) skipped.")
    }

    /// Asks for keys until one decides `item`, and applies it: accepted, rejected, skipped or quit.
    private func answer(_ item: GoldenReview.Item) throws -> GoldenReview.Outcome {
        while true {
            out.write("accept (a), reject (r), skip (s), quit (q), help (?)? ")
            // The end of input reads as Ctrl-D, which quits: no one is left to answer for the rest.
            let key = keys.next() ?? "\u{4}"
            guard let decision = Self.decision(for: key) else {
                printNonAnswer(key)
                continue
            }
            out.writeLine(decision == .quit ? "" : String(key))
            var outcome = try review.apply(decision, to: item)
            if outcome == .needsConfirmation {
                let checks = item.diff.newlyFailing.joined(separator: ", ")
                out.write(out.styled("This is a regression:", .red) + " \(checks) passed in golden and fail now; accepting records them as known failures. Accept anyway? (y/N) ")
                let confirmed = keys.next() == "y"
                out.writeLine(confirmed ? "y" : "n")
                if confirmed { outcome = try review.apply(decision, to: item, confirmed: true) }
            }
            if outcome != .needsConfirmation { return outcome }
        }
    }

    /// The decision a key stands for; nil for a key that is no answer. Ctrl-C and Ctrl-D quit.
    public static func decision(for key: Character) -> GoldenReview.Decision? {
        switch key {
        case "a": .accept
        case "r": .reject
        case "s": .skip
        case "q", "\u{3}", "\u{4}": .quit
        default: nil
        }
    }

    /// Echoes a key that is no answer: Enter and space move to a new line, `?` brings up the keys.
    private func printNonAnswer(_ key: Character) {
        switch key {
        case "\n", "\r", " ":
            out.writeLine()
        case "?", "h":
            out.writeLine("?")
            out.writeLine("  " + Self.keyHelp)
        default:
            out.writeLine(String(key))
            out.writeLine("  `\(key)` is not an answer: " + Self.keyHelp)
        }
    }
}
