import Foundation
import Golden
import JSONSchema
import Pipeline
import Storage

/// One side of a compared case as the comparison page shows it: how the step
/// ended, its checks with what they found, and its output. It comes from a run's
/// `results.json`, from golden, or, when a run's report folder is gone, from its
/// history row alone (check names without messages, no output).
public struct ComparedOutput: Sendable, Hashable, ComparedStep {
    public struct Check: Sendable, Hashable {
        public var name: String
        public var passed: Bool
        /// What the check found; empty where the source kept no message.
        public var message: String

        public init(name: String, passed: Bool, message: String = "") {
            self.name = name
            self.passed = passed
            self.message = message
        }
    }

    /// `fixture/step`.
    public var key: String
    /// `valid`, `invalid`, `error` or `skipped`.
    public var outcome: String
    /// `kind: message` when the step failed.
    public var failure: String?
    /// In the order they ran.
    public var checks: [Check]
    /// The valid output; nil without one, or when the source did not keep it.
    public var output: JSONValue?
    /// The last reply, when no reply was usable.
    public var unusableReply: String?
    public var inputTokens: Int
    public var outputTokens: Int
    public var latencySeconds: Double

    public init(
        key: String, outcome: String, failure: String? = nil, checks: [Check], output: JSONValue? = nil, unusableReply: String? = nil,
        inputTokens: Int = 0, outputTokens: Int = 0, latencySeconds: Double = 0
    ) {
        self.key = key
        self.outcome = outcome
        self.failure = failure
        self.checks = checks
        self.output = output
        self.unusableReply = unusableReply
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.latencySeconds = latencySeconds
    }

    /// A step of a run's report.
    public init(fixture: String, step: StepReport) {
        self.init(
            key: "\(fixture)/\(step.id)", outcome: step.outcome.rawValue, failure: step.failure.map { "\($0.kind): \($0.message)" },
            checks: step.checks.map { Check(name: $0.name, passed: $0.passed, message: $0.message) },
            output: step.outcome == .valid ? step.output : nil,
            unusableReply: step.outcome == .invalid ? step.attempts.last?.responseText : nil,
            inputTokens: step.inputTokens, outputTokens: step.outputTokens, latencySeconds: step.latencySeconds)
    }

    /// An approved golden output; an approved unusable reply is a step without an output, as the gate reads it.
    public init(key: String, golden entry: GoldenEntry) {
        let usable = entry.isUsable
        self.init(
            key: key, outcome: usable ? "valid" : "invalid",
            checks: entry.checks.sorted { $0.key < $1.key }.map { Check(name: $0.key, passed: $0.value, message: entry.failureMessages[$0.key] ?? "") },
            output: usable ? entry.output : nil, unusableReply: usable ? nil : entry.output["unusable_reply"]?.stringValue)
    }

    /// Every step of a run's report, in fixture and step order.
    public static func steps(of report: RunReport) -> [ComparedOutput] {
        report.fixtures.flatMap { fixture in fixture.steps.map { ComparedOutput(fixture: fixture.name, step: $0) } }
    }

    public var failedCheckNames: Set<String> { Set(checks.filter { !$0.passed }.map(\.name)) }
    public var passedCheckNames: Set<String> { Set(checks.filter(\.passed).map(\.name)) }
    public var outputFingerprint: String? { output.map { Fingerprint.of(bytes: $0.serializedBytes(.canonical)) } }

    /// Passes as the paired verdict counts it: an output, and every check passed.
    public var passes: Bool { PairedVerdict.passes(self) }

    /// `fixture` of `fixture/step`.
    var fixture: String { String(key.prefix { $0 != "/" }) }
}

/// Both sides of a comparison, by `fixture/step`, for the page that sets them side by side.
public struct ComparedOutputs: Sendable {
    public var base: [String: ComparedOutput]
    public var head: [String: ComparedOutput]
    /// What the page cannot show and why, such as a run whose report folder was pruned.
    public var notes: [String]

    public init(base: [ComparedOutput], head: [ComparedOutput], notes: [String] = []) {
        self.base = Dictionary(base.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.head = Dictionary(head.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.notes = notes
    }
}
