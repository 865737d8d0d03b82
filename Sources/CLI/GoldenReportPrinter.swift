import Golden

/// Prints how a run compares with golden: a line per step that does not simply
/// match, with its reasons, and the diffs when asked.
struct GoldenReportPrinter {
    let terminal: Terminal
    /// The CI gate shows every diff and writes no pending files.
    let ci: Bool

    func print(_ report: GoldenReport) {
        for verdict in report.verdicts where ![.matches, .skipped, .knownFailure].contains(verdict.status) {
            terminal.writeLine(label(verdict.status) + " \(verdict.key)")
            for reason in verdict.reasons { terminal.writeLine("    " + terminal.styledDiff(reason)) }
            if ci || verdict.status == .regression {
                for diff in [verdict.outputDiff, verdict.markdownDiff].compactMap({ $0 }) {
                    let indented = diff.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(separator: "\n")
                    terminal.writeLine(terminal.styledDiff(indented, indent: "      "))
                }
            }
        }
        printKnownFailures(report.verdicts.filter { $0.status == .knownFailure })
        for orphan in report.orphans {
            terminal.writeLine(terminal.styled("orphan", .yellow) + " \(orphan.key): golden files of a step no fixture produces")
            for path in orphan.paths { terminal.writeLine("    \(path)") }
        }
        if !report.orphans.isEmpty {
            terminal.writeLine("`trainer-eval accept --prune` deletes the orphaned files listed above.")
        }
        terminal.writeLine(report.summaryLine)
        let pending = report.verdicts.filter(\.needsApproval).count
        if pending > 0, !ci {
            terminal.writeLine("\(pending) pending output\(pending == 1 ? "" : "s") to review: `trainer-eval pending`, then `trainer-eval accept` or `trainer-eval reject`.")
        }
    }

    /// Known failures were approved and come back on every run: one line that counts
    /// them by check, instead of a line per step (the report lists each).
    private func printKnownFailures(_ verdicts: [StepVerdict]) {
        guard !verdicts.isEmpty else { return }
        var counts: [String: Int] = [:]
        for verdict in verdicts {
            for check in verdict.knownFailures { counts[check, default: 0] += 1 }
        }
        let byCheck = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        let steps = verdicts.count == 1 ? "1 step fails" : "\(verdicts.count) steps fail"
        terminal.writeLine(label(.knownFailure) + " \(steps) only checks that failed in golden too: \(byCheck)")
    }

    private func label(_ status: StepVerdict.Status) -> String {
        switch status {
        case .matches, .skipped: return terminal.styled(status.rawValue, .dim)
        case .knownFailure, .changed, .new: return terminal.styled(status.rawValue, .yellow)
        case .regression, .stale, .error: return terminal.styled(status.rawValue, .red)
        }
    }
}
