import Golden
import Intake
import Pipeline

/// A run's figures, counted once as its steps are reported: overall for the report
/// files and the history, and per step kind for the summary table.
public struct RunTotals: Codable, Sendable, Hashable {
    /// One step kind's figures, or the whole run's (`total`).
    public struct Row: Sendable, Hashable {
        /// A prompt step name, `confirm`, or `total`.
        public var step: String
        /// Steps of this kind, skipped ones included.
        public var runs = 0
        public var firstPassValid = 0
        public var repaired = 0
        public var invalid = 0
        public var errors = 0
        public var skipped = 0
        public var checksPassed = 0
        public var checksFailed = 0
        public var inputTokens = 0
        public var outputTokens = 0
        /// Seconds spent in calls, repairs included.
        public var latency: Double = 0
        /// In US dollars; nil when no step's model is in the price table.
        public var cost: Double?

        public init(step: String) {
            self.step = step
        }

        /// Mean latency of the steps that ran, in seconds.
        public var meanLatency: Double { runs - skipped > 0 ? latency / Double(runs - skipped) : 0 }

        mutating func add(_ report: StepReport) {
            runs += 1
            switch report.outcome {
            case .valid where report.step != nil:
                if report.firstPassValid { firstPassValid += 1 } else if report.repaired { repaired += 1 }
            case .valid: firstPassValid += 1
            case .invalid: invalid += 1
            case .error: errors += 1
            case .skipped: skipped += 1
            }
            let passed = report.checks.reduce(0) { $0 + ($1.passed ? 1 : 0) }
            checksPassed += passed
            checksFailed += report.checks.count - passed
            inputTokens += report.inputTokens
            outputTokens += report.outputTokens
            latency += report.latencySeconds
            if let stepCost = report.cost { cost = (cost ?? 0) + stepCost }
        }
    }

    /// Model steps per verdict status (`matches`, `regression`, ...); zero counts included.
    public var statuses: [String: Int] = Dictionary(uniqueKeysWithValues: StepVerdict.Status.allCases.map { ($0.rawValue, 0) })
    public var orphans = 0
    /// Model steps that were run (not skipped).
    public var steps = 0
    public var calls = 0
    public var firstPassValid = 0
    public var repaired = 0
    public var checksPassed = 0
    public var checksFailed = 0
    public var inputTokens = 0
    public var outputTokens = 0
    /// In US dollars; null when no step's model is in the price table.
    public var cost: Double?
    /// The gate's verdict: exit 0 under `--ci`.
    public var passesGate = false
    /// Model steps the backend's guardrails intervened in, per kind of intervention
    /// (`referral-appended`, `blocked-advice`...); nil when none did.
    public var interventions: [String: Int]?

    /// Per step kind in pipeline order (`goal-options`, `goal-options-edit`, `confirm`,
    /// `program-draft`, `program-edit`), for the summary table. Not part of
    /// `results.json`: empty in a report read back from one.
    public private(set) var rows: [Row] = []
    /// The whole run as one row, for the summary table's footer. Not part of `results.json`.
    public private(set) var total = Row(step: "total")

    public init() {}

    /// True when every step that ran produced a valid output and none errored.
    public var allValid: Bool { total.invalid == 0 && total.errors == 0 }

    /// Counts one reported step.
    mutating func add(_ step: StepReport) {
        statuses[step.status.rawValue, default: 0] += 1
        let kind = step.step?.rawValue ?? step.id
        if let index = rows.firstIndex(where: { $0.step == kind }) {
            rows[index].add(step)
        } else {
            var row = Row(step: kind)
            row.add(step)
            rows.append(row)
            rows.sort { Self.order(of: $0.step) < Self.order(of: $1.step) }
        }
        total.add(step)
        // A skipped step has no checks, tokens or cost: the whole run's row holds these figures.
        (checksPassed, checksFailed, inputTokens, outputTokens, cost) =
            (total.checksPassed, total.checksFailed, total.inputTokens, total.outputTokens, total.cost)
        guard step.outcome != .skipped, step.step != nil else { return }
        for kind in Set((step.interventions ?? []).map(\.kind)) { interventions = (interventions ?? [:]).merging([kind: 1], uniquingKeysWith: +) }
        steps += 1
        calls += step.attempts.count
        if step.firstPassValid { firstPassValid += 1 }
        if step.repaired { repaired += 1 }
    }

    private static func order(of kind: String) -> Int {
        kindOrder.firstIndex(of: kind) ?? .max
    }

    private static let kindOrder = PipelineStep.runOrder

    /// Equal when the reported figures are: the rows are derived from the same steps
    /// and are not kept in `results.json`.
    public static func == (lhs: RunTotals, rhs: RunTotals) -> Bool {
        (lhs.statuses, lhs.orphans, lhs.steps, lhs.calls, lhs.firstPassValid, lhs.repaired) ==
            (rhs.statuses, rhs.orphans, rhs.steps, rhs.calls, rhs.firstPassValid, rhs.repaired)
            && (lhs.checksPassed, lhs.checksFailed, lhs.inputTokens, lhs.outputTokens, lhs.cost, lhs.passesGate) ==
            (rhs.checksPassed, rhs.checksFailed, rhs.inputTokens, rhs.outputTokens, rhs.cost, rhs.passesGate)
            && lhs.interventions == rhs.interventions
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(statuses)
        hasher.combine(steps)
        hasher.combine(calls)
        hasher.combine(inputTokens)
        hasher.combine(outputTokens)
    }

    private enum CodingKeys: String, CodingKey {
        case statuses, orphans, steps, calls, firstPassValid, repaired, checksPassed, checksFailed, inputTokens, outputTokens, cost, passesGate
        case interventions
    }

    /// The interventions as a reader reads them: "referral-appended 14 of 56 steps, blocked-advice 3"; nil when none.
    public var interventionSummary: String? {
        guard let interventions, !interventions.isEmpty else { return nil }
        let parts = interventions.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
        return parts.joined(separator: ", ") + " of \(steps) model steps"
    }
}
