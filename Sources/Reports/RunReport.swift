import Checks
import Foundation
import Golden
import Intake
import JSONSchema
import Pipeline

/// Everything one run produced and how it compares with golden: the model behind
/// `results.json` and every other report file.
///
/// The format is pinned by `Reports/schema/results.schema.json`; bump
/// `formatVersion` on any change that is not a pure addition.
public struct RunReport: Codable, Sendable {
    public static let currentFormatVersion = 1

    public var formatVersion = RunReport.currentFormatVersion
    public var run: RunInfo
    public var totals: RunTotals
    public var fixtures: [FixtureReport]
    /// Golden entries that no fixture produces any more, as `fixture/step`.
    public var orphans: [String]
    /// Stability across repeats, for `run --repeat N` with N > 1, computed from the
    /// steps' repeat records; the other fields describe the first repeat.
    public var repeats: RepeatStatistics?
    /// The checks against reviewers' labels of the outputs this run judged; nil when
    /// none of them is labelled.
    public var agreement: Agreement?
    /// Approved outputs this run judged that fail a safety check (`check-severity.yaml`),
    /// counted apart from known failures; nil when there are none.
    public var approvedSafetyFailures: [ApprovedSafetyFailure]?
    /// The people whose answers are written in a language the coaching data does not
    /// cover, and what they go without; nil when there are none.
    public var languageGaps: [LanguageGap]?
    /// Checks over the run's programs side by side (`suite.same-day`,
    /// `suite.prescription-share`), reported once for the run; nil when the run holds
    /// too few programs to judge.
    public var suiteChecks: [CheckResult]?

    /// A fixture written in a language the coaching data does not cover.
    public struct LanguageGap: Codable, Sendable, Hashable {
        public var fixture: String
        /// ISO 639-1.
        public var language: String
        public var consequence: String

        public init(fixture: String, language: String, consequence: String) {
            (self.fixture, self.language, self.consequence) = (fixture, language, consequence)
        }
    }

    /// An approved output that fails a safety check, and the reason a reviewer allowed it.
    public struct ApprovedSafetyFailure: Codable, Sendable, Hashable {
        /// `fixture/step`.
        public var step: String
        public var checks: [String]
        /// Nil when nothing allows the output as it is.
        public var allowedBecause: String?

        public init(step: String, checks: [String], allowedBecause: String?) {
            (self.step, self.checks, self.allowedBecause) = (step, checks, allowedBecause)
        }
    }

    /// The line every summary opens with when approved outputs fail a safety check.
    public var safetyLine: String? {
        guard let failures = approvedSafetyFailures, !failures.isEmpty else { return nil }
        let open = failures.filter { $0.allowedBecause == nil }.count
        return "\(failures.count) approved output\(failures.count == 1 ? " fails" : "s fail") a safety check: "
            + "\(failures.count - open) allowed for a reason, \(open) not (`trainer-eval unsafe` lists them)"
    }

    public struct RunInfo: Codable, Sendable {
        /// Sortable and filesystem-safe, such as `20261121-204501-replay`.
        public var id: String
        public var startedAt: Date
        public var durationSeconds: Double
        /// The provider kind as it answered (`replay`, `openai-compatible`, `anthropic`, ...).
        public var provider: String
        /// The provider as `--provider` named it, when that is another name (`local`, served
        /// by `openai-compatible`); nil when the two agree.
        public var providerOption: String?
        /// The provider as the person typed it, with what served it when that differs:
        /// `local (openai-compatible)`, or `replay`.
        public var providerLabel: String { providerOption.map { "\($0) (\(provider))" } ?? provider }
        public var model: String
        /// The commit the prompts came from, with `-dirty` when the tree had changes.
        public var commit: String?
        /// Each step's prompt version and fingerprint.
        public var prompts: [String: PromptInfo]
        /// The CI gate was applied (nothing recorded or written to golden).
        public var ci: Bool
        /// Ctrl-C or SIGTERM stopped the run; unfinished steps are `skipped`.
        public var interrupted: Bool
        public var warnings: [String]
        /// The part of the suite this run covered (`run --shard K/N`); nil for a whole run.
        public var shard: Shard?
        /// The shard runs a `merge` combined, by run id; nil for a run of its own.
        public var mergedFrom: [String]?
        /// What the run covers, so shards of different suites are never merged: the
        /// fingerprint of the whole fixture list, the last step and whether checks ran.
        public var scope: String?

