import Golden

/// Prints what `accept` does as it goes: each accepted step, how many, each pruned file.
struct AcceptancePrinter {
    let terminal: Terminal
    let selection: GoldenSelection

    func print(_ event: GoldenReview.AcceptEvent) {
        switch event {
        case .accepted(let key):
            terminal.writeLine(terminal.styled("accepted", .green) + " \(key)")
        case .acceptedAll(let keys):
            terminal.writeLine(keys.isEmpty ? "Nothing pending\(selection.isEverything ? "" : " for that selection")." : "\(keys.count) accepted.")
        case .pruned(let pruned):
            for path in pruned.orphan.paths { terminal.writeLine(terminal.styled("pruned", .yellow) + " \(path)") }
            if pruned.removedFolder {
                terminal.writeLine(terminal.styled("pruned", .yellow) + " golden/\(pruned.orphan.key.fixture)/ (left empty)")
            }
        }
    }

    /// How many files pruning deleted; nothing when no pruning was asked for.
    func printSummary(of acceptance: GoldenReview.Acceptance) {
        guard let pruned = acceptance.pruned else { return }
        let files = pruned.reduce(0) { $0 + $1.orphan.files.count }
        terminal.writeLine(
            files == 0 ? "No orphaned golden files." : "\(files) file\(files == 1 ? "" : "s") of \(pruned.count) orphaned step\(pruned.count == 1 ? "" : "s") pruned.")
    }
}
