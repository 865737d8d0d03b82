import Checks
import Intake
import JSONSchema
import Providers

/// How a step ended.
public enum StepStatus: String, Codable, Hashable, Sendable {
    /// The output is valid against the step's schema.
    case valid
    /// The model answered, but no attempt produced a valid output.
    case invalid
    /// The call failed (HTTP error, timeout, missing key...).
    case error
    /// Not run, because an earlier step failed or it was not selected.
    case skipped
}

/// One call to the model within a step: the first try or a repair.
public struct Attempt: Codable, Hashable, Sendable {
    /// The reply text as received, for a reply that could not be used; empty for the
    /// reply the step used, whose output is the step's output.
    public var responseText: String
    public var finishReason: String?
    public var usage: TokenUsage
    public var latency: Double
    /// Why the reply could not be used: extraction or schema problems, one per line.
    public var problems: [String]
    /// Failed tries (rate limits, server errors) before this reply arrived.
    public var retries: Int = 0

    public init(responseText: String, finishReason: String?, usage: TokenUsage, latency: Double, problems: [String], retries: Int = 0) {
        self.responseText = responseText
        self.finishReason = finishReason
        self.usage = usage
        self.latency = latency
        self.problems = problems
        self.retries = retries
    }

    public var isValid: Bool { problems.isEmpty }
}

