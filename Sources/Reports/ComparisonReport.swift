import Foundation
import Intake
import JSONSchema

/// A comparison as text for a terminal, markdown for a pull request, and a
/// self-contained HTML page.
public enum ComparisonReport {
    /// `improved 3 · regressed 1 · changed 4 · unchanged 40`: the cases both runs produced.
    public static func summaryLine(_ comparison: RunComparison) -> String {
        let paired = RunComparison.Change.allCases.filter { $0 != .onlyInBase && $0 != .onlyInHead }
        let line = paired.compactMap { change in
            comparison.count(change) == 0 ? nil : "\(change.rawValue) \(comparison.count(change))"
        }.joined(separator: " · ")
        return line.isEmpty ? "no case both runs produced" : line
    }

    /// `only in base: 24 cases; only in goal-options=three-short: 0`: the cases one run
    /// produced and the other did not (no recording, an error, skipped), which are not
    /// pairs; nil when there are none.
    public static func unpairedLine(_ comparison: RunComparison) -> String? {
        guard comparison.onlyInBase + comparison.onlyInHead > 0 else { return nil }
        let base = comparison.onlyInBase, head = comparison.onlyInHead
        return "only in \(comparison.baseName): \(base) case\(base == 1 ? "" : "s"); only in \(comparison.headName): \(head)"
            + " (not paired, not part of the verdict)"
    }

    /// `A` and `B` named by what they ran, with their run ids:
    /// `goal-options=three-short (run 20260102-…) against base (run 20260101-…)`.
    public static func headline(_ comparison: RunComparison) -> String {
        func side(_ name: String, _ run: String?) -> String {
            guard let run, !name.contains(run) else { return name }
            return "\(name) (run \(run))"
        }
        return "\(side(comparison.headName, comparison.headRunID)) against \(side(comparison.baseName, comparison.baseRunID))"
    }

    /// Why the evidence cannot decide and what could: nil unless the verdict is `too-few-pairs`.
    public static func shortfallLine(_ comparison: RunComparison) -> String? {
        let verdict = comparison.verdict
        guard let shortfall = verdict.shortfall else { return nil }
        let discordant = verdict.aBetter + verdict.bBetter
        var line = "  too few pairs to decide: \(discordant) of \(verdict.pairs) pair\(verdict.pairs == 1 ? "" : "s") differ; "
            + "at least \(shortfall.discordantNeeded) discordant pairs, all one way, are needed for p < \(PairedVerdict.significance)"
        if let needed = shortfall.pairsNeeded, let more = shortfall.morePairs, let repeats = shortfall.repeatsNeeded {
            line += "; at the observed rate (\(discordant) in \(verdict.pairs)) that takes about \(needed) paired cases, \(more) more"
                + " (more fixtures, or `\(Invocation.command) run --repeat \(repeats)` on both sides, compared repeat by repeat)"
        } else {
            line += "; no pair differs, so the observed rate gives no estimate of how many more cases would decide it"
        }
        return line
    }

    /// `paired: 28 cases · A passes 3 · B passes 5 · B better in 4, A in 2 · p = 0.688 (exact McNemar): no-difference`.
    public static func verdictLine(_ comparison: RunComparison) -> String {
        let verdict = comparison.verdict
        var line = "paired: \(verdict.pairs) cases · \(comparison.baseName) passes \(verdict.aPass) · \(comparison.headName) passes \(verdict.bPass)"
        line += " · \(comparison.headName) better in \(verdict.bBetter), \(comparison.baseName) in \(verdict.aBetter)"
        line += " · p = \(format(verdict.pValue)) (exact McNemar): \(verdict.verdict.rawValue)"
        if let tokens = verdict.tokens {
            line += " · tokens \(signed(tokens.meanDifference)) per case [\(signed(tokens.interval.lower)), \(signed(tokens.interval.upper))]"
        }
        return line
    }

    /// The checks whose pass rate moved, with their own p-values: `program.rest-days 40 → 46 of 52 (p = 0.031)`.
    public static func checkLines(_ comparison: RunComparison) -> [String] {
        comparison.verdict.checks.filter { $0.aPass != $0.bPass }.map { check in
            "  \(check.name) \(check.aPass) → \(check.bPass) of \(check.pairs) (p = \(format(check.pValue)))"
        }
    }

