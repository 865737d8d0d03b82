import Diff
import Intake
import Checks
import JSONSchema
import Pipeline
import Storage

/// How one fixture step compares with its approved golden output.
public struct StepVerdict: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Same output and check results as golden.
        case matches
        /// Same output; some checks fail that also failed in golden.
        case knownFailure = "known-failure"
        /// Same output; checks new to it since it was approved fail (pending approval).
        case unapprovedCheck = "unapproved-check"
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

        /// The CI gate lets these through: known failures are not regressions, a check
        /// added since the output was approved has never passed on it, and a skipped
        /// step is judged by the step that failed before it.
        public var passesGate: Bool { Gate.passes(self, mode: .ci) }
    }

    public var key: StepKey
    public var status: Status
    /// Why, one line each: failed checks, what changed, the error.
    public var reasons: [String]
    /// The structural diff of the JSON output against golden, rendered.
    public var outputDiff: String?
    /// A unified diff of the program markdown against golden.
    public var markdownDiff: String?
    /// For a stale recording: the diff of the recorded request against this run's.
    public var requestDiff: String?
    /// For a stale recording: the parts of the request that changed, each naming its file.
    public var staleCauses: [String] = []
    /// The output or its check results differ from golden (or there is no golden).
    public var differsFromGolden: Bool = false
    /// The checks that fail now and failed in golden too, by name.
    public var knownFailures: [String] = []
    /// The checks that fail now and that golden has no result for (added since it was
    /// approved), by name.
    public var unapprovedChecks: [String] = []
    /// For a step stale in a later repeat of `run --repeat N` only: the first repeat
    /// whose recording is missing or stale.
    public var staleRepeat: Int?

    public init(
        key: StepKey, status: Status, reasons: [String], outputDiff: String? = nil, markdownDiff: String? = nil, requestDiff: String? = nil,
        staleCauses: [String] = [], differsFromGolden: Bool = false, knownFailures: [String] = [], unapprovedChecks: [String] = [],
        staleRepeat: Int? = nil
    ) {
        self.key = key
        self.status = status
        self.reasons = reasons
        self.outputDiff = outputDiff
        self.markdownDiff = markdownDiff
        self.requestDiff = requestDiff
        self.staleCauses = staleCauses
        self.differsFromGolden = differsFromGolden
        self.knownFailures = knownFailures
        self.unapprovedChecks = unapprovedChecks
        self.staleRepeat = staleRepeat
    }

    /// Whether the CI gate passes this step.
    public var passesGate: Bool { status.passesGate }

    /// Whether a pending output should be written for review.
    public var needsApproval: Bool {
        differsFromGolden && [.changed, .new, .regression, .unapprovedCheck].contains(status)
    }
}