/// Why a step could not run to an answer.
public struct StepFailure: Codable, Hashable, Sendable {
    /// What kind of failure, spelled in reports as a provider error's kind or `invalid-output`.
    public enum Kind: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The provider call failed (replay's missing, stale or unreadable recordings included).
        case provider(ProviderError.Kind)
        /// The model answered, but no attempt produced a valid output.
        case invalidOutput
        /// Anything else that stopped the call.
        case other

        public var description: String {
            switch self {
            case .provider(let kind): return kind.rawValue
            case .invalidOutput: return "invalid-output"
            case .other: return "error"
            }
        }

        public init(_ text: String) {
            switch text {
            case "invalid-output": self = .invalidOutput
            case "error": self = .other
            default: self = ProviderError.Kind(rawValue: text).map(Self.provider) ?? .other
            }
        }

        /// Replay had no recording for the request, or one recorded for a different request.
        public var isStaleRecording: Bool {
            self == .provider(.missingRecording) || self == .provider(.staleRecording)
        }

        public init(from decoder: any Decoder) throws {
            self.init(try decoder.singleValueContainer().decode(String.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }

    public var kind: Kind
    public var message: String
    /// Tries made before giving up, for provider errors.
    public var retries: Int = 0
    /// Several lines that the one-line message summarises (a stale recording's request diff).
    public var detail: String?
    /// For a stale recording, the parts of the request that changed (see `ProviderError.causes`).
    public var causes: [String]?

    public init(kind: Kind, message: String, retries: Int = 0, detail: String? = nil, causes: [String]? = nil) {
        self.kind = kind
        self.message = message
        self.retries = retries
        self.detail = detail
        self.causes = causes
    }

    /// The failure a provider error leaves on its step.
    public init(_ error: ProviderError) {
        self.init(
            kind: .provider(error.kind), message: error.message, retries: error.retries,
            detail: error.detail, causes: error.causes.isEmpty ? nil : error.causes)
    }
}

/// Everything one step did, for reports, golden files and the summary.
public struct StepResult: Codable, Hashable, Sendable {
    /// Unique within a fixture: `goal-options`, `goal-options-edit-2`, `confirm`, `program-draft`...
    public var id: StepID
    public var status: StepStatus
    /// The validated output (for confirm, the chosen option).
    public var output: JSONValue?
    /// The request's messages. Once the step is judged its `schema` is dropped
    /// (`PromptLibrary.render` gives it again): reports show the messages only.
    public var prompt: RenderedPrompt?
    public var attempts: [Attempt]
    public var failure: StepFailure?
    /// Why the step was skipped, or how confirm chose.
    public var note: String?
    /// Cost in US dollars, when the price table knows the model.
    public var cost: Double?
    /// Domain checks and scenario assertions on the output (empty when there is none).
    public var checks: [CheckResult] = []
    /// What the backend's guardrails did, on every attempt: replies sent back, notes added.
    public var interventions: [Intervention] = []

    public init(
        id: StepID, status: StepStatus, output: JSONValue? = nil, prompt: RenderedPrompt? = nil,
        attempts: [Attempt] = [], failure: StepFailure? = nil, note: String? = nil, cost: Double? = nil
    ) {
        self.id = id
        self.status = status
        self.output = output
        self.prompt = prompt
        self.attempts = attempts
        self.failure = failure
        self.note = note
        self.cost = cost
    }

    /// The prompt step; nil for the deterministic confirm step.
    public var step: PipelineStep? { id.step }

    /// True when the first model reply was already valid.
    public var firstPassValid: Bool { attempts.first?.isValid ?? false }
    /// True when a repair attempt turned an invalid reply into a valid one.
    public var repaired: Bool { status == .valid && !firstPassValid && attempts.count > 1 }
    public var usage: TokenUsage { attempts.reduce(TokenUsage()) { $0 + $1.usage } }
    public var failedChecks: [CheckResult] { checks.filter { !$0.passed } }
    public var latency: Double { attempts.reduce(0) { $0 + $1.latency } }

    static func skipped(_ id: StepID, because reason: String) -> StepResult {
        StepResult(id: id, status: .skipped, note: reason)
    }

    /// Not run because the run stopped before it on purpose (`--until`).
    public var wasNotSelected: Bool {
        Pipeline.wasNotSelected(status, note: note)
    }
}

/// One fixture's trip through the pipeline.
public struct FixtureResult: Codable, Hashable, Sendable {
    public var fixture: String
    public var steps: [StepResult]

    public init(fixture: String, steps: [StepResult]) {
        self.fixture = fixture
        self.steps = steps
    }

    public var usage: TokenUsage { steps.reduce(TokenUsage()) { $0 + $1.usage } }
}

// A large run reads tens of thousands of step results back from its step cache:
// read straight from the parsed value, member by member as `Decodable` reads them.
// Anything else (a member of the wrong type) returns nil, and the decoder then
// reads it through `Decodable`, whose error names what is wrong.

extension StepResult: JSONValueReadable {
    public init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue.flatMap(StepID.init), let status = json["status"]?.stringValue.flatMap(StepStatus.init(rawValue:)),
              let attempts = json["attempts"]?.arrayValue?.map(Attempt.init(json:)), !attempts.contains(where: { $0 == nil }),
              let checks = json["checks"]?.arrayValue?.map(CheckResult.init(json:)), !checks.contains(where: { $0 == nil }),
              case .some(let output) = JSONValue.readIfPresent(json["output"], { $0 }),
              case .some(let note) = JSONValue.readIfPresent(json["note"], \.stringValue),
              case .some(let cost) = JSONValue.readIfPresent(json["cost"], \.numberValue),
              case .some(let prompt) = JSONValue.readIfPresent(json["prompt"], { try? JSONValueDecoder().decode(RenderedPrompt.self, from: $0) }),
              case .some(let failure) = JSONValue.readIfPresent(json["failure"], { try? JSONValueDecoder().decode(StepFailure.self, from: $0) }),
              let interventions = json["interventions"].flatMap({ try? JSONValueDecoder().decode([Intervention].self, from: $0) })
        else { return nil }
        self.init(id: id, status: status, output: output, prompt: prompt, attempts: attempts.compactMap { $0 }, failure: failure, note: note, cost: cost)
        self.checks = checks.compactMap { $0 }
        self.interventions = interventions
    }
}

extension Attempt: JSONValueReadable {
    public init?(json: JSONValue) {
        guard let responseText = json["responseText"]?.stringValue, case .some(let finishReason) = JSONValue.readIfPresent(json["finishReason"], \.stringValue),
              let usage = json["usage"].flatMap(TokenUsage.init(json:)), let latency = json["latency"]?.numberValue,
              let problems = json["problems"]?.arrayValue?.map(\.stringValue), !problems.contains(where: { $0 == nil }),
              let retries = json["retries"]?.intValue
        else { return nil }
        self.init(
            responseText: responseText, finishReason: finishReason, usage: usage, latency: latency, problems: problems.compactMap { $0 }, retries: retries)
    }
}

