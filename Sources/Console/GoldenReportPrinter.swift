import Golden
import Intake

/// Prints how a run compares with golden: a line per step that does not simply
/// match, with its reasons, and the diffs when asked.
public struct GoldenReportPrinter {
    let terminal: Terminal
    /// The CI gate shows every diff and writes no pending files.
    let ci: Bool
    /// ` --variant step=name` for each variant the run ran, so a suggested command reaches its files.
    var variantArguments = ""
    /// The run's `--fixture`, `--tag`, `--until` and `--shard`: a re-recording covers what the run covered.
    var scopeArguments = ""

    public init(terminal: Terminal, ci: Bool, variantArguments: String = "", scopeArguments: String = "") {
        (self.terminal, self.ci, self.variantArguments, self.scopeArguments) = (terminal, ci, variantArguments, scopeArguments)
    }

    /// A step the run did not run, with the note that says why.
    public struct SkippedStep: Sendable {
        public var key: StepKey
        public var note: String

        public init(key: StepKey, note: String) {
            (self.key, self.note) = (key, note)
        }
    }

    /// `statusLine` is the run report's verdict and counts, printed where the comparison
    /// ends; `skipped` is every step it counts as skipped (the confirm step included), so
    /// the line that says why gives the same number. Nil takes the model steps' verdicts.
    public func print(_ report: GoldenReport, statusLine: String, skipped: [SkippedStep]? = nil) {
        for verdict in report.verdicts where ![.matches, .skipped, .knownFailure, .unapprovedCheck, .stale].contains(verdict.status) {
            terminal.writeLine(label(verdict.status) + " \(verdict.key)")
            for reason in verdict.reasons { terminal.writeLine("    " + terminal.styledDiff(reason)) }
            if ci || verdict.status == .regression {
                for diff in [verdict.outputDiff, verdict.markdownDiff].compactMap({ $0 }) {
                    terminal.writeLine(terminal.styledDiff(Self.indented(diff, by: "      "), indent: "      "))
                }
            }
        }
        printKnownFailures(report.verdicts.filter { $0.status == .knownFailure })
        printUnapprovedChecks(report.verdicts.filter { $0.status == .unapprovedCheck })
        printStale(StaleRecordings(report))
        printSkipped(skipped ?? report.verdicts.filter { $0.status == .skipped }.map { SkippedStep(key: $0.key, note: $0.reasons.first ?? "") }, report: report)
        for orphan in report.orphans {
            terminal.writeLine(terminal.styled("orphan", .yellow) + " \(orphan.key): golden files of a step no fixture produces")
            for path in orphan.paths { terminal.writeLine("    \(path)") }
        }
        if !report.orphans.isEmpty {
            terminal.writeLine("`\(Invocation.command) accept --prune` deletes the orphaned files listed above.")
        }
        terminal.writeLine(statusLine)
        let pending = report.verdicts.filter(\.needsApproval).map(\.key)
        if !pending.isEmpty, !ci {
            let selection = StepKey.fixtureArguments(covering: pending) + variantArguments
            terminal.writeLine(
                "\(pending.count) pending output\(pending.count == 1 ? "" : "s") to review: `\(Invocation.command) pending\(selection)`, "
                + "then `\(Invocation.command) accept\(selection)` or `\(Invocation.command) reject\(selection)`.")
        }
    }

    /// Stale recordings grouped by what changed, each diff once, and what to do next.
    private func printStale(_ stale: StaleRecordings) {
        guard !stale.isEmpty else { return }
        for group in stale.groups {
            let count = group.steps.count
            if group.causes.count == 1, group.causes[0].hasPrefix("no recording") {
                terminal.writeLine(label(.stale) + " \(count) step\(count == 1 ? " has" : "s have") \(group.causes[0])")
            } else {
                let causes = group.causes.map { $0.hasPrefix("the ") ? $0 : "the \($0) changed" }.joined(separator: " and ")
                terminal.writeLine(label(.stale) + " \(count) recording\(count == 1 ? " is" : "s are") stale because \(causes)")
            }
            terminal.writeLine("    " + Self.listing(group.steps))
            for (index, shared) in group.diffs.prefix(2).enumerated() {
                let alike = group.diffs.count == 1 && shared.steps.count == group.steps.count
                    ? (shared.steps.count == 1 ? "the change" : "the same change in all \(shared.steps.count)")
                    : "in \(shared.steps[0])\(shared.steps.count > 1 ? " and \(shared.steps.count - 1) alike" : "")"
                terminal.writeLine("    " + (index == 0 ? "" : "and ") + alike + ":")
                terminal.writeLine(terminal.styledDiff(Self.indented(shared.diff, by: "      "), indent: "      "))
            }
            if group.diffs.count > 2 {
                terminal.writeLine("    and \(group.diffs.count - 2) more distinct change\(group.diffs.count == 3 ? "" : "s"): see the report.")
            }
        }
        terminal.writeLine(
            "Next: re-record the stale steps with `\(stale.rerecord)\(scopeArguments)\(variantArguments)` "
            + "(start the model first: `scripts/local-model serve qwen`), or with a hosted provider "
            + "(`\(Invocation.command) run --provider openai --record-missing\(scopeArguments)\(variantArguments)`); "
            + "then review the new outputs with `\(Invocation.command) pending\(variantArguments)`.")
    }