/// Compares step results with golden entries.
public enum GoldenComparison {
    public static func verdict(
        for result: StepResult, fixture: String, approved: GoldenEntry?, options: JSONDiff.Options = .init()
    ) -> StepVerdict {
        let key = StepKey(fixture: fixture, id: result.id)
        switch result.status {
        case .skipped:
            return StepVerdict(key: key, status: .skipped, reasons: result.note.map { [$0] } ?? [])
        case .error:
            let failure = result.failure ?? StepFailure(kind: .other, message: "unknown error")
            var verdict = StepVerdict(
                key: key, status: failure.kind.isStaleRecording ? .stale : .error, reasons: ["\(failure.kind): \(failure.message)"])
            verdict.requestDiff = failure.detail
            verdict.staleCauses = failure.causes ?? (failure.kind == .provider(.missingRecording) ? ["no recording"] : [])
            return verdict
        case .invalid:
            return invalidVerdict(for: result, key: key, approved: approved, options: options)
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
        var knownFailures: [String] = []
        var unapprovedChecks: [String] = []
        var unapprovedReasons: [String] = []
        for check in result.failedChecks {
            switch approved.checks[check.name] {
            case false?:
                knownFailures.append(check.name)
                reasons.append("known failure \(check.name): \(check.message)")
            case true?:
                regressions.append("check \(check.name) failed (it passed in golden): \(check.message)")
            case nil:
                if !unapprovedChecks.contains(check.name) { unapprovedChecks.append(check.name) }
                unapprovedReasons.append("new check, not approved yet: \(check.name): \(check.message)")
            }
        }
        let newlyPassing = current.checks.filter { $0.value && approved.checks[$0.key] == false }.map(\.key).sorted()
        if !newlyPassing.isEmpty { reasons.append("now passing: " + newlyPassing.joined(separator: ", ")) }

        // Most steps replay exactly what was approved: equal values need no diff.
        var jsonDiff: JSONDiff?
        var markdownDiff: LineDiff?
        if approved.output != output {
            (jsonDiff, markdownDiff) = diffs(from: approved.output, to: output, options: options)
        }
        // A check golden has no result for is new to this output: passing, it changes
        // nothing; failing, it waits for approval without failing the gate.
        let approvedChecksDiffer = approved.checks.contains { name, passed in current.checks[name] != passed }
        let outputChanged = jsonDiff != nil || markdownDiff != nil || approvedChecksDiffer
        var verdict = StepVerdict(
            key: key, status: .matches, reasons: regressions + unapprovedReasons + reasons,
            outputDiff: jsonDiff?.rendered(),
            markdownDiff: markdownDiff?.unified(oldName: "golden markdown", newName: "new markdown"),
            differsFromGolden: outputChanged || !unapprovedChecks.isEmpty, knownFailures: knownFailures)
        verdict.unapprovedChecks = unapprovedChecks
        if !regressions.isEmpty {
            verdict.status = .regression
        } else if outputChanged {
            verdict.status = .changed
            if let jsonDiff { verdict.reasons.insert("the output differs from golden (\(jsonDiff.changes.count) change\(jsonDiff.changes.count == 1 ? "" : "s"))", at: 0) }
            if let markdownDiff { verdict.reasons.append("the markdown differs (+\(markdownDiff.addedCount) −\(markdownDiff.removedCount) lines)") }
        } else if !unapprovedChecks.isEmpty {
            verdict.status = .unapprovedCheck
        } else if !result.failedChecks.isEmpty {
            verdict.status = .knownFailure
        }
        return verdict
    }

    /// The check a step without a usable reply fails. Approving such a step records
    /// the model's failure as known, with the reply it gave.
    public static let usableOutputCheck = GoldenEntry.usableOutputCheck

    /// A step whose reply never validated is a regression, unless that very reply
    /// was approved as a known failure.
    private static func invalidVerdict(
        for result: StepResult, key: StepKey, approved: GoldenEntry?, options: JSONDiff.Options
    ) -> StepVerdict {
        let problem = "no valid output: \(result.failure?.message ?? "invalid")"
        guard let approved else {
            // Nothing was approved to regress from: new, as a valid output would be, and
            // pending review, where a safety check keeps it from being approved by accident.
            return StepVerdict(
                key: key, status: .new, reasons: ["no golden output yet", problem + "; `accept --allow-unsafe REASON` records it as a known failure"],
                differsFromGolden: true)
        }
        guard !approved.isUsable else {
            var verdict = StepVerdict(key: key, status: .regression, reasons: [problem + " (golden has a valid output)"], differsFromGolden: true)
            // A reply that fails its schema but still parses (an option removed, a field
            // of the wrong type) is diffed too, so a reviewer sees what broke.
            if case .success(let reply) = JSONExtractor.extract(from: result.attempts.last?.responseText ?? "") {
                let (json, markdown) = diffs(from: approved.output, to: reply.value, options: options)
                verdict.outputDiff = json?.rendered()
                verdict.markdownDiff = markdown?.unified(oldName: "golden markdown", newName: "reply markdown")
            }
            return verdict
        }
        let current = entry(for: result)
        guard approved.output == current.output else {
            return StepVerdict(
                key: key, status: .changed, reasons: ["the unusable reply differs from the approved one", problem],
                outputDiff: JSONDiff(old: approved.output, new: current.output).rendered(), differsFromGolden: true)
        }
        return StepVerdict(
            key: key, status: .knownFailure, reasons: ["known failure \(usableOutputCheck): \(problem)"], knownFailures: [usableOutputCheck])
    }

    /// The structural and markdown diffs between two outputs, each nil when that part is unchanged.
    static func diffs(from approved: JSONValue, to output: JSONValue, options: JSONDiff.Options) -> (json: JSONDiff?, markdown: LineDiff?) {
        let json = JSONDiff(old: withoutMarkdown(approved), new: withoutMarkdown(output), options: options)
        let markdown = LineDiff(
            old: approved[GoldenStore.markdownKey]?.stringValue ?? "", new: output[GoldenStore.markdownKey]?.stringValue ?? "")
        return (json.isEmpty ? nil : json, markdown.hasChanges ? markdown : nil)
    }

    /// The entry a result would be approved as: the output and its check results,
    /// or for a step with no usable reply, the last reply as the model gave it.
    public static func entry(for result: StepResult) -> GoldenEntry {
        if result.status == .invalid {
            let reply = result.attempts.last?.responseText ?? ""
            return GoldenEntry(
                output: .object(JSONObject([.init(key: "unusable_reply", value: .string(reply))])), checks: [usableOutputCheck: false],
                failureMessages: [usableOutputCheck: result.failure?.message ?? "no valid output"])
        }
        var checks: [String: Bool] = [:]
        for check in result.checks { checks[check.name] = (checks[check.name] ?? true) && check.passed }
        var messages: [String: String] = [:]
        for check in result.failedChecks where messages[check.name] == nil { messages[check.name] = check.message }
        return GoldenEntry(output: result.output ?? .null, checks: checks, failureMessages: messages)
    }

    private static func failedCheckReasons(_ result: StepResult) -> [String] {
        result.failedChecks.map { "check \($0.name) failed: \($0.message)" }
    }

    /// The output without its program markdown, which is diffed line by line instead.
    static func withoutMarkdown(_ value: JSONValue) -> JSONValue {
        guard case .object(var object) = value else { return value }
        object[GoldenStore.markdownKey] = nil
        return .object(object)
    }
}
