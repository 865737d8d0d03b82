import Foundation
import Golden

/// `report.md`: the summary and what needs a reviewer, short enough for a
/// pull-request comment (long diffs are cut, with a pointer to the full report).
public enum MarkdownReport {
    /// Lines of diff shown per step before cutting.
    static let diffLineLimit = 20
    /// Steps listed in full before the rest are only counted.
    static let stepLimit = 15

    public static func render(_ report: RunReport) -> String {
        let run = report.run
        let totals = report.totals
        var lines = [
            "## trainer-eval: \(totals.passesGate ? "✅ gate passes" : "❌ gate fails")",
            "",
            "Run `\(run.id)` · \(run.provider) `\(run.model)` · commit `\(run.commit ?? "unknown")` · "
                + String(format: "%.1f s", run.durationSeconds) + " · \(totals.inputTokens + totals.outputTokens) tokens"
                + (totals.cost.map { String(format: " · $%.4f", $0) } ?? ""),
            "",
            "| status | steps |",
            "|---|---:|",
        ]
        for status in StepVerdict.Status.allCases.sorted(by: { $0.severity > $1.severity }) where report.count(status) > 0 {
            lines.append("| \(status.label) | \(report.count(status)) |")
        }
        if totals.orphans > 0 { lines.append("| orphaned golden | \(totals.orphans) |") }
        lines.append("")
        lines.append("First-pass validity \(totals.firstPassValid)/\(totals.steps), repaired \(totals.repaired); checks \(totals.checksPassed) passed, \(totals.checksFailed) failed. Prompts: "
            + run.prompts.sorted { $0.key < $1.key }.map { "\($0.key) v\($0.value.version)" }.joined(separator: ", ") + ".")

        if let repeats = report.repeats {
            lines += ["", "### Stability over \(repeats.repeats) repeats", "",
                      "| " + repeats.tableHeader.joined(separator: " | ") + " |",
                      "|" + repeats.tableHeader.map { _ in "---" }.joined(separator: "|") + "|"]
            lines += repeats.tableRows.map { "| " + $0.joined(separator: " | ") + " |" }
            if !repeats.flakyLines.isEmpty {
                lines += ["", "Flaky checks:"] + repeats.flakyLines.prefix(stepLimit).map { "- `\($0)`" }
            }
        }

        let attention: [StepVerdict.Status] = [.regression, .error, .stale, .changed, .new]
        let flagged = attention.flatMap { report.steps(withStatus: $0) }
        if !flagged.isEmpty {
            lines += ["", "### Needs attention", ""]
            for (fixture, step) in flagged.prefix(stepLimit) {
                lines.append("- **\(step.status.label)** `\(fixture.name)/\(step.id)`")
                for reason in step.reasons.prefix(6) { lines.append("  - \(oneLine(reason))") }
                if let diff = [step.diff?.output, step.diff?.markdown].compactMap({ $0 }).first {
                    let diffLines = diff.split(separator: "\n", omittingEmptySubsequences: false)
                    lines.append("")
                    lines.append("  ```diff")
                    lines += diffLines.prefix(diffLineLimit).map { "  " + $0 }
                    if diffLines.count > diffLineLimit { lines.append("  … \(diffLines.count - diffLineLimit) more lines in index.html") }
                    lines.append("  ```")
                }
            }
            if flagged.count > stepLimit { lines.append("- … and \(flagged.count - stepLimit) more: see index.html") }
        }
        if !report.orphans.isEmpty {
            lines += ["", "### Orphaned golden files", ""] + report.orphans.map { "- `\($0)`" }
        }
        let known = report.steps(withStatus: .knownFailure)
        if !known.isEmpty {
            lines += ["", "<details><summary>\(known.count) known failure\(known.count == 1 ? "" : "s") (failing in golden too)</summary>", ""]
            lines += known.map { "- `\($0.fixture.name)/\($0.step.id)`: " + $0.step.checks.filter { !$0.passed }.map(\.name).joined(separator: ", ") }
            lines += ["", "</details>"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func oneLine(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count > 300 ? String(flat.prefix(299)) + "…" : flat
    }
}
