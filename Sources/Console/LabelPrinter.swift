import Golden
import Storage

/// Prints what `label` kept.
public struct LabelPrinter {
    let terminal: Terminal

    public init(terminal: Terminal) {
        self.terminal = terminal
    }

    public func print(_ written: ReviewLabels.Written) {
        let label = written.label
        let verdict = label.verdict == .sign ? terminal.styled("signed", .green) : terminal.styled("rejected", .red)
        let reasons = label.reasons.isEmpty ? "" : " (\(label.reasons.joined(separator: ", ")))"
        let which = written.labelledPending ? "pending output" : "approved output"
        terminal.writeLine("\(verdict) \(written.key)\(reasons): the \(which) \(label.outputDigest.prefix(12)), by \(label.reviewer) on \(label.date).")
        if let replaced = written.replaced {
            let was = replaced.verdict == .sign ? "signed" : "rejected"
            let sameOutput = replaced.outputDigest == label.outputDigest ? "" : " (a label of an earlier output)"
            terminal.writeLine("  It replaces \(replaced.reviewer)'s label of \(replaced.date): \(was)\(sameOutput).")
        }
    }
}