    /// Why steps did not run, as one count, the summary's, split by cause: the output of
    /// a stale step or of a step that produced none, a stop, or `--until`. Nothing is
    /// printed when every skipped step is past `--until`, which the run asked for.
    private func printSkipped(_ skipped: [SkippedStep], report: GoldenReport) {
        let staleFixtures = Set(report.verdicts.filter { $0.status == .stale }.map(\.key.fixture))
        let failedFixtures = Set(report.verdicts.filter { [.error, .regression, .new, .changed, .knownFailure].contains($0.status) }.map(\.key.fixture))
        var order: [String] = []
        var counts: [String: Int] = [:]
        for step in skipped {
            let note = step.note
            let cause = note.hasPrefix("not selected") ? "past --until"
                : staleFixtures.contains(step.key.fixture) ? "after a stale step"
                : note.hasPrefix("no ") && failedFixtures.contains(step.key.fixture) ? "after a step that produced no output"
                : note
            if counts[cause] == nil { order.append(cause) }
            counts[cause, default: 0] += 1
        }
        guard order.contains(where: { $0 != "past --until" }) else { return }
        let causes = order.map { "\(counts[$0]!) \($0)" }.joined(separator: ", ")
        terminal.writeLine(label(.skipped) + " \(skipped.count) step\(skipped.count == 1 ? "" : "s") did not run: \(causes).")
    }

    /// `busy-parent/goal-options, pregnant/goal-options`, or per step when there are many:
    /// `goal-options of 28 fixtures`.
    private static func listing(_ steps: [StepKey]) -> String {
        if steps.count <= 4 { return steps.map(\.description).joined(separator: ", ") }
        var order: [String] = []
        var fixtures: [String: Int] = [:]
        for step in steps {
            let kind = step.id?.step?.rawValue ?? step.step
            if fixtures[kind] == nil { order.append(kind) }
            fixtures[kind, default: 0] += 1
        }
        return order.map { "\($0) of \(fixtures[$0]!) fixture\(fixtures[$0]! == 1 ? "" : "s")" }.joined(separator: ", ")
    }

    private static func indented(_ text: String, by prefix: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }

    /// Known failures were approved and come back on every run: the most frequent
    /// checks on one line, not a line per step or per check (the report lists each).
    private func printKnownFailures(_ verdicts: [StepVerdict]) {
        guard !verdicts.isEmpty else { return }
        let steps = verdicts.count == 1 ? "1 step fails" : "\(verdicts.count) steps fail"
        let counts = Self.countsByCheck(verdicts.flatMap(\.knownFailures))
        let shown = Self.knownFailureChecksShown
        var line = label(.knownFailure) + " \(steps) only checks that failed in golden too: "
            + counts.prefix(shown).joined(separator: ", ")
        if counts.count > shown { line += " and \(counts.count - shown) more checks (the report lists every step)" }
        terminal.writeLine(line)
    }

    /// How many of the known failures' checks the terminal names.
    static let knownFailureChecksShown = 4

    /// Checks added since the outputs were approved pass the gate until they are
    /// approved: counted per check, with the way to approve them.
    private func printUnapprovedChecks(_ verdicts: [StepVerdict]) {
        guard !verdicts.isEmpty else { return }
        let steps = verdicts.count == 1 ? "1 step fails" : "\(verdicts.count) steps fail"
        printCounts(of: verdicts.flatMap(\.unapprovedChecks), headline: label(.unapprovedCheck) + " \(steps) new checks, not approved yet:")
        let accept = "`\(Invocation.command) accept --checks\(variantArguments)`"
        terminal.writeLine(ci
            ? "    To approve them: `\(Invocation.command) run\(variantArguments)` leaves them pending, then \(accept)."
            : "    \(accept) approves them where the output is unchanged.")
    }

    /// `check ×count`, most frequent first. An assertion is counted by its kind; its pattern is in the report.
    private static func countsByCheck(_ checks: [String]) -> [String] {
        var counts: [String: Int] = [:]
        for check in checks {
            let name = check.hasPrefix("assertion.") ? String(check.prefix { $0 != " " }) : check
            counts[name, default: 0] += 1
        }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
    }

    /// A count per check, wrapped, under `headline`.
    private func printCounts(of checks: [String], headline: String) {
        let byCheck = Self.countsByCheck(checks)
        terminal.writeLine(headline)
        var line = "   "
        for (index, item) in byCheck.enumerated() {
            let piece = " " + item + (index == byCheck.count - 1 ? "" : ",")
            if line.count + piece.count > 100, line.count > 3 {
                terminal.writeLine(line)
                line = "   "
            }
            line += piece
        }
        terminal.writeLine(line)
    }

    private func label(_ status: StepVerdict.Status) -> String {
        switch status {
        case .matches, .skipped: return terminal.styled(status.rawValue, .dim)
        case .knownFailure, .unapprovedCheck, .changed, .new: return terminal.styled(status.rawValue, .yellow)
        case .regression, .stale, .error: return terminal.styled(status.rawValue, .red)
        }
    }
}
