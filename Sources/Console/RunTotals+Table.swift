import Foundation
import Reports

extension RunTotals {
    /// The per-step summary as a fixed-width table, the whole run as its footer. With
    /// `recorded` (a replay), latencies and tokens are the recordings' and the headers say so.
    public func table(recorded: Bool = false) -> String {
        let tokens = recorded ? "recorded " : ""
        let header = [
            "step", "runs", "1st-pass", "repaired", "invalid", "errors", "skipped", "checks ok", "failed",
            "\(tokens)tokens in", "\(tokens)tokens out", recorded ? "recorded mean s" : "mean s", "cost $",
        ]
        let lines = (rows + [total]).map { row -> [String] in
            [row.step, "\(row.runs)", "\(row.firstPassValid)", "\(row.repaired)", "\(row.invalid)", "\(row.errors)",
             "\(row.skipped)", "\(row.checksPassed)", "\(row.checksFailed)", "\(row.inputTokens)", "\(row.outputTokens)",
             String(format: "%.1f", row.meanLatency), row.cost.map { String(format: "%.4f", $0) } ?? "-"]
        }
        return TextTable(header: header, rows: Array(lines.dropLast()), footer: [lines.last!]).rendered
    }
}
