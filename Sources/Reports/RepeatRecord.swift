import Foundation
import Pipeline

/// One repeat of one fixture step under `run --repeat N`: what a step report keeps of
/// every repeat, enough to recompute the run's stability (`RepeatStatistics`) from
/// `results.json` alone, or to pair two runs repeat by repeat.
public struct RepeatRecord: Codable, Sendable, Hashable {
    /// 1...N.
    public var repeatNumber: Int
    /// How the step ended in this repeat: `valid`, `invalid`, `error` or `skipped`.
    public var outcome: StepStatus
    public var firstPassValid: Bool
    /// The checks that ran, each name once, in the order they ran.
    public var checks: [String]
    /// The checks that failed, each name once.
    public var failedChecks: [String]
    public var inputTokens: Int
    public var outputTokens: Int
    public var latencySeconds: Double
    /// Why the call failed, when it did (`stale-recording`, `timeout`...).
    public var failure: StepFailure.Kind?

    public init(
        repeatNumber: Int, outcome: StepStatus, firstPassValid: Bool, checks: [String], failedChecks: [String],
        inputTokens: Int = 0, outputTokens: Int = 0, latencySeconds: Double = 0, failure: StepFailure.Kind? = nil
    ) {
        self.repeatNumber = repeatNumber
        self.outcome = outcome
        self.firstPassValid = firstPassValid
        self.checks = checks
        self.failedChecks = failedChecks
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.latencySeconds = latencySeconds
        self.failure = failure
    }

    public init(_ result: StepResult, repeatNumber: Int) {
        var ran = Set<String>(), failed = Set<String>()
        self.init(
            repeatNumber: repeatNumber, outcome: result.status, firstPassValid: result.firstPassValid,
            checks: result.checks.map(\.name).filter { ran.insert($0).inserted },
            failedChecks: result.failedChecks.map(\.name).filter { failed.insert($0).inserted },
            inputTokens: result.usage.input, outputTokens: result.usage.output, latencySeconds: result.latency,
            failure: result.failure?.kind)
    }

    /// A valid output with every check passing.
    public var passed: Bool { outcome == .valid && failedChecks.isEmpty }

    /// Whether the repeat says anything about the prompt: it ran, and its recording was
    /// not missing or stale (that is reported as stale, not counted as a failure).
    public var counts: Bool { outcome != .skipped && !(failure?.isStaleRecording ?? false) }

    /// The model answered and the answer was judged (valid or invalid): what a paired
    /// comparison pairs, repeat by repeat.
    public var wasProduced: Bool { outcome == .valid || outcome == .invalid }

    /// Whether `check` passed, nil when it did not run in this repeat.
    public func passed(check: String) -> Bool? {
        checks.contains(check) ? !failedChecks.contains(check) : nil
    }

    private enum CodingKeys: String, CodingKey {
        case repeatNumber = "repeat"
        case outcome, firstPassValid, checks, failedChecks, inputTokens, outputTokens, latencySeconds, failure
    }
}