        public init(
            id: String, startedAt: Date, durationSeconds: Double, provider: String, model: String, commit: String?,
            prompts: [String: PromptInfo], ci: Bool, interrupted: Bool, warnings: [String], shard: Shard? = nil,
            mergedFrom: [String]? = nil, scope: String? = nil, providerOption: String? = nil
        ) {
            self.id = id
            self.providerOption = providerOption == provider ? nil : providerOption
            self.startedAt = startedAt
            self.durationSeconds = durationSeconds
            self.provider = provider
            self.model = model
            self.commit = commit
            self.prompts = prompts
            self.ci = ci
            self.interrupted = interrupted
            self.warnings = warnings
            self.shard = shard
            self.mergedFrom = mergedFrom
            self.scope = scope
        }

        /// ` --variant goal-options=terse` for each step that ran a variant, in step order:
        /// what a suggested command needs to reach the same golden files.
        public var variantArguments: String {
            PipelineStep.allCases.compactMap { step in prompts[step.rawValue]?.variant.map { " --variant \(step.rawValue)=\($0)" } }.joined()
        }

        /// The run replayed recordings: latencies and tokens are the recorded calls', not this run's.
        public var isReplay: Bool { provider == "replay" }
    }

    public struct PromptInfo: Codable, Sendable, Hashable {
        public var version: Int
        public var fingerprint: String
        /// The system message, the same for every fixture (steps carry only their user message).
        public var system: String
        /// The variant (`prompts/<step>/variants/<name>/`) the step ran; nil for the base prompt.
        public var variant: String?

        public init(version: Int, fingerprint: String, system: String, variant: String? = nil) {
            self.version = version
            self.fingerprint = fingerprint
            self.system = system
            self.variant = variant
        }

        /// `version 3`, or `version 3 variant concise` for a variant.
        public var versionLabel: String {
            "version \(version)" + (variant.map { " variant \($0)" } ?? "")
        }
    }

    public init(run: RunInfo, totals: RunTotals, fixtures: [FixtureReport], orphans: [String], repeats: RepeatStatistics? = nil) {
        self.run = run
        self.totals = totals
        self.fixtures = fixtures
        self.orphans = orphans
        self.repeats = repeats
    }
}

/// One fixture: its intake at a glance and its steps in order.
public struct FixtureReport: Codable, Sendable {
    public var name: String
    /// The intake record exactly as the app sends it.
    public var intake: JSONValue
    public var steps: [StepReport]
    /// The fixture's texts in the report files, kept from an earlier run, for a fixture
    /// read back whole: its steps then hold no output, golden output, prompt or intake.
    public var storedText: StoredFixtureText?

    enum CodingKeys: String, CodingKey {
        case name, intake, steps
    }

    public init(name: String, intake: JSONValue, steps: [StepReport], storedText: StoredFixtureText? = nil) {
        self.name = name
        self.intake = intake
        self.steps = steps
        self.storedText = storedText
    }

    /// The worst status among the steps, for sorting and filtering.
    public var status: StepVerdict.Status {
        steps.map(\.status).max { $0.severity < $1.severity } ?? .skipped
    }
}

/// One step of one fixture: what ran, what came out, and how it compares with golden.
public struct StepReport: Codable, Sendable {
    /// Unique within the fixture: `goal-options`, `goal-options-edit-2`, `confirm`, ...
    public var id: String
    /// The prompt step; null for the deterministic confirm step.
    public var step: PipelineStep?
    /// The verdict against golden.
    public var status: StepVerdict.Status
    /// How the step itself ended: `valid`, `invalid`, `error` or `skipped`.
    public var outcome: StepStatus
    /// One line each: failed checks, what changed, the error, why it was skipped.
    public var reasons: [String]
    public var failure: StepFailure?
    public var note: String?
    public var attempts: [AttemptReport]
    public var firstPassValid: Bool
    public var repaired: Bool
    public var latencySeconds: Double
    public var inputTokens: Int
    public var outputTokens: Int
    public var cost: Double?
    public var checks: [CheckReport]
    public var output: JSONValue?
    /// The approved output, when there is one and it differs from `output`.
    public var golden: JSONValue?
    public var diff: DiffReport?
    public var prompt: PromptReport?
    /// Every repeat of a model step, the first included, for `run --repeat N` with N > 1; nil otherwise.
    public var repeats: [RepeatRecord]?
    /// What the backend's guardrails did to the model's replies; nil when nothing.
    public var interventions: [Intervention]? = nil
    /// The fingerprint of `output`'s canonical JSON, when it was worked out before (a
    /// step read back without its output); not part of `results.json`.
    public var outputFingerprint: String? = nil

