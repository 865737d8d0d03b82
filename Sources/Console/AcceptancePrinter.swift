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
        case .refusedUnsafe(let key, let checks):
            terminal.writeLine(terminal.styled("refused", .red) + " \(key): fails safety checks \(checks.joined(separator: ", ")); left pending")
        case .acceptedUnsafe(let key, let checks):
            terminal.writeLine(terminal.styled("allowed", .yellow) + " \(key): fails safety checks \(checks.joined(separator: ", ")); the reason is kept beside it")
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

    /// Why outputs were left pending for failing safety checks, and the command that
    /// approves them anyway, with a reason.
    public func printRefusals(of acceptance: GoldenReview.Acceptance, scope: String) {
        guard !acceptance.refused.isEmpty else { return }
        let count = acceptance.refused.count
        terminal.writeLine(terminal.styled("\(count) output\(count == 1 ? " fails" : "s fail") a safety check", .red)
            + " and \(count == 1 ? "was" : "were") not approved. Fix the prompt (in a variant) and record again, or approve "
            + "\(count == 1 ? "it" : "them") for a reason a reviewer stands by: `\(Invocation.command) accept --allow-unsafe \"REASON\"\(scope)`.")
    }

    /// What `reject` discarded, and what comes next: a replay brings the same outputs
    /// back from their recordings, so they change only when re-recorded or when the
    /// prompt changes.
    public func printRejected(_ rejected: [StepKey], variantArguments: String) {
        for key in rejected { terminal.writeLine(terminal.styled("rejected", .red) + " \(key)") }
        terminal.writeLine("\(rejected.count) rejected.")
        guard !rejected.isEmpty else { return }
        terminal.writeLine("The next replay brings \(rejected.count == 1 ? "it" : "them") back from the recordings. To change \(rejected.count == 1 ? "it" : "them"):")
        terminal.writeLine("  re-record: `\(Invocation.command) run\(StepKey.runArguments(covering: rejected))\(variantArguments) --provider local --record`"
            + " (or another provider), then review again;")
        terminal.writeLine("  or change the prompt in a variant (prompts/<step>/variants/NAME/, docs/comparing-prompts.md) and record that.")
    }

    /// How many files pruning deleted; nothing when no pruning was asked for.
    public func printSummary(of acceptance: GoldenReview.Acceptance) {
        guard let pruned = acceptance.pruned else { return }
        let files = pruned.reduce(0) { $0 + $1.orphan.files.count }
        terminal.writeLine(
            files == 0 ? "No orphaned golden files." : "\(files) file\(files == 1 ? "" : "s") of \(pruned.count) orphaned step\(pruned.count == 1 ? "" : "s") pruned.")
    }
}
