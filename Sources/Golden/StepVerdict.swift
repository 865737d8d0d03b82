import Checks
import JSONSchema
import Pipeline

/// How one fixture step compares with its approved golden output.
public struct StepVerdict: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Same output and check results as golden.
        case matches
        /// Same output; some checks fail that also failed in golden.
        case knownFailure = "known-failure"
        /// A valid output that differs from golden (pending approval).
        case changed
        /// A valid output with no golden yet (pending approval).
        case new
        /// A check that passed in golden fails now, or the step produced no valid output.
        case regression
        /// The recorded response does not match the request any more: re-record it.
        case stale
        /// The call failed.
        case error
        /// Not run (an earlier step failed, or it was not selected).
        case skipped

        /// The CI gate lets these through: known failures are not regressions, and a
        /// skipped step is judged by the step that failed before it.
        public var passesGate: Bool { [.matches, .knownFailure, .skipped].contains(self) }
    }

    public var key: StepKey
    public var status: Status
    /// Why, one line each: failed checks, what changed, the error.
    public var reasons: [String]
    /// The structural diff of the JSON output against golden, rendered.
    public var outputDiff: String?
    /// A unified diff of the program markdown against golden.
    public var markdownDiff: String?
    /// The output or its check results differ from golden (or there is no golden).
    public var differsFromGolden: Bool = false

    /// Whether the CI gate passes this step.
    public var passesGate: Bool { status.passesGate }

    /// Whether a pending output should be written for review.
    public var needsApproval: Bool {
        differsFromGolden && [.changed, .new, .regression].contains(status)
    }
}

/// Compares step results with golden entries.
public enum GoldenComparison {
    public static func verdict(for result: StepResult, fixture: String, approved: GoldenEntry?) -> StepVerdict {
        let key = StepKey(fixture: fixture, step: result.id)
        switch result.status {
        case .skipped:
            return StepVerdict(key: key, status: .skipped, reasons: result.note.map { [$0] } ?? [])
        case .error:
            let failure = result.failure ?? StepFailure(kind: "error", message: "unknown error")
            let stale = failure.kind == "missing-recording" || failure.kind == "stale-recording"
            return StepVerdict(key: key, status: stale ? .stale : .error, reasons: ["\(failure.kind): \(failure.message)"])
        case .invalid:
            return StepVerdict(key: key, status: .regression, reasons: ["no valid output: \(result.failure?.message ?? "invalid")"])
        case .valid:
            break
        }
        let output = result.output ?? .null
        let current = entry(for: result)
        guard let approved else {
            return StepVerdict(key: key, status: .new, reasons: ["no golden output yet"] + failedCheckReasons(result), differsFromGolden: true)
        }
        var reasons: [String] = []
        var regressions: [String] = []
        for check in result.failedChecks {
            if approved.checks[check.name] == false {
                reasons.append("known failure \(check.name): \(check.message)")
            } else {
                regressions.append("check \(check.name) failed (it passed in golden): \(check.message)")
            }
        }
        let newlyPassing = current.checks.filter { $0.value && approved.checks[$0.key] == false }.map(\.key).sorted()
        if !newlyPassing.isEmpty { reasons.append("now passing: " + newlyPassing.joined(separator: ", ")) }

        // Most steps replay exactly what was approved: equal values need no diff.
        var jsonDiff: JSONDiff?
        var markdownDiff: LineDiff?
        if approved.output != output {
            let diff = JSONDiff(old: withoutMarkdown(approved.output), new: withoutMarkdown(output))
            if !diff.isEmpty { jsonDiff = diff }
            let oldMarkdown = approved.output[GoldenStore.markdownKey]?.stringValue ?? ""
            let newMarkdown = output[GoldenStore.markdownKey]?.stringValue ?? ""
            let lines = LineDiff(old: oldMarkdown, new: newMarkdown)
            if lines.hasChanges { markdownDiff = lines }
        }
        let outputChanged = jsonDiff != nil || markdownDiff != nil || current.checks != approved.checks
        var verdict = StepVerdict(
            key: key, status: .matches, reasons: regressions + reasons,
            outputDiff: jsonDiff?.rendered(),
            markdownDiff: markdownDiff?.unified(oldName: "golden markdown", newName: "new markdown"),
            differsFromGolden: outputChanged)
        if !regressions.isEmpty {
            verdict.status = .regression
        } else if outputChanged {
            verdict.status = .changed
            if let jsonDiff { verdict.reasons.insert("the output differs from golden (\(jsonDiff.changes.count) change\(jsonDiff.changes.count == 1 ? "" : "s"))", at: 0) }
            if let markdownDiff { verdict.reasons.append("the markdown differs (+\(markdownDiff.addedCount) −\(markdownDiff.removedCount) lines)") }
        } else if !result.failedChecks.isEmpty {
            verdict.status = .knownFailure
        }
        return verdict
    }

    /// The entry a valid result would be approved as.
    public static func entry(for result: StepResult) -> GoldenEntry {
        var checks: [String: Bool] = [:]
        for check in result.checks { checks[check.name] = (checks[check.name] ?? true) && check.passed }
        return GoldenEntry(output: result.output ?? .null, checks: checks)
    }

    private static func failedCheckReasons(_ result: StepResult) -> [String] {
        result.failedChecks.map { "check \($0.name) failed: \($0.message)" }
    }

    private static func withoutMarkdown(_ value: JSONValue) -> JSONValue {
        guard case .object(var object) = value else { return value }
        object[GoldenStore.markdownKey] = nil
        return .object(object)
    }
}

