import Golden
import Intake

/// Prints what `accept` does as it goes: each accepted step, how many, each pruned file.
public struct AcceptancePrinter {
    let terminal: Terminal
    /// No `--fixture` or `--step` narrowed what is accepted.
    let selectsEverything: Bool

    public init(terminal: Terminal, selectsEverything: Bool) {
        (self.terminal, self.selectsEverything) = (terminal, selectsEverything)
    }

    public func print(_ event: GoldenReview.AcceptEvent) {
        switch event {
        case .accepted(let key):
            terminal.writeLine(terminal.styled("accepted", .green) + " \(key)")
        case .acceptedAll(let keys):
            terminal.writeLine(keys.isEmpty ? "Nothing pending\(selectsEverything ? "" : " for that selection")." : "\(keys.count) accepted.")
        case .pruned(let pruned):
            for path in pruned.orphan.paths { terminal.writeLine(terminal.styled("pruned", .yellow) + " \(path)") }
            if pruned.removedFolder {
                terminal.writeLine(terminal.styled("pruned", .yellow) + " golden/\(pruned.orphan.key.fixture)/ (left empty)")
            }
        }
    }

    /// What `accept --checks` approved, per check, and the pending outputs it left.
    public func print(_ acceptance: GoldenReview.CheckAcceptance) {
        for key in acceptance.accepted { terminal.writeLine(terminal.styled("accepted checks", .green) + " \(key)") }
        for skipped in acceptance.skipped { terminal.writeLine(terminal.styled("skipped", .yellow) + " \(skipped.key): \(skipped.reason)") }
        guard !acceptance.accepted.isEmpty else {
            terminal.writeLine(acceptance.skipped.isEmpty
                ? "Nothing pending\(selectsEverything ? "" : " for that selection")."
                : "No check results accepted: every pending output differs from golden or has none yet.")
            return
        }
        let outputs = acceptance.accepted.count == 1 ? "1 output" : "\(acceptance.accepted.count) outputs"
        terminal.writeLine("Check results accepted for \(outputs); the outputs are unchanged.")
        for (change, count) in acceptance.changes.sorted(by: { $0.key < $1.key }) {
            terminal.writeLine("    \(change.name): \(change.description) ×\(count)")
        }
        if !acceptance.skipped.isEmpty {
            terminal.writeLine("\(acceptance.skipped.count) left pending: `\(Invocation.command) diff`, then `\(Invocation.command) accept` or `\(Invocation.command) reject`.")
        }
    }

    /// How many files pruning deleted; nothing when no pruning was asked for.
    public func printSummary(of acceptance: GoldenReview.Acceptance) {
        guard let pruned = acceptance.pruned else { return }
        let files = pruned.reduce(0) { $0 + $1.orphan.files.count }
        terminal.writeLine(
            files == 0 ? "No orphaned golden files." : "\(files) file\(files == 1 ? "" : "s") of \(pruned.count) orphaned step\(pruned.count == 1 ? "" : "s") pruned.")
    }
}
