import Golden
import Intake
import JSONSchema
import Storage

/// Where key presses come from: the terminal (`KeyReader`) or, in a test, a script.
public protocol KeySource {
    /// The next key; nil at the end of input.
    func next() -> Character?
}

extension KeyReader: KeySource {}

/// `review`'s conversation: each pending output shown with its diff, one key each
/// to accept, reject, skip or quit, and a confirmation before a regression is
/// accepted as a known failure. With `labelling`, a reviewer also signs (`+`) or
/// rejects (`-`, then the reasons by number) the pending output, as `label --pending` does.
public struct ReviewSession {
    let review: GoldenReview
    let keys: any KeySource
    let out: Terminal
    let labelling: Labelling?
    /// What the backend did to a pending output, when the run that produced it recorded it.
    let interventions: (StepKey, JSONValue) -> [String]

    /// Who labels, and where the labels go.
    public struct Labelling {
        public var labels: ReviewLabels
        public var reviewer: String
        /// `YYYY-MM-DD`.
        public var date: String

        public init(labels: ReviewLabels, reviewer: String, date: String) {
            (self.labels, self.reviewer, self.date) = (labels, reviewer, date)
        }
    }

    public static let keyHelp = "a accept · r reject · s skip · q quit · ? help"
    public static let labelKeyHelp = "+ sign it as a reviewer · - reject it as a reviewer, with reasons"

    /// `interventions` says what the backend did to a pending output, when the run that produced it recorded it.
    public init(
        review: GoldenReview, keys: any KeySource, out: Terminal, labelling: Labelling? = nil,
        interventions: @escaping (StepKey, JSONValue) -> [String] = { _, _ in [] }
    ) {
        (self.review, self.keys, self.out, self.labelling, self.interventions) = (review, keys, out, labelling, interventions)
    }

    /// Walks `items` in order; what was applied is applied even when a later one throws.
    public func walk(_ items: [GoldenReview.Item]) throws {
        var tally = GoldenReview.Tally()
        for (index, item) in items.enumerated() {
            out.writeLine()
            out.writeLine(out.styled("[\(index + 1)/\(items.count)] \(item.key)", .bold) + ": \(item.diff.summary)")
            printFindings(item)
            let outcome = try answer(item)
            if outcome == .quit {
                out.writeLine("\(tally.accepted) accepted, \(tally.rejected) rejected, \(tally.skipped + items.count - index) left pending.")
                return
            }
            tally.record(outcome)
        }
        out.writeLine(items.isEmpty ? "Nothing pending." : "\(tally.accepted) accepted, \(tally.rejected) rejected, \(tally.skipped) skipped.")
    }

    /// What a reviewer needs on one screen: the output (a new program's markdown as the
    /// person reads it, apart from its JSON) or its changes against golden, then each
    /// failing check with its finding, marked when it passed in golden.
    private func printFindings(_ item: GoldenReview.Item) {
        let body = item.diff.rendered(color: out.usesColor, indent: "  ", includingChecks: false)
        if !body.isEmpty { out.writeLine(body) }
        let failing = item.pending.checks.filter { !$0.value }.map(\.key).sorted()
        guard !failing.isEmpty else {
            out.writeLine("  every check passes")
            printInterventions(item)
            return
        }
        out.writeLine("  failing checks:")
        for name in failing {
            let before = switch item.approved?.checks[name] {
            case true?: out.styled(" (passed in golden)", .red)
            case false?: " (failed in golden too)"
            case nil: ""
            }
            let finding = item.pending.failureMessages[name].map { ": \($0)" } ?? ""
            out.writeLine("  ✗ \(name)\(before)\(finding)")
        }
        printInterventions(item)
    }

    /// What the backend did to the output before it was shown: a repair that named a
    /// fault, its own words in place of the model's, a referral added.
    private func printInterventions(_ item: GoldenReview.Item) {
        let lines = interventions(item.key, item.pending.output)
        guard !lines.isEmpty else { return }
        out.writeLine("  interventions:")
        for line in lines { out.writeLine("  ↺ \(line)") }
    }

    /// Asks for keys until one decides `item`, and applies it: accepted, rejected, skipped or quit.
    private func answer(_ item: GoldenReview.Item) throws -> GoldenReview.Outcome {
        while true {
            out.write("accept (a), reject (r), skip (s), \(labelling == nil ? "" : "sign (+), reject as a reviewer (-), ")quit (q), help (?)? ")
            // The end of input reads as Ctrl-D, which quits: no one is left to answer for the rest.
            let key = keys.next() ?? "\u{4}"
            if let labelling, key == "+" || key == "-" {
                out.writeLine(String(key))
                label(item, verdict: key == "+" ? .sign : .reject, labelling: labelling)
                continue
            }
            guard let decision = Self.decision(for: key) else {
                printNonAnswer(key)
                continue
            }
            out.writeLine(decision == .quit ? "" : String(key))
            var outcome = try review.apply(decision, to: item)
            if outcome == .refusedUnsafe {
                let checks = review.safety.failures(of: item.pending).joined(separator: ", ")
                out.writeLine(out.styled("Not approved:", .red) + " it fails safety checks (\(checks)). Reject or skip it; "
                    + "`\(Invocation.command) accept --allow-unsafe \"REASON\" --fixture \(item.key.fixture) --step \(item.key.step)` approves it for a reason a reviewer stands by.")
                continue
            }
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

    /// Labels the pending output: for a reject, first asks for the reasons by number
    /// (`2 7`, then Enter). A label that cannot be given says why; the review goes on.
    private func label(_ item: GoldenReview.Item, verdict: ReviewLabel.Verdict, labelling: Labelling) {
        var reasons: [String] = []
        if verdict == .reject {
            let vocabulary = labelling.labels.reasons.reasons
            for (index, reason) in vocabulary.enumerated() {
                out.writeLine("  " + String(format: "%2d", index + 1) + " \(reason.id): \(reason.definition)")
            }
            out.write("Reasons, by number (Enter when done): ")
            var typed = ""
            while let key = keys.next(), key != "\n", key != "\r" {
                typed.append(key)
                out.write(String(key))
            }
            out.writeLine()
            let numbers = typed.split { !$0.isNumber }.compactMap { Int($0) }
            reasons = numbers.filter { vocabulary.indices.contains($0 - 1) }.map { vocabulary[$0 - 1].id }
            let unknown = numbers.filter { !vocabulary.indices.contains($0 - 1) }
            if !unknown.isEmpty { out.writeLine("  no reason numbered \(unknown.map(String.init).joined(separator: ", ")): left out") }
        }
        let request = ReviewLabels.Request(
            fixture: item.key.fixture, step: item.key.step, verdict: verdict, reasons: reasons, note: nil,
            reviewer: labelling.reviewer, date: labelling.date, pending: true)
        do {
            let written = try labelling.labels.label(request)
            out.writeLine("  " + (verdict == .sign ? out.styled("signed", .green) : out.styled("rejected", .red))
                + " as \(written.label.reviewer)" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")
                + "; now accept, reject or skip the output itself.")
        } catch {
            out.writeLine("  " + out.styled("not labelled:", .yellow) + " \(error)")
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
            out.writeLine("  " + Self.keyHelp + (labelling == nil ? "" : " · " + Self.labelKeyHelp))
        default:
            out.writeLine(String(key))
            out.writeLine("  `\(key)` is not an answer: " + Self.keyHelp)
        }
    }
}
