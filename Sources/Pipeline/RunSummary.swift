import Foundation
import Intake
import Providers

/// Per-step totals of a run: validity, repairs, failures, tokens and latency.
public struct RunSummary: Sendable {
    public struct Row: Sendable, Hashable {
        /// A prompt step name, or `confirm`.
        public var step: String
        public var runs = 0
        public var firstPassValid = 0
        public var repaired = 0
        public var invalid = 0
        public var errors = 0
        public var skipped = 0
        public var checksPassed = 0
        public var checksFailed = 0
        public var usage = TokenUsage()
        public var latency: Double = 0
        public var cost: Double?

        /// Mean latency of the calls that ran, in seconds.
        public var meanLatency: Double { runs - skipped > 0 ? latency / Double(runs - skipped) : 0 }
    }

    public let rows: [Row]
    public let total: Row

    public init(_ results: [FixtureResult]) {
        var rows: [String: Row] = [:]
        let order = ["goal-options", "goal-options-edit", "confirm", "program-draft", "program-edit"]
        var total = Row(step: "total")
        for step in results.flatMap(\.steps) {
            let name = step.step?.rawValue ?? step.id.description
            var row = rows[name] ?? Row(step: name)
            for index in [0, 1] {
                var target = index == 0 ? row : total
                target.runs += 1
                switch step.status {
                case .valid where step.step != nil:
                    if step.firstPassValid { target.firstPassValid += 1 } else if step.repaired { target.repaired += 1 }
                case .valid: target.firstPassValid += 1
                case .invalid: target.invalid += 1
                case .error: target.errors += 1
                case .skipped: target.skipped += 1
                }
                target.checksPassed += step.checks.count - step.failedChecks.count
                target.checksFailed += step.failedChecks.count
                target.usage = target.usage + step.usage
                target.latency += step.latency
                if let cost = step.cost { target.cost = (target.cost ?? 0) + cost }
                if index == 0 { row = target } else { total = target }
            }
            rows[name] = row
        }
        self.rows = order.compactMap { rows[$0] }
        self.total = total
    }

    /// True when every step that ran produced a valid output and none errored.
    public var allValid: Bool { total.invalid == 0 && total.errors == 0 }
    public var allChecksPassed: Bool { total.checksFailed == 0 }

    /// A fixed-width text table for terminals and logs.
    /// The table; with `recorded`, latencies and tokens come from recordings (a replay)
    /// and the headers say so.
    public func table(recorded: Bool = false) -> String {
        let tokens = recorded ? "recorded " : ""
        let header = [
            "step", "runs", "1st-pass", "repaired", "invalid", "errors", "skipped", "checks ok", "failed",
            "\(tokens)tokens in", "\(tokens)tokens out", recorded ? "recorded mean s" : "mean s", "cost $",
        ]
        let lines = (rows + [total]).map { row -> [String] in
            [row.step, "\(row.runs)", "\(row.firstPassValid)", "\(row.repaired)", "\(row.invalid)", "\(row.errors)",
             "\(row.skipped)", "\(row.checksPassed)", "\(row.checksFailed)", "\(row.usage.input)", "\(row.usage.output)", String(format: "%.1f", row.meanLatency),
             row.cost.map { String(format: "%.4f", $0) } ?? "-"]
        }
        return TextTable(header: header, rows: Array(lines.dropLast()), footer: [lines.last!]).rendered
    }
}
