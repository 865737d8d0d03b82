import Foundation
import Golden

extension StepReport {
    /// One short line on why the step has its status, for lists and junit messages:
    /// for a known failure what fails, else the first line of the first reason that
    /// is not a known failure (a changed step lists its known failures too).
    public var summary: String {
        ReportText.headline(fullSummary)
    }

    /// `summary` before it is cut to length.
    var fullSummary: String {
        if status == .knownFailure {
            if let why = unusableReplyReason { return "unusable reply: " + why }
            if !failedCheckNames.isEmpty { return "checks " + failedCheckNames.map { "`\($0)`" }.joined(separator: ", ") }
        }
        let reason = reasons.first { !$0.hasPrefix(Self.knownFailurePrefix) } ?? reasons.first
        return reason.map { ReportText.split($0).headline } ?? status.label
    }

    /// How the golden verdict starts a reason about a check that failed in golden too.
    static let knownFailurePrefix = "known failure "

    /// The names of the checks that fail, each once, in the order they ran.
    public var failedCheckNames: [String] {
        var seen = Set<String>()
        return checks.filter { !$0.passed && seen.insert($0.name).inserted }.map(\.name)
    }

    /// Why no attempt gave a usable reply, in a few words; nil when the step has a valid output.
    public var unusableReplyReason: String? {
        guard outcome == .invalid else { return nil }
        let tries = attempts.count > 1 ? " (\(attempts.count) attempts)" : ""
        if attempts.last?.finishReason == "length" { return "cut off at the token limit" + tries }
        let problem = attempts.last?.problems.first ?? failure?.message ?? "invalid"
        return ReportText.headline(problem, limit: 100) + tries
    }

    /// Latency and tokens per attempt, so that a repaired step's total is never mistaken
    /// for one reply: `9.0 + 8.0 s · 2000→700 + 2300→650 tok (2 attempts)`. Replayed
    /// figures come from the recordings and say so.
    public func figures(recorded: Bool) -> String? {
        guard !attempts.isEmpty else { return nil }
        let seconds = attempts.map { String(format: "%.1f", $0.latencySeconds) }.joined(separator: " + ")
        let tokens = attempts.map { "\($0.inputTokens)→\($0.outputTokens)" }.joined(separator: " + ")
        let tries = attempts.count > 1 ? " (\(attempts.count) attempts)" : ""
        return (recorded ? "recorded " : "") + "\(seconds) s · \(tokens) tok\(tries)"
    }
}
