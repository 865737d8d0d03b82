import Foundation
import Golden

/// `report.md`: the summary and what needs a reviewer, short enough for a
/// pull-request comment (long diffs are cut, with a pointer to the full report).
///
/// Tables hold one line per row: anything with line breaks (a diff, a prompt
/// change) goes in a fenced block below its entry, and a tag such as
/// `<current_program>` is shown as code, never as markup.
public enum MarkdownReport {
    /// Lines of diff shown per step before cutting.
    static let diffLineLimit = 20
    /// Entries of "Needs attention" shown in full before the rest are only named.
    static let stepLimit = 15

    public static func render(_ report: RunReport) -> String {
        var lines = summary(report)
        if let safety = report.safetyLine {
            let failures = (report.approvedSafetyFailures ?? []).map { failure in
                "- " + code(failure.step) + ": " + failure.checks.map(code).joined(separator: ", ")
                    + (failure.allowedBecause.map { " (allowed: " + inline($0) + ")" } ?? " (**not allowed**)")
            }
            lines.insert(contentsOf: ["", "⚠️ **" + inline(safety) + "**", "", "<details><summary>Each one</summary>", ""] + failures + ["", "</details>"],
                         at: min(1, lines.count))
        }
        if let repeats = report.repeats {
            lines += ["", "### Stability over \(repeats.repeats) repeats", "",
                      "| " + repeats.tableHeader.joined(separator: " | ") + " |",
                      "|" + repeats.tableHeader.map { _ in "---" }.joined(separator: "|") + "|"]
            lines += repeats.tableRows.map { "| " + $0.map(tableCell).joined(separator: " | ") + " |" }
            if !repeats.shortfalls.isEmpty {
                lines += [""] + repeats.shortfalls.map { "❌ Below the required pass rate: " + inline($0) }
            }
            let unstable = repeats.unstableCheckRows
            if !unstable.isEmpty {
                lines += ["", "Checks that did not pass every run (least stable first):", "",
                          "| " + repeats.checkTableHeader.joined(separator: " | ") + " |",
                          "|" + repeats.checkTableHeader.map { _ in "---" }.joined(separator: "|") + "|"]
                lines += unstable.prefix(stepLimit).map { "| " + $0.map(tableCell).joined(separator: " | ") + " |" }
                if unstable.count > stepLimit { lines += ["", "…and \(unstable.count - stepLimit) more in the full report."] }
            }
            if !repeats.flakyLines.isEmpty {
                lines += ["", "Flaky checks:"] + repeats.flakyLines.prefix(stepLimit).map { "- " + code($0) }
            }
            lines += ["", Self.repeatNote]
        }
        lines += attention(report)
        if let agreement = report.agreement { lines += Self.agreement(agreement) }
        if let suite = report.suiteChecks {
            lines += ["", "### Programs side by side", ""]
                + suite.map { "- \($0.passed ? "✅" : "⚠️") " + code($0.name) + ": " + inline($0.message) }
                + ["", inline(RunReport.suiteNote)]
        }
        if !report.orphans.isEmpty {
            lines += ["", "### Orphaned golden files", ""] + report.orphans.map { "- " + code($0) }
        }
        let known = report.knownFailures
        if !known.isEmpty {
            lines += ["", "<details><summary>\(known.count) known failure\(known.count == 1 ? "" : "s") (failing in golden too)</summary>", ""]
            lines += known.map { "- " + code($0.name) + ": " + inline($0.step.fullSummary) }
            lines += ["", "</details>"]
        }
        let unapproved = report.unapprovedChecks
        if !unapproved.isEmpty {
            lines += ["", "<details><summary>\(unapproved.count) step\(unapproved.count == 1 ? "" : "s") failing new checks, not approved yet</summary>", ""]
            lines += unapproved.map { "- " + code($0.name) + ": " + inline($0.step.fullSummary) }
            lines += ["", inline(RunReport.unapprovedChecksNote), "", "</details>"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The checks against reviewers' labels: the matrix, each check's precision, the
    /// blind spots by reason and the false alarms by check.
    static func agreement(_ agreement: Agreement) -> [String] {
        func table(_ header: [String], _ rows: [[String]]) -> [String] {
            ["| " + header.joined(separator: " | ") + " |", "|" + header.map { _ in "---" }.joined(separator: "|") + "|"]
                + rows.map { "| " + $0.map(tableCell).joined(separator: " | ") + " |" }
        }
        var lines = ["", "### Checks against reviewers", ""] + table(Agreement.tableHeader, agreement.tableRows) + ["", inline(Agreement.legend)]
        if agreement.blindSpots.isEmpty {
            lines += ["", "No blind spots: every output a reviewer rejected fails a check."]
        } else {
            lines += ["", "Blind spots (a reviewer rejects, every check passes), by reason:", ""]
            lines += agreement.blindSpots.map { "- " + code($0.name) + " (\($0.outputs.count)): " + $0.outputs.map(code).joined(separator: ", ") }
        }
        if !agreement.falseAlarms.isEmpty {
            lines += ["", "False alarms (a reviewer signs, a check fails), by check:", ""]
            lines += agreement.falseAlarms.map { "- " + code($0.name) + " (\($0.outputs.count)): " + $0.outputs.map(code).joined(separator: ", ") }
        }
        if !agreement.stale.isEmpty {
            lines += ["", "Stale labels (the output changed since; not counted): " + agreement.stale.map(code).joined(separator: ", ")]
        }
        if !agreement.checks.isEmpty {
            lines += ["", "<details><summary>Each check against reviewer rejections</summary>", ""]
            lines += table(Agreement.checkTableHeader, agreement.checkTableRows) + ["", "</details>"]
        }
        return lines
    }

    /// What the stability figures mean, under their table.
    static let repeatNote = "Pass rates are the mean over repeats (lowest–highest repeat), with the Wilson 95% interval over every run; "
        + "pass@k is the share of cases (fixture steps) where at least one of k repeats passes, pass^k where all k pass. "
        + "The sections below show the first repeat."

    private static func summary(_ report: RunReport) -> [String] {
        let run = report.run
        let totals = report.totals
        // A replay's tokens are the recorded calls'; only the duration is this run's.
        let tokens = "\(totals.inputTokens + totals.outputTokens) \(run.isReplay ? "recorded " : "")tokens"
        var lines = [
            "## trainer-eval: \(totals.passesGate ? "✅ gate passes" : "❌ gate fails")",
            "",
            "Run \(code(run.id)) · \(run.providerLabel) \(code(run.model)) · commit \(code(run.commit ?? "unknown")) · "
                + String(format: "%.1f s", run.durationSeconds) + " · " + tokens
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
            + run.prompts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.versionLabel)" }.joined(separator: ", ") + ".")
        if let interventions = totals.interventionSummary {
            lines.append("Guardrail interventions: \(interventions).")
        }
        if run.isReplay {
            lines.append("Replayed from the recordings in `golden/`: latencies, tokens and cost are the recorded calls'.")
        }
        return lines
    }

}