    /// `compare --format json`: one object for tools and scripts.
    public static func json(_ comparison: RunComparison) -> JSONValue {
        let verdict = comparison.verdict
        func difference(_ value: PairedVerdict.Difference?) -> JSONValue {
            guard let value else { return .null }
            return [
                "a_mean": .number(value.meanA), "b_mean": .number(value.meanB), "mean_difference": .number(value.meanDifference),
                "ci95": [.number(value.interval.lower), .number(value.interval.upper)],
            ]
        }
        return [
            "a": .string(comparison.baseName), "b": .string(comparison.headName), "pairs": .number(Double(verdict.pairs)),
            "a_pass": .number(Double(verdict.aPass)), "b_pass": .number(Double(verdict.bPass)),
            "a_better": .number(Double(verdict.aBetter)), "b_better": .number(Double(verdict.bBetter)),
            "p_value": .number(verdict.pValue), "verdict": .string(verdict.verdict.rawValue),
            "discordant_needed": verdict.shortfall.map { .number(Double($0.discordantNeeded)) } ?? .null,
            "pairs_needed": verdict.shortfall?.pairsNeeded.map { .number(Double($0)) } ?? .null,
            "only_in_a": .number(Double(comparison.onlyInBase)), "only_in_b": .number(Double(comparison.onlyInHead)),
            "a_run": comparison.baseRunID.map(JSONValue.string) ?? .null, "b_run": comparison.headRunID.map(JSONValue.string) ?? .null,
            "checks": .array(verdict.checks.map { check in
                [
                    "name": .string(check.name), "pairs": .number(Double(check.pairs)), "a_pass": .number(Double(check.aPass)),
                    "b_pass": .number(Double(check.bPass)), "p_value": .number(check.pValue),
                ]
            }),
            "tokens": difference(verdict.tokens), "latency_seconds": difference(verdict.latencySeconds),
            "repeats": comparison.repeats.map(repeatsJSON) ?? .null,
            "cases": .object(JSONObject(RunComparison.Change.allCases.map { JSONObject.Member(key: $0.rawValue, value: .number(Double(comparison.count($0)))) })),
        ]
    }

    static func format(_ p: Double) -> String {
        p < 0.001 ? "<0.001" : String(format: "%.3f", p)
    }

    private static func signed(_ value: Double) -> String {
        (value >= 0 ? "+" : "") + String(format: "%.0f", value)
    }

    /// Every case that is not unchanged, worst first, one line each with its details indented.
    public static func lines(_ comparison: RunComparison) -> [String] {
        sortedCases(comparison, includingUnchanged: false).flatMap { item in
            [item.change.rawValue.padding(toLength: max(9, item.change.rawValue.count), withPad: " ", startingAt: 0) + " \(item.key)"]
                + item.details.map { "          \($0)" }
        }
    }

    /// Markdown for a pull request: a table of the cases, one line each; details that span
    /// several lines follow the table in fenced blocks, never inside a cell.
    public static func markdown(_ comparison: RunComparison, includingUnchanged: Bool = false) -> String {
        var text = [
            "## trainer-eval: \(headline(comparison))", "",
            summaryLine(comparison), "", verdictLine(comparison), "",
        ]
        if let shortfall = shortfallLine(comparison) { text += [shortfall.trimmingCharacters(in: .whitespaces), ""] }
        if let unpaired = unpairedLine(comparison) { text += [unpaired, ""] }
        let shown = sortedCases(comparison, includingUnchanged: includingUnchanged)
        if shown.isEmpty {
            text.append("Every case is unchanged.")
        } else {
            text += ["| change | case | details |", "|---|---|---|"]
            var blocks: [String] = []
            for item in shown {
                let firstLines = item.details.map { $0.prefix { $0 != "\n" } }
                let cell = firstLines.joined(separator: "; ").replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "`", with: "'")
                text.append("| \(item.change.rawValue) | `\(item.key)` | \(cell) |")
                for detail in item.details where detail.contains("\n") {
                    blocks += ["", "`\(item.key)`:", "", "~~~", detail.replacingOccurrences(of: "~~~", with: "~ ~ ~"), "~~~"]
                }
            }
            text += blocks
        }
        return text.joined(separator: "\n") + "\n"
    }

    /// Writes `report.md` and `index.html` into `folder`, atomically.
    public static func write(_ comparison: RunComparison, outputs: ComparedOutputs, to folder: URL, includingUnchanged: Bool = false) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(markdown(comparison, includingUnchanged: includingUnchanged).utf8)
            .write(to: folder.appendingPathComponent("report.md"), options: .atomic)
        try Data(html(comparison, outputs: outputs, includingUnchanged: includingUnchanged).utf8)
            .write(to: folder.appendingPathComponent("index.html"), options: .atomic)
    }

    /// The cases worst first, unchanged ones only when asked for.
    private static func sortedCases(_ comparison: RunComparison, includingUnchanged: Bool) -> [RunComparison.Case] {
        comparison.cases.filter { includingUnchanged || $0.change != .unchanged }.sorted { ($0.change, $0.key) < ($1.change, $1.key) }
    }
}