    enum CodingKeys: String, CodingKey {
        case id, step, status, outcome, reasons, failure, note, attempts, firstPassValid, repaired, latencySeconds
        case inputTokens, outputTokens, cost, checks, output, golden, diff, prompt, repeats, interventions
    }
}

public struct AttemptReport: Codable, Sendable, Hashable {
    public var latencySeconds: Double
    public var finishReason: String?
    public var inputTokens: Int
    public var outputTokens: Int
    /// Failed tries (rate limits, server errors) before this reply arrived.
    public var retries: Int
    /// Why the reply could not be used; empty when it was valid.
    public var problems: [String]
    /// The reply as received, for a reply that could not be used (a usable one is `output`).
    public var responseText: String?
}

public struct CheckReport: Codable, Sendable, Hashable {
    public var name: String
    public var passed: Bool
    public var message: String
    /// Whether the check passed in the approved golden output; null when there is none.
    public var passedInGolden: Bool?
}

public struct DiffReport: Codable, Sendable, Hashable {
    /// The structural changes, one line each (`~ path: old → new`, `+ path: new`, `- path: old`).
    public var output: String?
    /// A unified line diff of the program markdown.
    public var markdown: String?
}

/// The user message a step sent; the system message is in `run.prompts`.
public struct PromptReport: Codable, Sendable, Hashable {
    public var user: String
}

extension StepVerdict.Status {
    /// Higher is worse: the order a reviewer wants problems in.
    public var severity: Int {
        switch self {
        case .skipped: 0
        case .matches: 1
        case .knownFailure: 2
        case .unapprovedCheck: 3
        case .changed: 4
        case .new: 5
        case .stale: 6
        case .error: 7
        case .regression: 8
        }
    }

    /// How a reviewer reads the status.
    public var label: String {
        switch self {
        case .matches: "pass"
        case .knownFailure: "known failure"
        case .unapprovedCheck: "unapproved check"
        case .changed: "changed"
        case .new: "new"
        case .regression: "regression"
        case .stale: "stale"
        case .error: "error"
        case .skipped: "skipped"
        }
    }
}

/// A fixture's texts in the report files, kept on disk until they are copied there.
public struct StoredFixtureText: Sendable, Hashable {
    /// Its line of `results.json`.
    public var results: StoredBytes
    /// Its test suite in `junit.xml`.
    public var junit: StoredBytes
    /// Its section of `index.html`, in brief (every step passes the gate).
    public var html: StoredBytes

    public init(results: StoredBytes, junit: StoredBytes, html: StoredBytes) {
        (self.results, self.junit, self.html) = (results, junit, html)
    }
}

/// Bytes a file holds at a known place, read when they are written out: a fixture
/// read back whole keeps its report texts on disk, not in memory.
public struct StoredBytes: Sendable, Hashable {
    public var file: URL
    public var offset: Int
    public var count: Int
    /// The file as it was when the bytes were placed: one changed since (another run
    /// rewrote it) is not read.
    public var stamp: FileStamp

    public init(file: URL, offset: Int, count: Int, stamp: FileStamp) {
        self.file = file
        self.offset = offset
        self.count = count
        self.stamp = stamp
    }

    /// The bytes; an error when the file is gone, shorter or changed since.
    public func read() throws -> Data {
        guard let data = FileBytes.read(file.path, offset: offset, count: count, ifStamped: stamp) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [
                NSFilePathErrorKey: file.path,
                NSLocalizedDescriptionKey: "\(file.path) is gone or changed while this run went on (another run?): run again",
            ])
        }
        return data
    }
}
