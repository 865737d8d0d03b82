import Foundation
import GRDB
import Intake
import JSONSchema
import Pipeline
import Reports

/// One run as stored: what ran, with what, and how it went.
public struct RunRow: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "run"

    public var id: String
    public var startedAt: Date
    public var durationSeconds: Double
    public var provider: String
    public var model: String
    public var commit: String?
    /// Each step's prompt as `step: vN fingerprint`, one per line.
    public var prompts: String
    public var ci: Bool
    public var interrupted: Bool
    /// Model steps that ran.
    public var steps: Int
    /// Model steps that passed the gate (matches, known failures or unapproved checks).
    public var passed: Int
    /// Counts per status as `status=n` pairs, worst first.
    public var statuses: String
    public var inputTokens: Int
    public var outputTokens: Int
    public var cost: Double?
    public var passesGate: Bool
    public var reportFolder: String?

    /// Share of the model steps that passed the gate, 0...1.
    public var passRate: Double { steps == 0 ? 0 : Double(passed) / Double(steps) }

    /// How many steps had each golden status (`matches`, `known-failure`...), from `statuses`.
    public var statusCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for pair in statuses.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let count = Int(parts[1]) { counts[String(parts[0])] = count }
        }
        return counts
    }

    /// Model steps that passed the gate only because their failing checks failed in golden too.
    public var knownFailures: Int { statusCounts["known-failure"] ?? 0 }

    /// Model steps that passed the gate while failing checks added since their output was approved.
    public var unapprovedChecks: Int { statusCounts["unapproved-check"] ?? 0 }

    init(_ report: RunReport, reportFolder: String?) {
        let modelSteps = report.fixtures.flatMap(\.steps).filter { $0.step != nil && $0.outcome != .skipped }
        id = report.run.id
        startedAt = report.run.startedAt
        durationSeconds = report.run.durationSeconds
        provider = report.run.provider
        model = report.run.model
        commit = report.run.commit
        prompts = report.run.prompts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.versionLabel) \($0.value.fingerprint)" }.joined(separator: "\n")
        ci = report.run.ci
        interrupted = report.run.interrupted
        steps = modelSteps.count
        passed = modelSteps.filter(\.passesGate).count
        statuses = report.totals.statuses.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        inputTokens = report.totals.inputTokens
        outputTokens = report.totals.outputTokens
        cost = report.totals.cost
        passesGate = report.totals.passesGate
        self.reportFolder = reportFolder
    }

    /// The variants the run's steps ran, read back from `prompts`
    /// (`goal-options: version 2 variant terse 1a2b…`, or `v2 variant terse` as older
    /// runs wrote it), in step order.
    public var variants: [(step: String, name: String)] {
        prompts.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.first?.hasSuffix(":") == true, let marker = words.firstIndex(of: "variant"), marker + 1 < words.count else { return nil }
            return (String(words[0].dropLast()), String(words[marker + 1]))
        }
    }
}

extension RunRow {
    /// What the run ran, as golden folders name it: `base`, or the variants' label
    /// (`goal-options=three-short`, `goal-options=v2+goal-options-edit=v2+…`).
    public var variantLabel: String {
        var steps: [PipelineStep: String] = [:]
        for (step, name) in variants { if let step = PipelineStep(rawValue: step) { steps[step] = name } }
        return VariantSelection(steps: steps).track?.label ?? "base"
    }
}

/// One fixture step of a run as stored: enough to say what improved, regressed or changed.
public struct StepRow: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ComparedStep {
    public static let databaseTableName = "stepResult"

    public var runId: String
    public var fixture: String
    public var stepId: String
    /// The verdict against golden at the time of the run.
    public var status: String
    /// `valid`, `invalid`, `error` or `skipped`.
    public var outcome: String
    public var firstPassValid: Bool
    public var repaired: Bool
    public var latencySeconds: Double
    public var inputTokens: Int
    public var outputTokens: Int
    /// Names of the checks that failed, one per line.
    public var failedChecks: String
    /// Names of the checks that passed, one per line.
    public var passedChecks: String
    /// Fingerprint of the output's canonical JSON; nil without an output.
    public var outputFingerprint: String?
    /// `kind: message` when the step failed.
    public var failure: String?
    /// Every repeat of the step under `run --repeat N` (stored as JSON); nil without repeats.
    public var repeats: [RepeatRecord]?

    public var key: String { "\(fixture)/\(stepId)" }
    public var failedCheckNames: Set<String> { Set(failedChecks.split(separator: "\n").map(String.init)) }
    public var passedCheckNames: Set<String> { Set(passedChecks.split(separator: "\n").map(String.init)) }

    public init(
        runId: String, fixture: String, stepId: String, status: String, outcome: String, firstPassValid: Bool = false,
        repaired: Bool = false, latencySeconds: Double = 0, inputTokens: Int = 0, outputTokens: Int = 0,
        failedChecks: [String], passedChecks: [String], output: JSONValue?, failure: String? = nil, repeats: [RepeatRecord]? = nil
    ) {
        self.runId = runId
        self.fixture = fixture
        self.stepId = stepId
        self.status = status
        self.outcome = outcome
        self.firstPassValid = firstPassValid
        self.repaired = repaired
        self.latencySeconds = latencySeconds
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.failedChecks = failedChecks.sorted().joined(separator: "\n")
        self.passedChecks = passedChecks.sorted().joined(separator: "\n")
        self.outputFingerprint = output.map { Fingerprint.of(bytes: $0.serializedBytes(.canonical)) }
        self.failure = failure
        self.repeats = repeats
    }

    init(runId: String, fixture: String, step: StepReport) {
        self.init(
            runId: runId, fixture: fixture, stepId: step.id, status: step.status.rawValue, outcome: step.outcome.rawValue,
            firstPassValid: step.firstPassValid, repaired: step.repaired, latencySeconds: step.latencySeconds,
            inputTokens: step.inputTokens, outputTokens: step.outputTokens,
            failedChecks: step.checks.filter { !$0.passed }.map(\.name), passedChecks: step.checks.filter(\.passed).map(\.name),
            output: step.outputFingerprint == nil ? step.output : nil, failure: step.failure.map { "\($0.kind): \($0.message)" },
            repeats: step.repeats)
        // A step read back whole keeps its output's fingerprint, not its output.
        if let known = step.outputFingerprint { outputFingerprint = known }
    }

    /// One statement inserts every row without repeats (`insertArguments`): a large run has ten thousand.
    static let insertSQL = """
        INSERT INTO stepResult (runId, fixture, stepId, status, outcome, firstPassValid, repaired, latencySeconds, inputTokens, \
        outputTokens, failedChecks, passedChecks, outputFingerprint, failure, repeats) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
        """

    var insertArguments: StatementArguments {
        [runId, fixture, stepId, status, outcome, firstPassValid, repaired, latencySeconds, inputTokens, outputTokens,
         failedChecks, passedChecks, outputFingerprint, failure]
    }
}
